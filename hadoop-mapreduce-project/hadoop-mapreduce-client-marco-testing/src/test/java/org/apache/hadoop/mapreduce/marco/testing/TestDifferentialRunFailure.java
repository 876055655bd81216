/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.testing;

import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.marco.differential.WordSum;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * A run that fails makes {@link DifferentialRun#run} fail with the job's own diagnostics: which
 * run failed, the job's state, and the exception that failed it, here from the local runner.
 */
public class TestDifferentialRunFailure {
  /** Set on the runs whose reducer is to fail. */
  static final String FAIL = "marco.test.differential.fail.reducer";

  /** Text every failure carries, to find in the error. */
  static final String WHY = "the reducer refuses word";

  /** Sums like {@link WordSum.SumReducer} unless {@link #FAIL} is set, then fails on its first key. */
  public static class MaybeFailingSumReducer extends WordSum.SumReducer {
    @Override
    protected void reduce(Text word, Iterable<LongWritable> counts, Context context)
        throws IOException, InterruptedException {
      if (context.getConfiguration().getBoolean(FAIL, false)) {
        throw new IOException(WHY + " '" + word + "'");
      }
      super.reduce(word, counts, context);
    }
  }

  private File workDir;
  private FileSystem fs;

  @Before
  public void createWorkDir() throws Exception {
    workDir = new File("target/marco-differential-failure").getAbsoluteFile();
    FileUtil.fullyDelete(workDir);
    fs = FileSystem.getLocal(new JobConf());
  }

  @After
  public void deleteWorkDir() {
    FileUtil.fullyDelete(workDir);
  }

  private DifferentialRun run(String test, boolean stockFails) throws IOException {
    File dir = new File(workDir, test);
    DifferentialRun run =
        new DifferentialRun(
            () -> LocalModeConf.newConf(new File(dir, "runner")),
            fs,
            new Path(dir.toURI()),
            (conf, in, out) -> {
              conf.setBoolean(FAIL, stockFails);
              Job job = WordSum.create(conf, in, out, 2, false, false);
              job.setReducerClass(MaybeFailingSumReducer.class);
              return job;
            });
    InputFiles.write(fs, run.input(), List.of(List.of("a b c", "a b"), List.of("c d")));
    return run;
  }

  @Test
  public void aFailedMarcoRunReportsItsOwnDiagnostics() throws Exception {
    DifferentialRun run =
        run("marco-fails", false).variant("failing", c -> c.setBoolean(FAIL, true));

    AssertionError error = assertThrows(AssertionError.class, run::run);

    String message = error.getMessage();
    assertTrue(message, message.contains("the failing run failed: job job_local"));
    assertTrue(message, message.contains("state FAILED"));
    assertTrue("the reducer's exception is missing: " + message, message.contains(WHY));
    assertTrue("the stock run did not fail: " + message, !message.contains("the stock run"));
  }

  @Test
  public void aFailedStockRunReportsItsOwnDiagnostics() throws Exception {
    AssertionError error = assertThrows(AssertionError.class, run("stock-fails", true)::run);

    String message = error.getMessage();
    assertTrue(message, message.contains("the stock run failed: job job_local"));
    assertTrue(message, message.contains("state FAILED"));
    assertTrue("the reducer's exception is missing: " + message, message.contains(WHY));
  }
}
