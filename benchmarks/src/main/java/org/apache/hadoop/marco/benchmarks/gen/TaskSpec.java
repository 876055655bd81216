/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.gen;

import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;

/**
 * What one generator map task makes: its index among all tasks, the job's seed and budget, and
 * the job configuration (for the model's options). Task t draws from seed + t, so the output of
 * every task, and so of the whole job, is a function of (seed, number of tasks, budget, options).
 */
public record TaskSpec(long seed, int taskIndex, int numTasks, Budget budget, Configuration conf) {

  /** This task's random stream. */
  public SplittableRandom random() {
    return new SplittableRandom(seed + taskIndex);
  }

  /** This task's share of the budget. */
  public long share() {
    return budget.share(taskIndex, numTasks);
  }
}
