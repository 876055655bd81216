/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.Merger.Segment;

/**
 * An IFile on local disk, written with the job's map-output codec and intermediate-data
 * encryption: a map output shuffled to disk, or the output of a partial invocation.
 */
class MarcoOnDiskRun<K, V> extends MarcoShuffledRun<K, V> {
  private final Configuration conf;
  private final FileSystem fs;
  private final Path path;
  private final CompressionCodec codec;
  private final long rawLength;

  MarcoOnDiskRun(
      String name,
      int mapOutputs,
      boolean fetched,
      Configuration conf,
      FileSystem fs,
      Path path,
      CompressionCodec codec,
      long rawLength) {
    super(name, mapOutputs, fetched);
    this.conf = conf;
    this.fs = fs;
    this.path = path;
    this.codec = codec;
    this.rawLength = rawLength;
  }

  Path path() {
    return path;
  }

  @Override
  boolean inMemory() {
    return false;
  }

  @Override
  long rawLength() {
    return rawLength;
  }

  @Override
  Segment<K, V> segment() throws IOException {
    return new Segment<>(conf, fs, path, codec, true, null, rawLength);
  }

  @Override
  Segment<K, V> finalSegment() throws IOException {
    return new Segment<>(conf, fs, path, codec, false, null, rawLength);
  }

  @Override
  void release() throws IOException {
    fs.delete(path, false);
  }
}
