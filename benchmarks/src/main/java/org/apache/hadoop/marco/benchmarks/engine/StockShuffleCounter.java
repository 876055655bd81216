/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.engine;

/**
 * What {@link TimedStockShuffle} counts in Hadoop's own merge manager, under the names and with
 * the meaning of MaRCO's counters of the same name, so that the report compares the two shuffles'
 * stalls side by side.
 */
public enum StockShuffleCounter {
  /** Wall ms fetchers spent blocked in {@code waitForResource()}, summed over fetchers. */
  FETCH_WAIT_MILLIS,
  /** Reservations the merge manager answered with WAIT (memory over its limit). */
  FETCH_STALLS
}
