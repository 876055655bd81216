/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.v2.app;

import static org.junit.Assert.assertEquals;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoJob;
import org.junit.Test;

/** Which jobs' reduces get mapreduce.marco.reduce.jvm.options, and where on the command line. */
public class TestMarcoReduceJvmOptions {
  private static final String ADMIN = MRJobConfig.MAPRED_REDUCE_ADMIN_JAVA_OPTS;

  private static Configuration marcoJob() {
    Configuration conf = new Configuration(false);
    MarcoJob.useMarcoShuffle(conf);
    conf.set(ADMIN, "-Dadmin=1");
    return conf;
  }

  @Test
  public void aMarcoJobsReducesGetTheOptionsAfterTheAdminOnes() {
    Configuration conf = marcoJob();
    assertEquals(MarcoConfig.DEFAULT_REDUCE_JVM_OPTIONS, MarcoReduceJvmOptions.addTo(conf));
    assertEquals("-Dadmin=1 " + MarcoConfig.DEFAULT_REDUCE_JVM_OPTIONS, conf.get(ADMIN));
    // A second AppMaster attempt reads the same job configuration: nothing is added twice.
    assertEquals("", MarcoReduceJvmOptions.addTo(conf));
    assertEquals("-Dadmin=1 " + MarcoConfig.DEFAULT_REDUCE_JVM_OPTIONS, conf.get(ADMIN));
  }

  @Test
  public void withoutAdminOptionsHadoopsDefaultOnesStayInFront() {
    Configuration conf = marcoJob();
    conf.unset(ADMIN);
    MarcoReduceJvmOptions.addTo(conf);
    assertEquals(
        MRJobConfig.DEFAULT_MAPRED_ADMIN_JAVA_OPTS.trim()
            + " "
            + MarcoConfig.DEFAULT_REDUCE_JVM_OPTIONS,
        conf.get(ADMIN));
  }

  @Test
  public void theJobChoosesTheOptions() {
    Configuration conf = marcoJob();
    conf.set(MarcoConfig.REDUCE_JVM_OPTIONS, " -XX:GuaranteedSafepointInterval=60000 ");
    MarcoReduceJvmOptions.addTo(conf);
    assertEquals("-Dadmin=1 -XX:GuaranteedSafepointInterval=60000", conf.get(ADMIN));
    for (String none : new String[] {"", " ", "none"}) {
      conf = marcoJob();
      conf.set(MarcoConfig.REDUCE_JVM_OPTIONS, none);
      assertEquals("", MarcoReduceJvmOptions.addTo(conf));
      assertEquals("-Dadmin=1", conf.get(ADMIN));
    }
  }

  /** Stock jobs, MaRCO switched off, and MaRCO without control run no thread at a low share. */
  @Test
  public void jobsWithoutLowPriorityPartialWorkAreLeftAlone() {
    Configuration stock = new Configuration(false);
    stock.set(ADMIN, "-Dadmin=1");
    Configuration off = marcoJob();
    off.setBoolean(MarcoConfig.ENABLED, false);
    Configuration noControl = marcoJob();
    noControl.setBoolean(MarcoConfig.CONTROL_ENABLED, false);
    for (Configuration conf : new Configuration[] {stock, off, noControl}) {
      assertEquals("", MarcoReduceJvmOptions.addTo(conf));
      assertEquals("-Dadmin=1", conf.get(ADMIN));
    }
  }

  /** A job with a bad MaRCO setting is failed by the AppMaster instead; nothing is added. */
  @Test
  public void aJobWithABadSettingIsLeftAlone() {
    Configuration conf = marcoJob();
    conf.set(MarcoConfig.STOP_FRACTION, "1.5");
    assertEquals("", MarcoReduceJvmOptions.addTo(conf));
    assertEquals("-Dadmin=1", conf.get(ADMIN));
  }
}
