/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRConfig;

/**
 * The checks a MaRCO job's reduce tasks make when they start, made once for the whole job: by
 * the distribution's AppMaster before any task runs (so a bad value fails the job at once), and
 * by every reduce task (so the plugin alone, under Hadoop's own AppMaster, still says why).
 */
@InterfaceAudience.Private
public final class MarcoJobCheck {
  /** How every MaRCO configuration error starts, in logs and job diagnostics. */
  public static final String ERROR_PREFIX = "MaRCO configuration error: ";

  private MarcoJobCheck() {}

  /** True when the job's reduces use the MaRCO shuffle consumer. */
  public static boolean usesMarcoShuffle(Configuration conf) {
    return MarcoConfig.SHUFFLE_PLUGIN_CLASS.equals(
        conf.getTrimmed(MRConfig.SHUFFLE_CONSUMER_PLUGIN));
  }

  /**
   * Returns what is wrong with a MaRCO job's {@code mapreduce.marco.*} settings, partial
   * reducer or asynchronous output's delegate class (prefixed with {@link #ERROR_PREFIX}), or
   * null when nothing is. A job on Hadoop's own shuffle is checked only when it asks for reduce
   * staggering ({@link MarcoConfig#STAGGER_STOCK_JOBS}): other keys it does not use.
   */
  public static String problem(Configuration conf) {
    if (!usesMarcoShuffle(conf)) {
      return stockJobProblem(conf);
    }
    try {
      MarcoSettings settings = MarcoSettings.from(conf);
      if (settings.isEnabled()) {
        PartialReducerSpec.resolve(
            conf instanceof JobConf ? (JobConf) conf : new JobConf(conf), settings);
      }
      delegateClassProblem(conf);
      return null;
    } catch (IllegalArgumentException e) {
      return ERROR_PREFIX + e.getMessage();
    }
  }

  private static String stockJobProblem(Configuration conf) {
    String stagger = conf.getTrimmed(MarcoConfig.STAGGER_STOCK_JOBS, "");
    if (stagger.isEmpty() || stagger.equalsIgnoreCase("false")) {
      return null;
    }
    try {
      MarcoSettings.from(conf);
      return null;
    } catch (IllegalArgumentException e) {
      return ERROR_PREFIX + e.getMessage();
    }
  }

  /** The asynchronous output's delegate, where one is named, must be a class the job can load. */
  private static void delegateClassProblem(Configuration conf) {
    String key = MarcoConfig.ASYNC_OUTPUT_DELEGATE_CLASS;
    String name = conf.getTrimmed(key, "");
    if (name.isEmpty()) {
      return;
    }
    try {
      conf.getClassByName(name);
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException(
          "Invalid value '"
              + name
              + "' for "
              + key
              + ": class not found. Name an output format on the task classpath (ship it in the job"
              + " jar or with -libjars).",
          e);
    }
  }
}
