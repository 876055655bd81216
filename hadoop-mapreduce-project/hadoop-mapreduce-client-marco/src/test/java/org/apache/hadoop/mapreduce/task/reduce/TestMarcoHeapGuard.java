/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.apache.hadoop.mapreduce.task.reduce.TestMarcoMergeManager.HeldSumReducer;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;

/**
 * Partial work backs off when the heap has no room for it: no invocation starts, and a running
 * one hands its inputs back unchanged, so that a partial reducer cannot run the task out of
 * memory next to the shuffle's buffers. The heap is played by a guard whose live bytes the test
 * sets (limit: half of 100 bytes); the reducer's input must be the same in every case.
 */
public class TestMarcoHeapGuard {
  private static final int MAPS = 16;
  private static final int RECORDS_PER_MAP = 1000;

  @Rule public final SyntheticShuffleDir localDir = new SyntheticShuffleDir("marco-heap");
  private SyntheticShuffle s;

  /** The guard's live tenured bytes, of 100; over 50 there is no room. */
  private final AtomicLong live = new AtomicLong();

  private final Map<String, Long> expected = new TreeMap<>();

  @Before
  public void setUp() throws IOException {
    HeldSumReducer.started = new CountDownLatch(1);
    HeldSumReducer.release = new CountDownLatch(0);
  }

  @After
  public void tearDown() {
    HeldSumReducer.release.countDown();
  }

  private void start() throws IOException {
    JobConf conf = SyntheticShuffle.baseConf(MAPS);
    conf.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, HeldSumReducer.class, Reducer.class);
    s = localDir.shuffle(conf, null);
    s.start();
    s.manager.setHeapGuard(new MarcoHeapGuard(live::get, () -> 0L, 100, 0.5f));
  }

  private void fetch(int from, int to) throws IOException {
    for (int i = from; i < to; i++) {
      List<String> words = new ArrayList<>();
      Random r = new Random(i);
      for (int j = 0; j < RECORDS_PER_MAP; j++) {
        words.add("w" + r.nextInt(50));
      }
      assertEquals("map " + i, "MEMORY", s.fetch(i, words));
      words.forEach(w -> expected.merge(w, 1L, Long::sum));
    }
  }

  private void finishAndCheck() throws Throwable {
    s.awaitIdle();
    Map<String, Long> sums = new TreeMap<>();
    s.finish().forEach((k, v) -> sums.put(k, v.stream().mapToLong(Long::longValue).sum()));
    assertEquals(expected, sums);
    assertEquals(0, s.counter(MarcoCounter.FAILED_INVOCATIONS));
    assertEquals(0, s.counter(MarcoCounter.ABANDONED_INVOCATIONS));
  }

  private boolean timelineHas(String fragment) {
    return s.manager.timelineEvents().stream().anyMatch(e -> e.contains(fragment));
  }

  @Test
  public void noInvocationStartsWhileTheHeapHasNoRoomAndWorkResumesWhenItHas() throws Throwable {
    live.set(90);
    start();
    fetch(0, 8);
    s.awaitIdle();
    assertEquals("nothing started on a full heap", 0, s.counter(MarcoCounter.INVOCATIONS));
    assertEquals("one episode, counted once", 1, s.counter(MarcoCounter.HEAP_BACKOFFS));
    live.set(10);
    fetch(8, 12);
    s.awaitIdle();
    assertTrue("partial work resumed", s.counter(MarcoCounter.INVOCATIONS) >= 1);
    assertTrue(timelineHas("\"event\":\"heap-room\""));
    finishAndCheck();
    assertEquals(1, s.counter(MarcoCounter.HEAP_BACKOFFS));
  }

  @Test
  public void aRunningInvocationBacksOffAndItsInputsWaitUnchanged() throws Throwable {
    HeldSumReducer.release = new CountDownLatch(1);
    start();
    fetch(0, 4);
    assertTrue("the first invocation started", HeldSumReducer.started.await(60, TimeUnit.SECONDS));
    live.set(90); // a collection found the heap full while the invocation ran
    HeldSumReducer.release.countDown();
    s.awaitIdle();
    assertTrue(timelineHas("\"event\":\"invocation-backed-off\",\"n\":1"));
    assertEquals("backed off, not committed", 0, s.counter(MarcoCounter.INVOCATIONS));
    assertEquals(1, s.counter(MarcoCounter.HEAP_BACKOFFS));
    assertEquals("its pins were given back", 0, s.manager.pinnedMemory());
    fetch(4, 6);
    s.awaitIdle();
    assertEquals("held back while the heap stays full", 0, s.counter(MarcoCounter.INVOCATIONS));
    live.set(10);
    fetch(6, 8);
    s.awaitIdle();
    // The seventh arrival started an invocation of the four given back and the three since; the
    // eighth waits for the final merge.
    assertEquals(1, s.counter(MarcoCounter.INVOCATIONS));
    assertEquals(7, s.counter(MarcoCounter.PARTIAL_INPUT_MAP_OUTPUTS));
    finishAndCheck();
  }

  @Test
  public void theLimitIsInclusiveAndOneIsOff() {
    assertTrue(new MarcoHeapGuard(() -> 51, () -> 0L, 100, 0.5f).overLimit());
    assertFalse(
        "at the limit there is room",
        new MarcoHeapGuard(() -> 50, () -> 0L, 100, 0.5f).overLimit());
    assertFalse(
        "a limit of 1 is no guard", new MarcoHeapGuard(() -> 100, () -> 0L, 100, 1f).overLimit());
  }

  /**
   * The shuffle memory the fetchers may still reserve is not the partial reducer's: with the heap
   * in use below the limit, partial work still has no room when the fetches yet to come would take
   * it over.
   */
  @Test
  public void theShuffleMemoryStillToReserveLeavesNoRoom() {
    assertFalse(new MarcoHeapGuard(() -> 30, () -> 20, 100, 0.5f).overLimit());
    assertTrue(new MarcoHeapGuard(() -> 30, () -> 21, 100, 0.5f).overLimit());
  }

  /**
   * This JVM's guard sees what a thread keeps alive after the next collection of any kind, with no
   * full collection: a partial reducer's growing lists show while the shuffle goes on, not only
   * when the heap is nearly exhausted. Only short-lived garbage is allocated to make collections
   * happen; System.gc() is never called.
   */
  @Test
  public void thisJvmsGuardSeesWhatSurvivesAYoungCollection() {
    long max = Runtime.getRuntime().maxMemory();
    int kept = (int) Math.min(max / 8, 64L << 20);
    try (MarcoHeapAfterCollection heap = MarcoHeapAfterCollection.watch()) {
      assertTrue("no collector reports its collections", heap.watching());
      long before = heap.used();
      List<long[]> held = new ArrayList<>();
      for (int i = 0; i < kept / 4096; i++) {
        held.add(new long[512]); // kept: 4 KB each, as a reducer's per-value records
      }
      long deadline = System.currentTimeMillis() + 60_000;
      long garbage = 0;
      while (heap.used() < before + kept / 2 && System.currentTimeMillis() < deadline) {
        garbage += new byte[64 * 1024].length; // dies at once: only young collections need it
      }
      assertTrue(
          "after "
              + garbage
              + " bytes of garbage the heap in use after a collection is "
              + heap.used()
              + ", it was "
              + before
              + " before "
              + kept
              + " bytes were kept",
          heap.used() >= before + kept / 2);
      assertEquals(kept / 4096, held.size());
    }
    try (MarcoHeapGuard guard =
        MarcoHeapGuard.forThisJvm(MarcoConfig.DEFAULT_PARTIAL_HEAP_LIMIT_PERCENT, () -> 0L)) {
      assertFalse("this JVM's heap is far from full: " + guard, guard.overLimit());
    }
    try (MarcoHeapGuard guard =
        MarcoHeapGuard.forThisJvm(MarcoConfig.DEFAULT_PARTIAL_HEAP_LIMIT_PERCENT, () -> max)) {
      assertTrue("a shuffle that may still take the heap leaves no room", guard.overLimit());
    }
  }
}
