/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.BufferedOutputStream;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.security.IntermediateEncryptedStream;

/**
 * Writes one new sorted run (an IFile with the job's map-output codec and intermediate-data
 * encryption) and counts its records. A run becomes visible only through {@link #commit}; a
 * {@link #discard}ed run leaves no file behind.
 */
class MarcoRunWriter<K, V> {
  /**
   * IFile writes every record length byte by byte; a buffer between its checksum stream and the
   * file turns those into large writes, so the file system statistics (a thread-local lookup per
   * write) are updated once per buffer instead of several times per record.
   */
  private static final int WRITE_BUFFER_BYTES = 64 * 1024;

  private final JobConf conf;
  private final FileSystem fs;
  private final Path path;
  private final CompressionCodec codec;
  private final String name;
  private final int mapOutputs;
  private final IFile.Writer<K, V> writer;
  private long records;

  @SuppressWarnings("unchecked")
  MarcoRunWriter(
      JobConf conf, FileSystem fs, Path path, CompressionCodec codec, String name, int mapOutputs)
      throws IOException {
    this.conf = conf;
    this.fs = fs;
    this.path = path;
    this.codec = codec;
    this.name = name;
    this.mapOutputs = mapOutputs;
    FSDataOutputStream file =
        IntermediateEncryptedStream.wrapIfNecessary(conf, MarcoLocalFiles.create(fs, path), path);
    this.writer =
        new IFile.Writer<>(
            conf,
            new FSDataOutputStream(new BufferedOutputStream(file, WRITE_BUFFER_BYTES), null),
            (Class<K>) conf.getMapOutputKeyClass(),
            (Class<V>) conf.getMapOutputValueClass(),
            codec,
            null,
            true);
  }

  void append(K key, V value) throws IOException {
    writer.append(key, value);
    records++;
  }

  void appendRaw(DataInputBuffer key, DataInputBuffer value) throws IOException {
    writer.append(key, value);
    records++;
  }

  long records() {
    return records;
  }

  /** Raw (uncompressed) bytes appended so far. */
  long bytesWritten() {
    return writer.getRawLength();
  }

  /** Closes the file and returns it as a run (not yet owned by anyone but the caller). */
  MarcoOnDiskRun<K, V> commit() throws IOException {
    writer.close();
    return new MarcoOnDiskRun<>(
        name, mapOutputs, false, conf, fs, path, codec, writer.getRawLength());
  }

  /** Drops a run that failed half-way. */
  void discard() {
    try {
      writer.close();
    } catch (IOException | RuntimeException ignored) {
      // The file is deleted next; a close failure changes nothing.
    }
    try {
      fs.delete(path, false);
    } catch (IOException ignored) {
      // Left in the attempt's local directory, which YARN removes with the container.
    }
  }

  Path path() {
    return path;
  }
}
