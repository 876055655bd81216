/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;

/** What a merge does with its sorted records: copy them, or reduce them with a user function. */
interface MarcoRecordReducer<K, V> {
  /**
   * @param reporter what the user function reports to: its counters count only if the merge's
   *     run is committed ({@link MarcoUserCounterBuffer})
   */
  void reduce(RawKeyValueIterator sorted, MarcoRunWriter<K, V> out, Reporter reporter)
      throws IOException, InterruptedException;

  /** Partial sort only: the merged records go out unchanged. */
  static <K, V> MarcoRecordReducer<K, V> copy() {
    return (sorted, out, reporter) -> {
      while (sorted.next()) {
        out.appendRaw(sorted.getKey(), sorted.getValue());
      }
    };
  }
}
