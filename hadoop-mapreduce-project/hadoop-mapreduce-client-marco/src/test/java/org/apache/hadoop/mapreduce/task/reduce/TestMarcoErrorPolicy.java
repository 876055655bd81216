/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.apache.hadoop.mapreduce.marco.MarcoCounter.FAILED_INVOCATIONS;
import static org.apache.hadoop.mapreduce.marco.MarcoCounter.HEAP_BACKOFFS;
import static org.apache.hadoop.mapreduce.marco.MarcoCounter.INVOCATIONS;
import static org.apache.hadoop.mapreduce.marco.MarcoCounter.PARTIAL_INPUT_RECORDS;
import static org.apache.hadoop.mapreduce.marco.MarcoCounter.PARTIAL_OUTPUT_RECORDS;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MROutputFiles;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.junit.Rule;
import org.junit.Test;

/**
 * What the engine does when something fails: errors fail the attempt (also one that stops a merge
 * asked to stop, and one of an invocation abandoned at shuffle end) except the heap running out in
 * partial work, which backs off and turns partial reduce off, an interrupt is kept,
 * retries run without partial work, user counters of failed work do not count, and every
 * bookkeeping step can throw without a count going wrong or anything hanging.
 */
public class TestMarcoErrorPolicy {
  private static final int MAPS = 12;
  private static final String USER_GROUP = "user";
  private static final String USER_COUNTER = "values seen";
  @Rule public final SyntheticShuffleDir localDir = new SyntheticShuffleDir("marco-errors");

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

  /** A partial reducer whose class metadata fills the metaspace (or so it says). */
  public static class MetaspaceReducer extends Reducer<Text, LongWritable, Text, LongWritable> {
    static final OutOfMemoryError ERROR = new OutOfMemoryError("Metaspace");

    @Override
    protected void reduce(Text key, Iterable<LongWritable> values, Context context) {
      throw ERROR;
    }
  }

  /** A partial reducer that runs the heap out, as the JVM reports it, on its every call. */
  public static class HeapExhaustingReducer
      extends Reducer<Text, LongWritable, Text, LongWritable> {
    @Override
    protected void reduce(Text key, Iterable<LongWritable> values, Context context) {
      throw new OutOfMemoryError("Java heap space");
    }
  }

  /**
   * Held until released, then fails with an Error where its input says it was abandoned (as a
   * reducer that wraps every exception might): an invocation detached at shuffle end.
   */
  public static class ErrorAfterReleaseReducer extends TestMarcoMergeManager.SumReducer {
    static volatile CountDownLatch started = new CountDownLatch(0);
    static volatile CountDownLatch release = new CountDownLatch(0);
    static volatile CountDownLatch ended = new CountDownLatch(0);
    static final OutOfMemoryError ERROR = new OutOfMemoryError("simulated: after shuffle end");

    @Override
    public void run(Context context) throws IOException, InterruptedException {
      try {
        started.countDown();
        assertTrue("released", release.await(60, TimeUnit.SECONDS));
        super.run(context);
      } catch (MarcoAbandonedMergeException stopped) {
        throw ERROR;
      } finally {
        ended.countDown();
      }
    }
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
    SyntheticShuffle s = localDir.shuffle(conf(MetaspaceReducer.class), null);
    s.start();
    assertSame(MetaspaceReducer.ERROR, rootOf(attemptFailure(s)));
    assertEquals(1, s.counter(MarcoCounter.FAILED_INVOCATIONS));
    assertEquals(0, s.manager.mergesRunning());
  }

  @Test(timeout = 60_000)
  public void theHeapRunningOutInPartialWorkBacksOffAndTurnsPartialReduceOff() throws Throwable {
    SyntheticShuffle s = localDir.shuffle(conf(HeapExhaustingReducer.class), null);
    s.start();
    Map<String, Long> expected = fetchAll(s);
    assertEquals(expected, sums(s.finish()));
    assertEquals("the attempt went on: no invocation failed", 0, s.counter(FAILED_INVOCATIONS));
    assertEquals("one back-off, then partial reduce was off", 1, s.counter(HEAP_BACKOFFS));
    assertTrue("partial sort went on", s.counter(INVOCATIONS) >= 1);
    assertEquals(
        "no later invocation ran the partial reducer",
        s.counter(PARTIAL_INPUT_RECORDS),
        s.counter(PARTIAL_OUTPUT_RECORDS));
  }

  @Test
  public void onlyTheJavaHeapRunningOutIsHeapExhaustion() {
    assertTrue(MarcoErrors.isHeapExhaustion(new OutOfMemoryError("Java heap space")));
    assertTrue(MarcoErrors.isHeapExhaustion(new OutOfMemoryError("GC overhead limit exceeded")));
    for (String other :
        new String[] {
          "Metaspace",
          "Direct buffer memory",
          "unable to create native thread: possibly out of memory or process/resource limits"
              + " reached",
          "Requested array size exceeds VM limit",
        }) {
      assertFalse(other, MarcoErrors.isHeapExhaustion(new OutOfMemoryError(other)));
    }
    assertFalse(MarcoErrors.isHeapExhaustion(new StackOverflowError("Java heap space")));
    assertFalse(MarcoErrors.isHeapExhaustion(new IOException("Java heap space")));
  }

  @Test(timeout = 60_000)
  public void aRetriedAttemptRunsWithoutPartialWork() throws Throwable {
    SyntheticShuffle s = localDir.shuffle(conf(MetaspaceReducer.class), null).attempt(1);
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
    SyntheticShuffle s = localDir.shuffle(conf, null);
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
    SyntheticShuffle s = localDir.shuffle(conf, null);
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

  /** A merger of this test's map outputs into {@code localDir}, with its inputs. */
  private MarcoRunMerger<Text, LongWritable> runMerger(
      SyntheticShuffle s, List<MarcoShuffledRun<Text, LongWritable>> inputs) throws IOException {
    JobConf conf = s.conf;
    MarcoMemoryBudget budget = new MarcoMemoryBudget(conf);
    for (int i = 0; i < 3; i++) {
      inputs.add(new MarcoInMemoryRun<>("map " + i, conf, s.mapOutput(words(i))[0], budget));
    }
    MROutputFiles files = new MROutputFiles();
    files.setConf(conf);
    return new MarcoRunMerger<>(
        conf, FileSystem.getLocal(conf).getRaw(), files, null, s.reduceId, s.reporter);
  }

  /** What the user function throws when its input stops a merge asked to stop. */
  private interface OnStop {
    void thrown() throws IOException, InterruptedException;
  }

  /** Merges three map outputs with a merge asked to stop at once, whose function does onStop. */
  private void mergeAskedToStop(OnStop onStop) throws Throwable {
    SyntheticShuffle s = localDir.shuffle(conf(CountingSumReducer.class), null);
    List<MarcoShuffledRun<Text, LongWritable>> inputs = new ArrayList<>();
    runMerger(s, inputs)
        .merge(
            "marco-partial-1",
            inputs,
            (sorted, out, reporter) -> {
              try {
                sorted.next();
              } catch (MarcoAbandonedMergeException stopped) {
                onStop.thrown();
              }
            },
            false,
            () -> true,
            new MarcoMergeProgress());
  }

  @Test(timeout = 60_000)
  public void anErrorThatStopsAMergeAskedToStopFailsTheAttemptAndIsNoBackOff() throws Throwable {
    OutOfMemoryError error = new OutOfMemoryError("simulated: in the partial reducer");
    try {
      mergeAskedToStop(
          () -> {
            throw error;
          });
      fail("the merge must fail");
    } catch (OutOfMemoryError e) {
      assertSame(error, e);
    }
  }

  @Test(timeout = 60_000)
  public void anInterruptThatStopsAMergeAskedToStopIsKept() throws Throwable {
    try {
      mergeAskedToStop(
          () -> {
            throw new InterruptedException("as the reducer saw it");
          });
      fail("the merge must stop");
    } catch (MarcoAbandonedMergeException expected) {
      assertTrue("the thread's interrupt is kept", Thread.interrupted());
    }
  }

  @Test(timeout = 60_000)
  public void anErrorOfAnInvocationAbandonedAtShuffleEndFailsTheReducersInput() throws Throwable {
    ErrorAfterReleaseReducer.started = new CountDownLatch(1);
    ErrorAfterReleaseReducer.release = new CountDownLatch(1);
    ErrorAfterReleaseReducer.ended = new CountDownLatch(1);
    JobConf conf = conf(ErrorAfterReleaseReducer.class);
    conf.setBoolean(MarcoConfig.ABANDON_AT_SHUFFLE_END, true);
    SyntheticShuffle s = localDir.shuffle(conf, null);
    // A reduce of its own, so that its partial thread is told apart from other tests' threads.
    s.reduceId = new TaskAttemptID("1", 1, TaskType.REDUCE, 43, 0);
    s.start();
    try {
      for (int i = 0; i < MAPS; i++) {
        assertEquals("MEMORY", s.fetch(i, words(i)));
      }
      assertTrue(ErrorAfterReleaseReducer.started.await(30, TimeUnit.SECONDS));
      RawKeyValueIterator input = s.manager.close();
      ErrorAfterReleaseReducer.release.countDown();
      assertTrue(ErrorAfterReleaseReducer.ended.await(30, TimeUnit.SECONDS));
      // Its thread ends (the pool was shut down at close) once the failure is recorded.
      String partialThreads = "MaRCO partial " + s.reduceId;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (Thread.getAllStackTraces().keySet().stream()
          .anyMatch(t -> t.isAlive() && t.getName().startsWith(partialThreads))) {
        assertTrue("the partial thread ends", System.nanoTime() < deadline);
        Thread.sleep(10);
      }
      try {
        while (input.next()) {
          // The reducer reads on, until its input fails.
        }
        fail("the reducer's input must fail once an abandoned invocation failed with an Error");
      } catch (IOException e) {
        assertSame(ErrorAfterReleaseReducer.ERROR, e.getCause());
      }
    } finally {
      ErrorAfterReleaseReducer.release.countDown();
    }
  }
}
