/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.reduce.WrappedReducer;
import org.apache.hadoop.util.ReflectionUtils;

/** Runs an {@code org.apache.hadoop.mapreduce.Reducer}: a fresh instance per merge, with setup/cleanup. */
class MarcoNewApiReducerRunner<K, V> extends MarcoGroupedReducerRunner<K, V> {
  MarcoNewApiReducerRunner(
      JobConf job, Class<?> reducerClass, TaskAttemptID reduceId, boolean checkContract) {
    super(job, reducerClass, reduceId, checkContract);
  }

  @Override
  @SuppressWarnings("unchecked")
  public void reduce(RawKeyValueIterator sorted, MarcoRunWriter<K, V> out, Reporter reporter)
      throws IOException, InterruptedException {
    Reducer<K, V, K, V> reducer =
        (Reducer<K, V, K, V>) ReflectionUtils.newInstance(reducerClass, job);
    MarcoPartialReducerContract<K> contract = contract();
    try {
      reducer.run(
          new WrappedReducer<K, V, K, V>()
              .getReducerContext(groupedInput(sorted, out, reporter, contract)));
    } catch (IOException | InterruptedException | RuntimeException e) {
      rethrowCaught(contract);
      throw e;
    }
    rethrowCaught(contract);
  }
}
