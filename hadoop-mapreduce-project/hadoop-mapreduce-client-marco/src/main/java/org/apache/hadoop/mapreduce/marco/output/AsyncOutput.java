/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.output;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;

/**
 * Turns on asynchronous reduce output for a job, after its output format is set:
 *
 * <pre>
 *   job.setOutputFormatClass(SequenceFileOutputFormat.class);
 *   AsyncOutput.enable(job);
 * </pre>
 *
 * Without code: {@code -Dmapreduce.job.outputformat.class=}{@link AsyncOutputFormat} plus
 * {@code -D}{@value MarcoConfig#ASYNC_OUTPUT_DELEGATE_CLASS}{@code =<the job's format>} (not
 * needed for {@code TextOutputFormat}, the default).
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class AsyncOutput {
  private AsyncOutput() {}

  /** New API: the job's output format becomes the delegate of {@link AsyncOutputFormat}. */
  public static void enable(Job job) {
    Class<?> current =
        job.getConfiguration()
            .getClass(
                MRJobConfig.OUTPUT_FORMAT_CLASS_ATTR,
                org.apache.hadoop.mapreduce.lib.output.TextOutputFormat.class);
    if (!AsyncOutputFormat.class.isAssignableFrom(current)) {
      job.getConfiguration().set(MarcoConfig.ASYNC_OUTPUT_DELEGATE_CLASS, current.getName());
      job.setOutputFormatClass(AsyncOutputFormat.class);
    }
  }

  /** Old API: the job's output format becomes the delegate of {@link AsyncMapredOutputFormat}. */
  public static void enable(JobConf job) {
    Class<?> current =
        job.getClass("mapred.output.format.class", org.apache.hadoop.mapred.TextOutputFormat.class);
    if (!AsyncMapredOutputFormat.class.isAssignableFrom(current)) {
      job.set(MarcoConfig.ASYNC_OUTPUT_DELEGATE_CLASS, current.getName());
      job.setOutputFormat(AsyncMapredOutputFormat.class);
    }
  }
}
