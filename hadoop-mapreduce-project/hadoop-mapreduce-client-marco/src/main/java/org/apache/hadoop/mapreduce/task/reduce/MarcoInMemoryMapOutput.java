/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.mapred.IFileInputStream;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.TaskAttemptID;

/** A map output fetched into memory: checksum verified, decompressed, then handed to MaRCO. */
class MarcoInMemoryMapOutput<K, V> extends MapOutput<K, V> {
  private final MarcoMergeManager<K, V> manager;
  private final JobConf conf;
  private final CompressionCodec codec;
  private final byte[] memory;

  MarcoInMemoryMapOutput(
      TaskAttemptID mapId,
      int size,
      MarcoMergeManager<K, V> manager,
      JobConf conf,
      CompressionCodec codec) {
    super(mapId, size, true);
    this.manager = manager;
    this.conf = conf;
    this.codec = codec;
    this.memory = new byte[size];
  }

  @Override
  public void shuffle(
      MapHost host,
      InputStream input,
      long compressedLength,
      long decompressedLength,
      ShuffleClientMetrics metrics,
      Reporter reporter)
      throws IOException {
    InputStream in = new IFileInputStream(input, compressedLength, conf);
    Decompressor decompressor = null;
    if (codec != null) {
      decompressor = CodecPool.getDecompressor(codec);
      decompressor.reset();
      in = codec.createInputStream(in, decompressor);
    }
    try {
      IOUtils.readFully(in, memory, 0, memory.length);
      metrics.inputBytes(memory.length);
      reporter.progress();
      // Draining the stream makes the decompressor consume its trailer and the checksum verify.
      if (in.read() >= 0) {
        throw new IOException("Unexpected extra bytes from input stream for " + getMapId());
      }
    } finally {
      if (decompressor != null) {
        CodecPool.returnDecompressor(decompressor);
      }
    }
  }

  @Override
  public void commit() {
    manager.commitInMemory(getMapId(), memory);
  }

  @Override
  public void abort() {
    manager.abortInMemory(memory.length);
  }

  @Override
  public String getDescription() {
    return "MEMORY";
  }
}
