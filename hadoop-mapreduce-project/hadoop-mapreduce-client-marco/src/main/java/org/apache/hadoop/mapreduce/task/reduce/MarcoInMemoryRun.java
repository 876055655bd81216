/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.Merger.Segment;

/** A map output fetched into memory: uncompressed, decrypted IFile records without checksum. */
class MarcoInMemoryRun<K, V> extends MarcoShuffledRun<K, V> {
  private final Configuration conf;
  private final byte[] data;
  private final MarcoMemoryBudget budget;

  /** A failed shuffle releases whatever it holds: the memory comes back once, whoever asks. */
  private final AtomicBoolean released = new AtomicBoolean();

  MarcoInMemoryRun(String name, Configuration conf, byte[] data, MarcoMemoryBudget budget) {
    super(name, 1, true);
    this.conf = conf;
    this.data = data;
    this.budget = budget;
  }

  @Override
  boolean inMemory() {
    return true;
  }

  @Override
  long rawLength() {
    return data.length;
  }

  @Override
  Segment<K, V> segment() throws IOException {
    return new Segment<>(new MarcoByteArrayIFileReader<K, V>(conf, data), true);
  }

  @Override
  Segment<K, V> finalSegment() throws IOException {
    return segment();
  }

  @Override
  void release() {
    if (released.compareAndSet(false, true)) {
      budget.release(data.length);
    }
  }
}
