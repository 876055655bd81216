package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;

import org.apache.hadoop.mapred.RawKeyValueIterator;

/** What a merge does with its sorted records: copy them, or reduce them with a user function. */
interface RecordReducer<K, V> {
  void reduce(RawKeyValueIterator sorted, RunWriter<K, V> out)
      throws IOException, InterruptedException;

  /** Partial sort only: the merged records go out unchanged. */
  static <K, V> RecordReducer<K, V> copy() {
    return (sorted, out) -> {
      while (sorted.next()) {
        out.appendRaw(sorted.getKey(), sorted.getValue());
      }
    };
  }
}
