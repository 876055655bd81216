/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * One-line helpers for job authors, used like {@code Job.setCombinerClass}:
 *
 * <pre>
 *   job.setCombinerClass(SumReducer.class);
 *   MarcoJob.setPartialReducerClass(job, SumReducer.class);
 * </pre>
 *
 * A partial reducer must be commutative, associative and keep the map-output key and value
 * types: MaRCO may apply it to any subset of the map outputs, any number of times.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class MarcoJob {
  private MarcoJob() {}

  /** Declares a new-API partial reducer for this job. */
  @SuppressWarnings("rawtypes")
  public static void setPartialReducerClass(Job job, Class<? extends Reducer> cls) {
    job.getConfiguration().setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, cls, Reducer.class);
  }

  /** Declares an old-API ({@code org.apache.hadoop.mapred}) partial reducer for this job. */
  @SuppressWarnings({"rawtypes", "deprecation"})
  public static void setPartialReducerClass(
      JobConf job, Class<? extends org.apache.hadoop.mapred.Reducer> cls) {
    job.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, cls, org.apache.hadoop.mapred.Reducer.class);
  }

  /** Uses the job's combiner as its partial reducer (when no partial reducer is declared). */
  public static void usePartialReducerFromCombiner(Configuration conf, boolean use) {
    conf.setBoolean(MarcoConfig.PARTIAL_REDUCER_USE_COMBINER, use);
  }

  /** Selects the MaRCO shuffle consumer for this job (the distribution's default already does). */
  public static void useMarcoShuffle(Configuration conf) {
    conf.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, MarcoConfig.SHUFFLE_PLUGIN_CLASS);
    conf.setBoolean(MarcoConfig.ENABLED, true);
  }

  /** Selects Hadoop's stock shuffle consumer for this job. */
  public static void useStockShuffle(Configuration conf) {
    conf.set(
        MRConfig.SHUFFLE_CONSUMER_PLUGIN,
        org.apache.hadoop.mapreduce.task.reduce.Shuffle.class.getName());
  }
}
