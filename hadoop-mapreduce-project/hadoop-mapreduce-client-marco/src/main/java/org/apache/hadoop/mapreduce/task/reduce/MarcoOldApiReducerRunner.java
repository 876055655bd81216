/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.ReduceContextImpl;
import org.apache.hadoop.util.ReflectionUtils;

/** Runs an {@code org.apache.hadoop.mapred.Reducer}: a fresh, configured instance per merge. */
class MarcoOldApiReducerRunner<K, V> extends MarcoGroupedReducerRunner<K, V> {
  MarcoOldApiReducerRunner(
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
    ReduceContextImpl<K, V, K, V> groups = groupedInput(sorted, out, reporter, null);
    OutputCollector<K, V> collector =
        contract == null
            ? out::append
            : (key, value) -> {
              contract.check(key);
              out.append(key, value);
            };
    try {
      while (groups.nextKey()) {
        if (contract != null) {
          contract.startGroup(groups.getCurrentKey());
        }
        reducer.reduce(groups.getCurrentKey(), groups.getValues().iterator(), collector, reporter);
      }
    } catch (IOException | RuntimeException e) {
      rethrowCaught(contract);
      throw e;
    } finally {
      reducer.close();
    }
    rethrowCaught(contract);
  }
}
