/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.differential;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoJob;
import org.apache.hadoop.mapreduce.marco.MarcoJobCheck;
import org.apache.hadoop.mapreduce.marco.testing.InputFiles;
import org.apache.hadoop.mapreduce.marco.testing.JobDiagnostics;
import org.apache.hadoop.mapreduce.marco.testing.MiniMrClusterResource;
import org.apache.hadoop.mapreduce.marco.testing.SlowTest;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Under Hadoop's own AppMaster, a MaRCO configuration error fails each reduce attempt with a
 * message that names what is wrong, readable from the job's diagnostics on a real YARN cluster.
 * (Hadoop 3.5's AM ignores a task's fast-fail request while it runs, so it retries the attempt
 * {@code mapreduce.reduce.maxattempts} times; the tests allow one. The distribution's
 * MarcoMRAppMaster rejects such jobs before any task: see its own test.)
 */
@Category(SlowTest.class)
public class TestConfigErrorMiniCluster {
  @ClassRule
  public static final MiniMrClusterResource CLUSTER =
      new MiniMrClusterResource("marco-config-error");

  private static JobConf marcoJobConf() {
    JobConf conf = CLUSTER.newJobConf();
    MarcoJob.useMarcoShuffle(conf);
    conf.setInt(MRJobConfig.REDUCE_MAX_ATTEMPTS, 1);
    return conf;
  }

  @Test
  public void partialReducerWithWrongOutputTypeFailsTheReduceNamingClassAndTypes()
      throws Exception {
    JobConf conf = marcoJobConf();
    Job job = wordSum(conf, "wrong-type-partial-reducer");
    MarcoJob.setPartialReducerClass(job, WrongTypePartialReducer.class);

    String diagnostics = JobDiagnostics.ofExpectedFailure(job);

    assertContains(diagnostics, WrongTypePartialReducer.class.getName());
    assertContains(diagnostics, "org.apache.hadoop.io.Text");
    assertContains(diagnostics, "org.apache.hadoop.io.LongWritable");
    assertContains(diagnostics, MarcoJobCheck.ERROR_PREFIX);
    assertEquals("failed reduce attempts", 1, failedReduceAttempts(job));
  }

  @Test
  public void stopFractionOutOfRangeFailsTheReduceNamingKeyValueAndRange() throws Exception {
    JobConf conf = marcoJobConf();
    conf.set(MarcoConfig.STOP_FRACTION, "1.5");
    Job job = wordSum(conf, "bad-stop-fraction");

    String diagnostics = JobDiagnostics.ofExpectedFailure(job);

    assertContains(diagnostics, MarcoConfig.STOP_FRACTION);
    assertContains(diagnostics, "1.5");
    assertContains(diagnostics, "(0, 1]");
    assertEquals("failed reduce attempts", 1, failedReduceAttempts(job));
  }

  /** A one-reducer word count over two small files. */
  private static Job wordSum(JobConf conf, String test) throws IOException {
    Path dir = CLUSTER.testDir(test);
    Path input = new Path(dir, "input");
    InputFiles.write(CLUSTER.fileSystem(), input, SkewedWords.generate(2, 200, List.of(), 5));
    return WordSum.create(conf, input, new Path(dir, "out"), 1, true, false);
  }

  private static int failedReduceAttempts(Job job) throws IOException, InterruptedException {
    int failed = 0;
    for (TaskCompletionEvent event : job.getTaskCompletionEvents(0, 1000)) {
      if (event.getTaskAttemptId().getTaskType() == TaskType.REDUCE
          && event.getStatus() != TaskCompletionEvent.Status.SUCCEEDED) {
        failed++;
      }
    }
    return failed;
  }

  private static void assertContains(String text, String expected) {
    assertTrue(
        "expected \"" + expected + "\" in the job diagnostics:\n" + text, text.contains(expected));
  }
}
