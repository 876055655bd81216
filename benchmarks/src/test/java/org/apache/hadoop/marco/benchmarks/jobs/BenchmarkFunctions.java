/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.marco.testing.JobFunctions;
import org.apache.hadoop.marco.benchmarks.BenchmarkJob;

/** A benchmark's job functions, run in-process by the test kit. */
final class BenchmarkFunctions {
  private BenchmarkFunctions() {}

  /** The functions of {@code tool}'s job as configured for {@code conf}. */
  static JobFunctions of(BenchmarkJob tool, Configuration conf) throws IOException {
    return new JobFunctions(tool.createJob(conf, new Path("in"), new Path("out")));
  }
}
