/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * What the engine does when something fails: errors fail the attempt, retries run without
 * partial work, user counters of failed work do not count, and every bookkeeping step can throw
 * without a count going wrong or anything hanging.
 */
public class TestMarcoErrorPolicy {
  private static final int MAPS = 12;
  private static final String USER_GROUP = "user";
  private static final String USER_COUNTER = "values seen";
  private File localDir;

  /** Sums, and counts every value it reads in a user counter. */
  public static class CountingSumReducer extends Reducer<Text, LongWritable, Text, LongWritable> {
    @Override
    protected void reduce(Text key, Iterable<LongWritable> values, Context context)
        throws IOException, InterruptedException {
      long sum = 0;
      for (LongWritable v : values) {
        sum += v.get();
        context.getCounter(USER_GROUP, USER_COUNTER).increment(1);
      }
      context.write(key, new LongWritable(sum));
    }
  }

  /** A partial reducer that runs out of memory (or so it says). */
  public static class OutOfMemoryReducer extends Reducer<Text, LongWritable, Text, LongWritable> {
    static final OutOfMemoryError ERROR = new OutOfMemoryError("simulated: Java heap space");

    @Override
    protected void reduce(Text key, Iterable<LongWritable> values, Context context) {
      throw ERROR;
    }
  }

  @Before
  public void setUp() throws IOException {
    localDir = Files.createTempDirectory("marco-errors").toFile();
  }

  @After
  public void tearDown() {
    FileUtil.fullyDelete(localDir);
  }

  private static JobConf conf(Class<?> partialReducer) {
    JobConf conf = SyntheticShuffle.baseConf(MAPS);
    conf.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, partialReducer, Object.class);
    return conf;
  }

  private static List<String> words(int map) {
    List<String> words = new ArrayList<>();
    Random r = new Random(map);
    for (int j = 0; j < 100; j++) {
      words.add("w" + r.nextInt(20));
    }
    return words;
  }

  /** Fetches every map output, one at a time; returns the expected sums. */
  private static Map<String, Long> fetchAll(SyntheticShuffle s) throws Exception {
    Map<String, Long> expected = new TreeMap<>();
    for (int i = 0; i < MAPS; i++) {
      words(i).forEach(w -> expected.merge(w, 1L, Long::sum));
      assertEquals("MEMORY", s.fetch(i, words(i)));
      s.awaitIdle();
    }
    return expected;
  }

  private static Map<String, Long> sums(Map<String, List<Long>> input) {
    Map<String, Long> sums = new TreeMap<>();
    input.forEach((k, v) -> sums.put(k, v.stream().mapToLong(Long::longValue).sum()));
    return sums;
  }

  /** Runs the shuffle to its end and returns what failed the attempt. */
  private static Throwable attemptFailure(SyntheticShuffle s) {
    try {
      fetchAll(s);
      s.finish();
    } catch (Throwable t) {
      return t;
    }
    fail("the attempt should have failed");
    return null;
  }

  private static Throwable rootOf(Throwable t) {
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t;
  }

  @Test(timeout = 60_000)
  public void anErrorInAPartialReducerFailsTheAttempt() throws Throwable {
    SyntheticShuffle s = new SyntheticShuffle(conf(OutOfMemoryReducer.class), localDir, null);
    s.start();
    assertSame(OutOfMemoryReducer.ERROR, rootOf(attemptFailure(s)));
    assertEquals(1, s.counter(MarcoCounter.FAILED_INVOCATIONS));
    assertEquals(0, s.manager.mergesRunning());
  }

  @Test(timeout = 60_000)
  public void aRetriedAttemptRunsWithoutPartialWork() throws Throwable {
    SyntheticShuffle s =
        new SyntheticShuffle(conf(OutOfMemoryReducer.class), localDir, null).attempt(1);
    s.start();
    Map<String, Long> expected = fetchAll(s);
    assertEquals(expected, sums(s.finish()));
    assertEquals(1, s.counter(MarcoCounter.RETRIES_WITHOUT_PARTIAL_WORK));
    assertEquals(
        0, s.counter(MarcoCounter.INVOCATIONS) + s.counter(MarcoCounter.FAILED_INVOCATIONS));
  }

  @Test(timeout = 60_000)
  public void userCountersOfAFailedInvocationDoNotCount() throws Throwable {
    JobConf conf = conf(CountingSumReducer.class);
    // The first invocation does all its work, then fails where it would commit.
    conf.setInt(MarcoConfig.TEST_FAIL_INVOCATION, 1);
    SyntheticShuffle s = new SyntheticShuffle(conf, localDir, null);
    s.start();
    Map<String, Long> expected = fetchAll(s);
    assertEquals(expected, sums(s.finish()));
    assertEquals(1, s.counter(MarcoCounter.FAILED_INVOCATIONS));
    assertTrue(s.counter(MarcoCounter.INVOCATIONS) >= 1);
    assertEquals(
        "only committed invocations count their values",
        s.counter(MarcoCounter.PARTIAL_INPUT_RECORDS),
        s.counters.findCounter(USER_GROUP, USER_COUNTER).getValue());
  }

  /** Makes one bookkeeping step throw, once. */
  private static final class ThrowAt implements MarcoMergeSteps {
    private final Step step;
    private boolean thrown;

    ThrowAt(Step step) {
      this.step = step;
    }

    @Override
    public synchronized void at(Step at) {
      if (at == step && !thrown) {
        thrown = true;
        throw new IllegalStateException("injected at " + step);
      }
    }
  }

  private void assertAFailingStepFailsTheAttemptCleanly(MarcoMergeSteps.Step step, JobConf conf)
      throws Throwable {
    SyntheticShuffle s = new SyntheticShuffle(conf, localDir, null);
    s.start();
    s.manager.setMergeSteps(new ThrowAt(step));
    Throwable failure = rootOf(attemptFailure(s));
    assertEquals("injected at " + step, failure.getMessage());
    // Counted down exactly once, never twice: nothing is running, and close() did not hang.
    assertEquals(0, s.manager.mergesRunning());
  }

  @Test(timeout = 60_000)
  public void aThrowingInvocationCommitFailsTheAttemptWithoutAHang() throws Throwable {
    assertAFailingStepFailsTheAttemptCleanly(
        MarcoMergeSteps.Step.INVOCATION_COMMIT, conf(CountingSumReducer.class));
  }

  @Test(timeout = 60_000)
  public void aThrowingReleaseFailsTheAttemptWithoutAHang() throws Throwable {
    assertAFailingStepFailsTheAttemptCleanly(
        MarcoMergeSteps.Step.RELEASE, conf(CountingSumReducer.class));
  }

  @Test(timeout = 60_000)
  public void aThrowingSpillCommitFailsTheAttemptWithoutAHang() throws Throwable {
    JobConf conf = conf(CountingSumReducer.class);
    // No invocation, and a memory small enough for every few map outputs to be spilled.
    conf.setInt(MarcoConfig.START_THRESHOLD_INITIAL, 1000);
    conf.setInt(MarcoConfig.START_THRESHOLD, 1000);
    conf.setBoolean(MarcoConfig.START_WHEN_THRESHOLD_UNREACHABLE, false);
    conf.setLong("mapreduce.reduce.memory.totalbytes", 20_000);
    assertAFailingStepFailsTheAttemptCleanly(MarcoMergeSteps.Step.SPILL_COMMIT, conf);
  }
}
