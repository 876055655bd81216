/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.v2.app;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoJobCheck;
import org.apache.hadoop.mapreduce.marco.MarcoSettings;

/**
 * Adds {@link MarcoConfig#REDUCE_JVM_OPTIONS} to the reduce command line of a MaRCO job, as the
 * AppMaster launches its reduces. They go into {@code mapreduce.admin.reduce.child.java.opts},
 * which Hadoop puts in front of the job's {@code mapreduce.reduce.java.opts}: a job that names
 * the same option there has the last word.
 */
final class MarcoReduceJvmOptions {
  private MarcoReduceJvmOptions() {}

  /**
   * Adds the options to {@code conf}, the configuration the AppMaster builds the job and its
   * task launches from, unless the job is not a valid MaRCO job with MaRCO on, or they are there.
   *
   * @return the options added, empty for none
   */
  static String addTo(Configuration conf) {
    if (!MarcoJobCheck.usesMarcoShuffle(conf) || MarcoJobCheck.problem(conf) != null) {
      return "";
    }
    MarcoSettings settings = MarcoSettings.from(conf);
    String options = settings.isEnabled() ? settings.effectiveReduceJvmOptions() : "";
    String admin =
        conf.get(
                MRJobConfig.MAPRED_REDUCE_ADMIN_JAVA_OPTS,
                MRJobConfig.DEFAULT_MAPRED_ADMIN_JAVA_OPTS)
            .trim();
    if (options.isEmpty() || admin.endsWith(options)) {
      return "";
    }
    conf.set(MRJobConfig.MAPRED_REDUCE_ADMIN_JAVA_OPTS, (admin + " " + options).trim());
    return options;
  }
}
