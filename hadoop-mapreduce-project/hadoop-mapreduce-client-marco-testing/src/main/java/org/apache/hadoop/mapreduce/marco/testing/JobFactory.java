/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.testing;

import java.io.IOException;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;

/**
 * Builds the job under test from a base configuration that already selects the shuffle
 * (stock or MaRCO). Called once per run, so each run gets its own Job and output directory.
 * Old-API jobs build a JobConf and return {@link OldApiJobs#asJob}.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
@FunctionalInterface
public interface JobFactory {
  Job create(Configuration conf, Path input, Path output) throws IOException;
}
