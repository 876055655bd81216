/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.v2.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoJob;
import org.apache.hadoop.mapreduce.marco.MarcoJobCheck;
import org.apache.hadoop.mapreduce.marco.differential.SkewedWords;
import org.apache.hadoop.mapreduce.marco.differential.WordSum;
import org.apache.hadoop.mapreduce.marco.differential.WrongTypePartialReducer;
import org.apache.hadoop.mapreduce.marco.testing.InputFiles;
import org.apache.hadoop.mapreduce.marco.testing.JobDiagnostics;
import org.apache.hadoop.mapreduce.marco.testing.MiniMrClusterResource;
import org.apache.hadoop.mapreduce.marco.testing.SlowTest;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * With the distribution's AppMaster, a MaRCO job with a bad setting or partial reducer fails at
 * once: before any task runs, with the reason in the job's diagnostics; a valid one gets the
 * reduce JVM options the AppMaster adds.
 */
@Category(SlowTest.class)
public class TestMarcoAppMasterConfigCheck {
  @ClassRule
  public static final MiniMrClusterResource CLUSTER =
      new MiniMrClusterResource("marco-am-config-check");

  private static Job wordSum(JobConf conf, String test) throws Exception {
    MarcoMRAppMaster.useFor(conf);
    MarcoJob.useMarcoShuffle(conf);
    Path dir = CLUSTER.testDir(test);
    Path input = new Path(dir, "input");
    InputFiles.write(CLUSTER.fileSystem(), input, SkewedWords.generate(2, 200, List.of(), 5));
    return WordSum.create(conf, input, new Path(dir, "out"), 1, true, false);
  }

  private static void assertFailedBeforeAnyTask(Job job, String... expected) throws Exception {
    String diagnostics = JobDiagnostics.ofExpectedFailure(job);
    assertTrue(diagnostics, diagnostics.contains(MarcoJobCheck.ERROR_PREFIX));
    for (String e : expected) {
      assertTrue(
          "expected \"" + e + "\" in the job diagnostics:\n" + diagnostics,
          diagnostics.contains(e));
    }
    assertEquals(
        "task attempts of a job rejected by its AppMaster",
        0,
        job.getTaskCompletionEvents(0, 1000).length);
  }

  @Test
  public void badStopFractionFailsTheJobBeforeAnyTask() throws Exception {
    JobConf conf = CLUSTER.newJobConf();
    conf.set(MarcoConfig.STOP_FRACTION, "1.5");
    assertFailedBeforeAnyTask(
        wordSum(conf, "bad-stop-fraction"), MarcoConfig.STOP_FRACTION, "'1.5'", "(0, 1]");
  }

  @Test
  public void partialReducerWithWrongTypesFailsTheJobBeforeAnyTask() throws Exception {
    Job job = wordSum(CLUSTER.newJobConf(), "wrong-type-partial-reducer");
    MarcoJob.setPartialReducerClass(job, WrongTypePartialReducer.class);
    assertFailedBeforeAnyTask(
        job,
        WrongTypePartialReducer.class.getName(),
        "org.apache.hadoop.io.Text",
        "org.apache.hadoop.io.LongWritable");
  }

  /** The job's reducer, which also counts the reduce JVMs started without cleanup safepoints. */
  public static class SafepointIntervalProbe extends WordSum.SumReducer {
    static final String GROUP = "reduce JVM";
    static final String WITHOUT = "-XX:GuaranteedSafepointInterval=0";

    @Override
    protected void setup(Context context) {
      if (ManagementFactory.getRuntimeMXBean().getInputArguments().contains(WITHOUT)) {
        context.getCounter(GROUP, WITHOUT).increment(1);
      }
    }
  }

  /**
   * The AppMaster starts a MaRCO job's reduces with {@code mapreduce.marco.reduce.jvm.options},
   * whose default turns off the cleanup safepoints a low-priority partial thread holds up (HotSpot
   * runs them every 1000 ms unless told otherwise). Which jobs get the options, and where, is
   * {@link TestMarcoReduceJvmOptions}'s.
   */
  @Test
  public void aMarcoJobsReducesRunWithoutCleanupSafepoints() throws Exception {
    Job job = wordSum(CLUSTER.newJobConf(), "reduce-jvm-options");
    job.setReducerClass(SafepointIntervalProbe.class);
    assertTrue(job.waitForCompletion(false));
    assertEquals(
        1,
        job.getCounters()
            .findCounter(SafepointIntervalProbe.GROUP, SafepointIntervalProbe.WITHOUT)
            .getValue());
  }
}
