/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * The {@code MaRCO} counter group of every reduce task that ran the MaRCO shuffle.
 * Display names live in {@code MarcoCounter.properties}.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public enum MarcoCounter {
  /** Partial sort (+ reduce) invocations that committed their run. */
  INVOCATIONS,
  /** Records read by partial invocations. */
  PARTIAL_INPUT_RECORDS,
  /** Records written by partial invocations. */
  PARTIAL_OUTPUT_RECORDS,
  /** Map outputs consumed by partial invocations. */
  PARTIAL_INPUT_MAP_OUTPUTS,
  /** Bytes written by partial runs to local disk. */
  PARTIAL_BYTES_WRITTEN,
  /** Wall milliseconds spent in invocations that only sorted (merge without partial reducer). */
  PARTIAL_SORT_MILLIS,
  /** Wall milliseconds spent in invocations that sorted and ran the partial reducer. */
  PARTIAL_REDUCE_MILLIS,
  /** Wall milliseconds of partial work done while fetches were still pending. */
  OVERLAPPED_MILLIS,
  /** Milliseconds from the last fetch to the reducer's first record (exposed tail). */
  EXPOSED_AFTER_SHUFFLE_MILLIS,
  /** Milliseconds of the final merge (shuffle end to the reducer's input iterator). */
  FINAL_MERGE_MILLIS,
  /** 1 when adaptive control switched partial reduce off for this task. */
  ADAPTIVE_DISABLES,
  /** Partial invocations that failed; their inputs went to the final merge instead. */
  FAILED_INVOCATIONS,
  /** Partial invocations abandoned at shuffle end; their inputs went to the final merge. */
  ABANDONED_INVOCATIONS,
  /**
   * Times partial work backed off because the heap in use, with the shuffle memory still to
   * reserve, was over {@code mapreduce.marco.partial.heap.limit.percent}: a running invocation handed its inputs
   * back untouched, or invocations that could have started were held back (once per episode).
   * Also counts an invocation that ran the heap out, after which partial reduce is off.
   */
  HEAP_BACKOFFS,
  /**
   * Times partial invocations that could have started were held back because they were forecast
   * to end after the shuffle ({@code mapreduce.marco.start.only.within.shuffle}; once per episode).
   */
  LATE_STARTS_HELD,
  /** Wall milliseconds fetchers spent waiting for a memory spill to free memory, summed. */
  FETCH_WAIT_MILLIS,
  /**
   * Wall milliseconds fetchers spent waiting to enter the merge manager (its lock) to reserve,
   * commit or abort a map output, summed: the time their fetches were held up by the manager's
   * own bookkeeping. Low-priority partial threads never hold that lock.
   */
  MERGE_MANAGER_WAIT_MILLIS,
  /** Reservations refused because the shuffle memory was over its limit (fetcher told WAIT). */
  FETCH_STALLS,
  /**
   * Map outputs written to local disk because the shuffle memory was over its limit when their
   * fetch began ({@code mapreduce.marco.fetch.to.disk.when.full}), instead of a WAIT.
   */
  FETCHES_TO_DISK,
  /**
   * Invocations whose partial reducer broke its contract (a key out of order, or emitted under
   * another key); partial reduce is off for the rest of the attempt after the first.
   */
  CONTRACT_VIOLATIONS,
  /** 1 for a retried reduce attempt, which runs without partial invocations. */
  RETRIES_WITHOUT_PARTIAL_WORK,
  /** Re-merges of partial runs that committed (multi-level partial reduce). */
  PARTIAL_REMERGES,
  /** Partial runs merged again by re-merges. */
  PARTIAL_REMERGED_RUNS,
  /** The deepest level of partial runs: 1 made from map outputs, n + 1 from runs of level n. */
  PARTIAL_MERGE_LEVELS
}
