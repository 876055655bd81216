/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;

/**
 * Low-priority partial threads never hold what normal-priority threads wait for. A partial thread
 * is parked, as the kernel may leave a nice-19 thread off the CPU, at every step of the merge
 * manager that it reaches once its merge is done: fetches still commit at once, and the final
 * merge does not wait for its hand-off. Files belong to one holder at a time and go with the
 * last, and a shuffle that fails leaves no file or thread behind.
 */
public class TestMarcoPartialThreadsHoldNoLock {
  private static final int MAPS = 8;
  private static final long STEP_MILLIS = 10_000;
  private static final AtomicInteger REDUCES = new AtomicInteger(100);

  @Rule public final SyntheticShuffleDir localDir = new SyntheticShuffleDir("marco-nolock");
  private final ExecutorService fetcher = Executors.newSingleThreadExecutor();
  private final ExecutorService reducer = Executors.newSingleThreadExecutor();
  private final Map<String, Long> expected = new TreeMap<>();

  @Before
  public void setUp() throws IOException {
    TestMarcoMergeManager.HeldSumReducer.started = new CountDownLatch(1);
    TestMarcoMergeManager.HeldSumReducer.release = new CountDownLatch(1);
  }

  @After
  public void tearDown() {
    TestMarcoMergeManager.HeldSumReducer.release.countDown();
    fetcher.shutdownNow();
    reducer.shutdownNow();
  }

  /** Parks every partial thread at each step it reaches, until released. */
  private static final class ParkPartialThreads implements MarcoMergeSteps {
    final CountDownLatch parked = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    @Override
    public void at(Step step) {
      if (!Thread.currentThread().getName().startsWith("MaRCO partial")) {
        return;
      }
      parked.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static JobConf conf(Class<?> partialReducer) {
    JobConf conf = SyntheticShuffle.baseConf(MAPS);
    conf.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, partialReducer, Reducer.class);
    conf.setInt(MarcoConfig.START_THRESHOLD_INITIAL, 2);
    conf.setBoolean(MarcoConfig.START_WHEN_THRESHOLD_UNREACHABLE, false);
    return conf;
  }

  private SyntheticShuffle start(JobConf conf) throws IOException {
    SyntheticShuffle s = localDir.shuffle(conf, null);
    // A reduce of its own, so that its threads are told apart from other tests' threads.
    s.reduceId = new TaskAttemptID("1", 1, TaskType.REDUCE, REDUCES.incrementAndGet(), 0);
    s.start();
    return s;
  }

  private static List<String> words(int map) {
    return SyntheticShuffle.randomWords(map, 200, 30);
  }

  /** Reserves, shuffles and commits map {@code i} on the fetcher thread; fails if it blocks. */
  private String fetch(SyntheticShuffle s, int i) throws Exception {
    List<String> words = words(i);
    Future<String> fetched = fetcher.submit(() -> s.fetch(i, words));
    String where;
    try {
      where = fetched.get(STEP_MILLIS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("the fetch of map " + i + " waited for a parked partial thread");
    }
    assertFalse("WAIT", "WAIT".equals(where));
    words.forEach(w -> expected.merge(w, 1L, Long::sum));
    return where;
  }

  private Map<String, Long> finish(SyntheticShuffle s) throws Exception {
    Future<Map<String, List<Long>>> done = s.finishOn(reducer);
    Map<String, List<Long>> input;
    try {
      input = done.get(STEP_MILLIS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("the final merge waited for a parked partial thread's hand-off");
    }
    Map<String, Long> sums = new TreeMap<>();
    input.forEach((k, v) -> sums.put(k, v.stream().mapToLong(Long::longValue).sum()));
    return sums;
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("not within 30 s: " + what);
      }
      Thread.sleep(10);
    }
  }

  private List<String> filesLeft() throws IOException {
    try (Stream<java.nio.file.Path> files = Files.walk(localDir.dir().toPath())) {
      return files
          .filter(Files::isRegularFile)
          .map(p -> p.getFileName().toString())
          .filter(n -> !n.endsWith(".crc"))
          .collect(Collectors.toList());
    }
  }

  private static boolean threadAlive(String prefix) {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.isAlive() && t.getName().startsWith(prefix));
  }

  @Test(timeout = 120_000)
  public void aParkedPartialThreadDelaysNeitherFetchesNorTheFinalMerge() throws Exception {
    SyntheticShuffle s = start(conf(TestMarcoMergeManager.SumReducer.class));
    ParkPartialThreads park = new ParkPartialThreads();
    s.manager.setMergeSteps(park);
    int map = 0;
    while (park.parked.getCount() > 0 && map < MAPS) {
      fetch(s, map++);
    }
    assertTrue(
        "a partial invocation ran and parked",
        park.parked.await(STEP_MILLIS, TimeUnit.MILLISECONDS));
    // Every fetch goes on while the partial thread is parked.
    while (map < MAPS) {
      fetch(s, map++);
    }
    assertEquals(
        "the final merge, which does not wait for the parked hand-off, gives the right input",
        expected,
        finish(s));
    assertEquals("the parked invocation's work counted", 1, s.counter(MarcoCounter.INVOCATIONS));
    park.release.countDown();
  }

  @Test(timeout = 120_000)
  public void fetchersWaitingForTheManagerAreCounted() throws Exception {
    SyntheticShuffle s = start(conf(TestMarcoMergeManager.SumReducer.class));
    Future<?> fetched;
    synchronized (s.manager) {
      List<String> words = words(0);
      words.forEach(w -> expected.merge(w, 1L, Long::sum));
      Thread[] fetcherThread = new Thread[1];
      fetched =
          fetcher.submit(
              () -> {
                fetcherThread[0] = Thread.currentThread();
                return s.fetch(0, words);
              });
      await(
          "the fetcher waits for the manager",
          () -> fetcherThread[0] != null && fetcherThread[0].getState() == Thread.State.BLOCKED);
      Thread.sleep(300);
    }
    fetched.get(STEP_MILLIS, TimeUnit.MILLISECONDS);
    assertTrue(
        "waited 300 ms or more, counted " + s.counter(MarcoCounter.MERGE_MANAGER_WAIT_MILLIS),
        s.counter(MarcoCounter.MERGE_MANAGER_WAIT_MILLIS) >= 300);
  }

  @Test(timeout = 120_000)
  public void aFileStaysUntilItsLastReaderAbandonedAtShuffleEndLetsGo() throws Exception {
    JobConf conf = conf(TestMarcoMergeManager.HeldSumReducer.class);
    conf.setBoolean(MarcoConfig.ABANDON_AT_SHUFFLE_END, true);
    // Too little shuffle memory for any map output: every one goes to disk.
    conf.setLong("mapreduce.reduce.memory.totalbytes", 1000);
    SyntheticShuffle s = start(conf);
    for (int map = 0; map < MAPS; map++) {
      assertEquals("DISK", fetch(s, map));
    }
    assertTrue(
        "an invocation holds its inputs open",
        TestMarcoMergeManager.HeldSumReducer.started.await(STEP_MILLIS, TimeUnit.MILLISECONDS));
    // The final merge takes the held invocation's inputs and the reducer reads all of them.
    assertEquals(expected, finish(s));
    assertEquals(1, s.counter(MarcoCounter.ABANDONED_INVOCATIONS));
    List<String> mapOutputs =
        filesLeft().stream().filter(n -> !n.contains("marco-")).collect(Collectors.toList());
    assertFalse(
        "the final merge removed files a detached invocation still reads", mapOutputs.isEmpty());
    s.manager.afterReduce();
    assertEquals("the reader still holds them", mapOutputs, filesLeftExceptPartialRuns());
    TestMarcoMergeManager.HeldSumReducer.release.countDown();
    await("the last holder removed every file", () -> filesLeftQuietly().isEmpty());
  }

  private List<String> filesLeftExceptPartialRuns() throws IOException {
    return filesLeft().stream().filter(n -> !n.contains("marco-")).collect(Collectors.toList());
  }

  private List<String> filesLeftQuietly() {
    try {
      return filesLeft();
    } catch (IOException | UncheckedIOException e) {
      return List.of("a file went while listing: " + e); // looked at again
    }
  }

  @Test(timeout = 120_000)
  public void aShuffleThatFailsAtItsEndLeavesNoFileAndNoThread() throws Exception {
    JobConf conf = conf(TestMarcoMergeManager.SumReducer.class);
    // Map outputs on disk and partial runs, and a partial reducer that breaks its contract:
    // strict, the violation fails the attempt, and close() fails in its wait for idle.
    conf.setClass(
        MarcoConfig.PARTIAL_REDUCER_CLASS, ReverseOrderPartialReducer.class, Reducer.class);
    conf.setBoolean(MarcoConfig.PARTIAL_CONTRACT_STRICT, true);
    conf.setLong("mapreduce.reduce.memory.totalbytes", 1000);
    SyntheticShuffle s = start(conf);
    String reduce = s.reduceId.toString();
    try {
      for (int map = 0; map < MAPS; map++) {
        fetch(s, map);
      }
      // The violation has happened before the shuffle ends: an invocation still running then
      // would not be waited for (it keeps its input whole), and its violation would go unseen.
      await("the partial work has ended", () -> s.manager.mergesRunning() == 0);
      s.finish();
      fail("a strict contract violation fails the attempt");
    } catch (IOException failed) {
      // The attempt fails; what matters is what it leaves behind.
    } catch (Throwable t) {
      assertTrue(String.valueOf(t), t instanceof MarcoContractViolationException);
    }
    await("no file of the failed shuffle is left", () -> filesLeftQuietly().isEmpty());
    await(
        "its threads have ended",
        () ->
            !threadAlive("MaRCO partial " + reduce)
                && !threadAlive("MaRCO coordinator " + reduce)
                && !threadAlive("MaRCO memory spill " + reduce));
  }
}
