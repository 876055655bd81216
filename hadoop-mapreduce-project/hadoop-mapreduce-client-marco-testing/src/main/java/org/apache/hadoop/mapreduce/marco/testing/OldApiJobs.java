/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.testing;

import java.io.IOException;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;

/**
 * Submits old-API ({@code org.apache.hadoop.mapred}) jobs through a new-API {@link Job} handle,
 * the way {@code JobClient.submitJob} does internally, so both APIs share one run loop and one
 * counters type.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class OldApiJobs {
  private OldApiJobs() {}

  /** Marks the job as old-API on both sides (as JobClient does) and wraps it. */
  public static Job asJob(JobConf conf) throws IOException {
    conf.setBooleanIfUnset("mapred.mapper.new-api", false);
    conf.setBooleanIfUnset("mapred.reducer.new-api", false);
    return Job.getInstance(conf);
  }
}
