/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Says when the heap has no room for partial work. Stock Hadoop runs the reducer only after the
 * shuffle has freed its in-memory map outputs; a partial reducer runs next to them, and one that
 * builds lists or sets could run the task out of memory where stock would not, with the error
 * thrown in whichever thread allocates next, a fetcher as likely as the partial thread.
 *
 * <p>So partial work may use only heap that the shuffle will never need: the heap in use after
 * the latest collection (which counts what a running partial reducer keeps alive, see {@link
 * MarcoHeapAfterCollection}), plus the shuffle memory its fetchers may still reserve, must stay
 * within the limit's share of the heap. Both are read without a lock and cost two memory
 * reads, so a running merge, on a low-priority thread, asks before every record. The reading
 * trails what a merge keeps by the allocations of up to one young generation; a merge that runs
 * the heap out before the guard sees it is caught on its thread ({@link MarcoOutOfHeapException}).
 */
class MarcoHeapGuard implements AutoCloseable {
  private final LongSupplier usedAfterCollection;
  private final LongSupplier shuffleStillToReserve;
  private final long max;
  private final float limit;
  private final Runnable stopWatching;

  /**
   * @param usedAfterCollection heap bytes in use as the latest collection left them
   * @param shuffleStillToReserve shuffle memory the fetchers may still reserve
   * @param max the bytes the heap may hold
   * @param limit the share of {@code max} above which there is no room (1: always room)
   */
  MarcoHeapGuard(
      LongSupplier usedAfterCollection, LongSupplier shuffleStillToReserve, long max, float limit) {
    this(usedAfterCollection, shuffleStillToReserve, max, limit, () -> {});
  }

  private MarcoHeapGuard(
      LongSupplier usedAfterCollection,
      LongSupplier shuffleStillToReserve,
      long max,
      float limit,
      Runnable stopWatching) {
    this.usedAfterCollection = usedAfterCollection;
    this.shuffleStillToReserve = shuffleStillToReserve;
    this.max = max;
    this.limit = limit;
    this.stopWatching = stopWatching;
  }

  /**
   * The guard of this JVM's heap; one that always has room when the limit is 1 or no collector
   * reports its collections. {@link #close} stops watching the collectors.
   */
  static MarcoHeapGuard forThisJvm(float limit, LongSupplier shuffleStillToReserve) {
    if (limit >= 1f) {
      return new MarcoHeapGuard(() -> 0L, () -> 0L, 1L, 1f);
    }
    MarcoHeapAfterCollection heap = MarcoHeapAfterCollection.watch();
    if (!heap.watching()) {
      heap.close();
      return new MarcoHeapGuard(() -> 0L, () -> 0L, 1L, 1f);
    }
    return new MarcoHeapGuard(
        heap::used, shuffleStillToReserve, Runtime.getRuntime().maxMemory(), limit, heap::close);
  }

  /** True when the heap in use, with what the shuffle may still reserve, is over the limit. */
  boolean overLimit() {
    return limit < 1f
        && usedAfterCollection.getAsLong() + shuffleStillToReserve.getAsLong()
            > (long) (limit * max);
  }

  @Override
  public void close() {
    stopWatching.run();
  }

  @Override
  public String toString() {
    if (limit >= 1f) {
      return "heap guard off";
    }
    return String.format(
        Locale.ROOT,
        "heap in use after the latest collection %d and shuffle memory still to reserve %d, of"
            + " %d bytes (limit %.0f%%)",
        usedAfterCollection.getAsLong(),
        shuffleStillToReserve.getAsLong(),
        max,
        100.0 * limit);
  }
}
