/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.marco.MarcoJob;

/**
 * Sums the counts of one key. Summation is commutative and associative, so the same class serves
 * as combiner, partial reducer and final reducer (word-count and both histograms).
 */
public class LongSumReducer<K> extends Reducer<K, LongWritable, K, LongWritable> {
  private final LongWritable sum = new LongWritable();

  /** Declares {@code sum} as the job's combiner, partial reducer and reducer, (key, count) out. */
  @SuppressWarnings("rawtypes")
  public static void sumEverywhere(
      Job job, Class<? extends LongSumReducer> sum, Class<?> keyClass) {
    job.setCombinerClass(sum);
    MarcoJob.setPartialReducerClass(job, sum);
    job.setReducerClass(sum);
    job.setOutputKeyClass(keyClass);
    job.setOutputValueClass(LongWritable.class);
  }

  @Override
  protected void reduce(K key, Iterable<LongWritable> values, Context context)
      throws IOException, InterruptedException {
    long total = 0;
    for (LongWritable v : values) {
      total += v.get();
    }
    sum.set(total);
    context.write(key, sum);
  }
}
