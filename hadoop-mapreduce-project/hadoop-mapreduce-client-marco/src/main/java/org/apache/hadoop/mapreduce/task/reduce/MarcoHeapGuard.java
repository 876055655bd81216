/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Says when the heap has no room for partial work. Stock Hadoop runs the reducer only after the
 * shuffle has freed its in-memory map outputs; a partial reducer runs next to them, and one that
 * builds lists or sets could run the task out of memory where stock would not. The signal is the
 * tenured generation as the last full collection left it (live data, not garbage), against that
 * generation's maximum: young collections and allocation do not move it, so it is stable enough
 * to poll, and it rises only when the live set does.
 */
class MarcoHeapGuard {
  /** Running merges poll the guard once per this many records. */
  static final int RECORDS_PER_CHECK = 256;

  private final LongSupplier usedAfterCollection;
  private final long max;
  private final float limit;

  /**
   * @param usedAfterCollection live bytes as the last full collection left them
   * @param max the bytes that generation may hold
   * @param limit the share of {@code max} above which there is no room (1: always room)
   */
  MarcoHeapGuard(LongSupplier usedAfterCollection, long max, float limit) {
    this.usedAfterCollection = usedAfterCollection;
    this.max = max;
    this.limit = limit;
  }

  /** The guard of this JVM's tenured generation, or one that always has room where none is known. */
  static MarcoHeapGuard forThisJvm(float limit) {
    MemoryPoolMXBean tenured = tenuredPool();
    if (tenured == null || limit >= 1f) {
      return new MarcoHeapGuard(() -> 0L, 1L, 1f);
    }
    return new MarcoHeapGuard(
        () -> {
          MemoryUsage usage = tenured.getCollectionUsage();
          return usage == null ? 0L : usage.getUsed();
        },
        poolMax(tenured),
        limit);
  }

  /**
   * The heap pool with the largest maximum among those a collector reports on: the tenured
   * generation of the serial, parallel and G1 collectors (eden and survivor are smaller, or
   * have no maximum).
   */
  private static MemoryPoolMXBean tenuredPool() {
    MemoryPoolMXBean best = null;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP
          && pool.isCollectionUsageThresholdSupported()
          && poolMax(pool) > 0
          && (best == null || poolMax(pool) > poolMax(best))) {
        best = pool;
      }
    }
    return best;
  }

  private static long poolMax(MemoryPoolMXBean pool) {
    return pool.getUsage().getMax();
  }

  /** True when the live tenured heap is over the limit. */
  boolean overLimit() {
    return limit < 1f && usedAfterCollection.getAsLong() > (long) (limit * max);
  }

  /**
   * For a merge's abandon check, which runs once per record: asks {@link #overLimit} once per
   * {@link #RECORDS_PER_CHECK} calls. One per merge (not thread-safe).
   */
  BooleanSupplier sampler() {
    int[] calls = {0};
    return () -> ++calls[0] % RECORDS_PER_CHECK == 0 && overLimit();
  }

  @Override
  public String toString() {
    if (limit >= 1f) {
      return "heap guard off";
    }
    return String.format(
        Locale.ROOT,
        "live tenured heap %d of %d bytes (limit %.0f%%)",
        usedAfterCollection.getAsLong(),
        max,
        100.0 * limit);
  }
}
