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
  FETCH_STALLS,
  /**
   * Wall ms fetchers spent waiting to enter the merge manager's monitor to reserve, commit or
   * release a map output, summed over fetchers: the time their fetches were held up while another
   * thread (a fetcher, or a merge thread closing its output) held the manager.
   */
  MERGE_MANAGER_WAIT_MILLIS
}
