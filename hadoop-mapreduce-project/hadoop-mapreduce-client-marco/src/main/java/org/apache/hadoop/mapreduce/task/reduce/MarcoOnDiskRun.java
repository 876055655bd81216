/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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

  /**
   * Who holds the file: its owner (the merge manager, then the final merge), and each merge
   * reading it. One file, one rule: the last holder to let go removes it, so no merge ever reads
   * a file that another has deleted.
   */
  private final AtomicInteger holders = new AtomicInteger(1);

  private final AtomicBoolean ownerReleased = new AtomicBoolean();

  /** Set by {@link #finalSegment} when a detached merge still read the file. */
  private volatile boolean kept;

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
    if (holders.get() == 1 && ownerReleased.compareAndSet(false, true)) {
      // The final merge is the last reader: its segment removes the file once read.
      holders.set(0);
      return new Segment<>(conf, fs, path, codec, false, null, rawLength);
    }
    kept = true;
    return new Segment<>(conf, fs, path, codec, true, null, rawLength);
  }

  @Override
  boolean keptByFinalMerge() {
    return kept;
  }

  @Override
  void release() throws IOException {
    if (ownerReleased.compareAndSet(false, true)) {
      drop();
    }
  }

  @Override
  void beginRead() {
    holders.incrementAndGet();
  }

  @Override
  void endRead() throws IOException {
    drop();
  }

  /** The last holder removes the file. */
  private void drop() throws IOException {
    if (holders.decrementAndGet() == 0) {
      fs.delete(path, false);
    }
  }
}
