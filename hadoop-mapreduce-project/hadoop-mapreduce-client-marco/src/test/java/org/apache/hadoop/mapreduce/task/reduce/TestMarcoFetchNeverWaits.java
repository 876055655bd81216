/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.apache.hadoop.mapreduce.task.reduce.TestMarcoMergeManager.HeldSumReducer;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;

/**
 * A fetch never waits for partial work. Every map output here has the same size S, and the
 * shuffle memory limit is 8.5 S: merge threshold 5.61 S, headroom above it 2.89 S. The partial
 * invocation started at the fourth arrival is held on a latch; it pins two map outputs (2 S) and
 * leaves two to the memory spill, which starts at the sixth arrival, when committed memory,
 * pinned included, reaches the merge threshold. An invocation that pinned all four, or a spill
 * that counted only the unpinned outputs, would let memory pass the limit with nothing being
 * spilled, and the next fetch would wait for the held invocation. Over the limit, a fetch goes to
 * disk rather than wait for the spill ({@code mapreduce.marco.fetch.to.disk.when.full}); with
 * that off, it waits for the spill as in Hadoop, and never for partial work.
 */
public class TestMarcoFetchNeverWaits {
  private static final int MAPS = 16;
  private static final int RECORDS_PER_MAP = 1000;

  @Rule public final SyntheticShuffleDir localDir = new SyntheticShuffleDir("marco-fetch");
  private SyntheticShuffle s;
  private long size;
  private final Map<String, Long> expected = new TreeMap<>();
  private final ExecutorService fetcher = Executors.newSingleThreadExecutor();
  private final ExecutorService waiter = Executors.newSingleThreadExecutor();

  /** The old-API combiner of memory spills: each spill waits for the test's go-ahead. */
  public static class HeldSpillCombiner extends TestMarcoMergeManager.OldSumReducer {
    static volatile CountDownLatch release = new CountDownLatch(0);

    @Override
    public void reduce(
        Text key,
        Iterator<LongWritable> values,
        OutputCollector<Text, LongWritable> out,
        Reporter reporter)
        throws IOException {
      try {
        assertTrue("released", release.await(60, TimeUnit.SECONDS));
      } catch (InterruptedException e) {
        throw new InterruptedIOException();
      }
      super.reduce(key, values, out, reporter);
    }
  }

  @Before
  public void setUp() throws IOException {
    HeldSumReducer.started = new CountDownLatch(1);
    HeldSumReducer.release = new CountDownLatch(1);
  }

  @After
  public void tearDown() {
    HeldSumReducer.release.countDown();
    HeldSpillCombiner.release.countDown();
    fetcher.shutdownNow();
    waiter.shutdownNow();
  }

  /** Ten one-character words: every record, and so every map output, has the same size. */
  private static List<String> words(int map) {
    List<String> words = new ArrayList<>();
    Random r = new Random(map);
    for (int j = 0; j < RECORDS_PER_MAP; j++) {
      words.add("w" + r.nextInt(10));
    }
    return words;
  }

  /**
   * A job of {@link #MAPS} maps with a held partial reducer and a memory limit of 8.5 S, whose
   * fetches WAIT over the limit as Hadoop's do: the pin headroom is what keeps them from waiting
   * for partial work.
   */
  private static JobConf conf() {
    JobConf conf = SyntheticShuffle.baseConf(MAPS);
    conf.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, HeldSumReducer.class, Reducer.class);
    conf.setBoolean(MarcoConfig.FETCH_TO_DISK_WHEN_FULL, false);
    return conf;
  }

  private void start(JobConf conf) throws IOException {
    s = localDir.shuffle(conf, null);
    size = s.rawLength(words(0));
    conf.setLong("mapreduce.reduce.memory.totalbytes", (long) (8.5 * size / 0.7));
    MarcoMemoryBudget budget = new MarcoMemoryBudget(conf);
    long headroom = budget.limit() - budget.mergeThreshold();
    assertTrue(
        budget.toString(),
        2 * size <= headroom
            && headroom < 3 * size
            && 5 * size < budget.mergeThreshold()
            && budget.mergeThreshold() <= 6 * size
            && 8 * size <= budget.limit()
            && budget.limit() < 9 * size);
    s.start();
  }

  /** Calls waitForResource as a fetcher does before each fetch; fails if it blocks. */
  private void waitForResource() throws Exception {
    Future<?> waited =
        fetcher.submit(
            () -> {
              s.manager.waitForResource();
              return null;
            });
    try {
      waited.get(10, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      fail("waitForResource blocked while only a partial invocation held memory");
    }
  }

  /** Fetches map {@code i} as a fetcher does (waitForResource, reserve, commit) into memory. */
  private void fetch(int i) throws Exception {
    fetch(i, "MEMORY");
  }

  /** Fetches map {@code i} as a fetcher does, into {@code where}: MEMORY, DISK, or null for either. */
  private void fetch(int i, String where) throws Exception {
    waitForResource();
    List<String> words = words(i);
    Future<String> stored = fetcher.submit(() -> s.fetch(i, words));
    try {
      String got = stored.get(10, TimeUnit.SECONDS);
      assertTrue(
          "map " + i + " went to " + got, where == null ? !"WAIT".equals(got) : where.equals(got));
    } catch (TimeoutException e) {
      fail("the fetch of map " + i + " blocked");
    }
    words.forEach(w -> expected.merge(w, 1L, Long::sum));
  }

  private void fetch(int from, int to) throws Exception {
    for (int i = from; i < to; i++) {
      fetch(i);
    }
  }

  /** Lets the held invocations go, waits for them, and checks the reducer's input. */
  private void releaseAndFinish() throws Throwable {
    HeldSumReducer.release.countDown();
    awaitIdle();
    assertEquals("no pin is left", 0, s.manager.pinnedMemory());
    Map<String, Long> sums = new TreeMap<>();
    // finish() also checks that the keys arrive sorted.
    s.finish().forEach((k, v) -> sums.put(k, v.stream().mapToLong(Long::longValue).sum()));
    assertEquals(expected, sums);
  }

  /** How long {@link #awaitCondition} waits: far more than any step here takes. */
  private static final long AWAIT_MILLIS = 60_000;

  /** Polls {@code condition} until it holds; fails with {@code failure} after AWAIT_MILLIS. */
  private static void awaitCondition(String failure, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(AWAIT_MILLIS);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        fail(failure + " within " + AWAIT_MILLIS + " ms");
      }
      Thread.sleep(1);
    }
  }

  /** Waits for the running partial work to end, at most AWAIT_MILLIS. */
  private void awaitIdle() throws Exception {
    Future<?> idle =
        waiter.submit(
            () -> {
              s.awaitIdle();
              return null;
            });
    try {
      idle.get(AWAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      fail("the partial work did not end within " + AWAIT_MILLIS + " ms");
    }
  }

  private boolean timelineHas(String fragment) {
    return s.manager.timelineEvents().stream().anyMatch(e -> e.contains(fragment));
  }

  @Test
  public void fetchesGoOnWhileAHeldInvocationPinsMemory() throws Throwable {
    start(conf());
    fetch(0, 4);
    assertTrue(HeldSumReducer.started.await(60, TimeUnit.SECONDS));
    fetch(4, MAPS);
    assertEquals(
        "the invocation pinned two map outputs, within the headroom",
        2 * size,
        s.manager.pinnedMemory());
    assertEquals(0, s.counter(MarcoCounter.FETCH_STALLS));
    assertTrue("the outputs it left were spilled", timelineHas("\"event\":\"spill-end\""));
    releaseAndFinish();
    assertEquals(1, s.counter(MarcoCounter.INVOCATIONS));
    assertEquals(2, s.counter(MarcoCounter.PARTIAL_INPUT_MAP_OUTPUTS));
    assertEquals(0, s.counter(MarcoCounter.FAILED_INVOCATIONS));
  }

  /**
   * Over the limit with a spill held, the next fetch neither waits nor is told to WAIT: its map
   * output goes to disk, and a later invocation or the final merge takes it from there.
   */
  @Test
  public void overTheLimitAFetchGoesToDiskInsteadOfWaitingForTheSpill() throws Throwable {
    fillMemoryPastTheLimitWithTheSpillHeld(true);
    fetch(9, "DISK");
    fetch(10, "DISK");
    assertFalse("the spill is still held", timelineHas("\"event\":\"spill-end\""));
    assertEquals(2, s.counter(MarcoCounter.FETCHES_TO_DISK));
    assertEquals(0, s.counter(MarcoCounter.FETCH_STALLS));
    assertEquals(0, s.counter(MarcoCounter.FETCH_WAIT_MILLIS));
    HeldSpillCombiner.release.countDown();
    awaitCondition("the released spill did not end", () -> timelineHas("\"event\":\"spill-end\""));
    // Later spills are not held and may or may not end before the next fetch: either way, no
    // fetch waits.
    for (int i = 11; i < MAPS; i++) {
      fetch(i, null);
    }
    releaseAndFinish();
    assertEquals(0, s.counter(MarcoCounter.FETCH_STALLS));
    assertEquals(0, s.counter(MarcoCounter.FETCH_WAIT_MILLIS));
  }

  /**
   * Fetches maps 0 to 8 with the memory spill held: the sixth arrival starts the spill (4 S
   * waiting + 2 S pinned reach the merge threshold), and arrivals seven to nine fill memory to
   * 9 S, over the limit.
   */
  private void fillMemoryPastTheLimitWithTheSpillHeld(boolean fetchToDiskWhenFull)
      throws Exception {
    JobConf conf = conf();
    conf.setBoolean(MarcoConfig.FETCH_TO_DISK_WHEN_FULL, fetchToDiskWhenFull);
    conf.setCombinerClass(HeldSpillCombiner.class);
    HeldSpillCombiner.release = new CountDownLatch(1);
    start(conf);
    fetch(0, 4);
    assertTrue(HeldSumReducer.started.await(60, TimeUnit.SECONDS));
    fetch(4, 9);
    assertTrue(
        "the sixth arrival started a spill",
        timelineHas("\"event\":\"spill-start\",\"n\":1,\"runs\":4,"));
  }

  @Test
  public void aWaitingFetcherIsWokenByTheSpillThatFreesMemory() throws Throwable {
    fillMemoryPastTheLimitWithTheSpillHeld(false);
    Thread waiter =
        new Thread(
            () -> {
              try {
                s.manager.waitForResource();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    waiter.start();
    try {
      awaitCondition(
          "the fetcher never waited in waitForResource",
          () -> {
            assertTrue(
                "waitForResource returned over the limit with a spill running", waiter.isAlive());
            return waiter.getState() == Thread.State.TIMED_WAITING;
          });
      Thread.sleep(100);
      assertEquals(Thread.State.TIMED_WAITING, waiter.getState());
      HeldSpillCombiner.release.countDown();
      waiter.join(10_000);
      assertFalse("the spill's end woke the fetcher", waiter.isAlive());
    } finally {
      waiter.interrupt();
    }
    assertTrue("the wait is counted", s.counter(MarcoCounter.FETCH_WAIT_MILLIS) >= 100);
    fetch(9, MAPS);
    releaseAndFinish();
    assertEquals(0, s.counter(MarcoCounter.FETCH_STALLS));
    assertEquals(2, s.counter(MarcoCounter.PARTIAL_INPUT_MAP_OUTPUTS));
  }

  /**
   * Over the limit with no spill running, the memory is held by fetches in flight: the fetcher
   * told to WAIT is not blocked, and the commits of those fetches start the spill.
   */
  @Test
  public void overTheLimitWithOnlyFetchesInFlightTheirCommitsStartTheSpill() throws Throwable {
    JobConf conf = conf();
    conf.setBoolean(MarcoConfig.FETCH_TO_DISK_WHEN_FULL, false);
    start(conf);
    fetch(0, 4);
    assertTrue(HeldSumReducer.started.await(60, TimeUnit.SECONDS));
    List<MapOutput<Text, LongWritable>> inFlight = new ArrayList<>();
    for (int i = 4; i < 9; i++) {
      MapOutput<Text, LongWritable> out = s.reserveAndShuffle(i, words(i));
      assertNotNull("map " + i, out);
      inFlight.add(out);
    }
    assertNull("9 S used: over the limit", s.reserveAndShuffle(9, words(9)));
    assertEquals(1, s.counter(MarcoCounter.FETCH_STALLS));
    waitForResource();
    assertFalse("no spill before the commits", timelineHas("\"event\":\"spill-start\""));
    for (int i = 4; i < 9; i++) {
      inFlight.get(i - 4).commit();
      words(i).forEach(w -> expected.merge(w, 1L, Long::sum));
    }
    assertTrue("the commits started a spill", timelineHas("\"event\":\"spill-start\""));
    fetch(9, MAPS);
    releaseAndFinish();
    assertEquals(1, s.counter(MarcoCounter.FETCH_STALLS));
    assertEquals(1, s.counter(MarcoCounter.INVOCATIONS));
  }

  /**
   * With two partial threads, a second invocation due while the first holds all the headroom
   * does not start (nor spin); the spill takes the waiting outputs and the next invocation
   * takes the spilled run.
   */
  @Test
  public void anInvocationWithNoPinLeftWaitsForTheSpilledRun() throws Throwable {
    JobConf conf = conf();
    conf.setInt(MarcoConfig.PARTIAL_THREADS, 2);
    HeldSumReducer.started = new CountDownLatch(2);
    start(conf);
    // At the sixth arrival four map outputs wait but none fits the headroom; with the two
    // pinned ones, committed memory (6 S) reaches the merge threshold and they are spilled.
    fetch(0, 8);
    assertTrue(HeldSumReducer.started.await(60, TimeUnit.SECONDS));
    assertTrue(
        "the sixth arrival spilled the four waiting outputs",
        timelineHas("\"event\":\"spill-start\",\"n\":1,\"runs\":4,"));
    String second =
        s.manager.timelineEvents().stream()
            .filter(e -> e.contains("\"event\":\"invocation-start\",\"n\":2,"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no second invocation"));
    assertTrue(
        "the second invocation took the spilled run: " + second,
        second.contains("\"runs\":1,\"mapOutputs\":4,"));
    assertEquals(2 * size, s.manager.pinnedMemory());
    fetch(8, MAPS);
    releaseAndFinish();
    assertEquals(2, s.counter(MarcoCounter.INVOCATIONS));
    assertEquals(6, s.counter(MarcoCounter.PARTIAL_INPUT_MAP_OUTPUTS));
    assertEquals(0, s.counter(MarcoCounter.FETCH_STALLS));
  }

  @Test
  public void pinsOfAFailedInvocationAreReturned() throws Throwable {
    JobConf conf = conf();
    conf.setInt(MarcoConfig.TEST_FAIL_INVOCATION, 1);
    start(conf);
    fetch(0, 4);
    assertTrue(HeldSumReducer.started.await(60, TimeUnit.SECONDS));
    assertEquals(2 * size, s.manager.pinnedMemory());
    HeldSumReducer.release.countDown();
    awaitIdle();
    assertEquals(0, s.manager.pinnedMemory());
    for (int i = 4; i < MAPS; i++) {
      fetch(i);
      awaitIdle();
    }
    releaseAndFinish();
    assertEquals(1, s.counter(MarcoCounter.FAILED_INVOCATIONS));
  }

  @Test
  public void pinsOfAnAbandonedInvocationAreReturned() throws Throwable {
    JobConf conf = conf();
    conf.setBoolean(MarcoConfig.ABANDON_AT_SHUFFLE_END, true);
    start(conf);
    fetch(0, 4);
    assertTrue(HeldSumReducer.started.await(60, TimeUnit.SECONDS));
    fetch(4, MAPS);
    assertEquals(2 * size, s.manager.pinnedMemory());
    Future<Map<String, List<Long>>> input = s.finishOn(fetcher);
    awaitCondition(
        "the shuffle did not end with every map fetched",
        () -> timelineHas("\"event\":\"shuffle-end\""));
    HeldSumReducer.release.countDown();
    Map<String, Long> sums = new TreeMap<>();
    input
        .get(60, TimeUnit.SECONDS)
        .forEach((k, v) -> sums.put(k, v.stream().mapToLong(Long::longValue).sum()));
    assertEquals(expected, sums);
    assertEquals(1, s.counter(MarcoCounter.ABANDONED_INVOCATIONS));
    assertEquals(0, s.manager.pinnedMemory());
  }
}
