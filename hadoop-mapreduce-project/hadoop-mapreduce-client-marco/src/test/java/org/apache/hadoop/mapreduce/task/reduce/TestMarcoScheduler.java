/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoSettings;
import org.apache.hadoop.mapreduce.task.reduce.MarcoScheduler.Action;
import org.apache.hadoop.mapreduce.task.reduce.MarcoScheduler.Forecast;
import org.apache.hadoop.mapreduce.task.reduce.MarcoScheduler.Heap;
import org.apache.hadoop.mapreduce.task.reduce.MarcoScheduler.Kind;
import org.apache.hadoop.mapreduce.task.reduce.MarcoScheduler.Snapshot;
import org.junit.Test;

/**
 * Every decision of the merge manager's scheduling, on snapshots alone: 20 maps, the default
 * thresholds (4 for the first two invocations, then 8), 2 partial threads, sort factor 5, at
 * most 1000 bytes per invocation, a merge threshold of 600 bytes.
 */
public class TestMarcoScheduler {
  private static final int MAPS = 20;
  private static final int THREADS = 2;
  private static final int SORT_FACTOR = 5;
  private static final long MAX_BYTES = 1000;
  private static final long MERGE_THRESHOLD = 600;

  private static MarcoScheduler scheduler(Configuration conf) {
    MarcoSettings settings = MarcoSettings.from(conf);
    return new MarcoScheduler(
        new MarcoInvocationPolicy(settings, MAPS),
        THREADS,
        SORT_FACTOR,
        settings.effectiveInvocationMaxBytes());
  }

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.setLong(MarcoConfig.INVOCATION_MAX_BYTES, MAX_BYTES);
    return conf;
  }

  private final MarcoScheduler scheduler = scheduler(conf());

  /**
   * Early in the shuffle, nothing waiting, the heap read and with room, an invocation forecast to
   * end in time, partial reduce on.
   */
  private static Snapshot idle() {
    Snapshot s = new Snapshot();
    s.partialReduceOn = true;
    s.arrivals = 2;
    s.mergeThreshold = MERGE_THRESHOLD;
    s.heap = Heap.ROOM;
    s.forecast = Forecast.IN_TIME;
    return s;
  }

  /** {@code n} map outputs of 10 bytes each wait. */
  private static Snapshot waiting(int n) {
    Snapshot s = idle();
    s.unprocessedMapOutputs = n;
    s.unprocessedBytes = 10L * n;
    return s;
  }

  private Kind next(Snapshot s) {
    return scheduler.next(s).kind;
  }

  @Test
  public void anInvocationStartsAtTheThresholdOverAtMostSortFactorRunsAndTheByteBound() {
    assertEquals(Kind.NONE, next(idle()));
    assertEquals(Kind.NONE, next(waiting(3)));
    Action action = scheduler.next(waiting(4));
    assertEquals(Kind.START_INVOCATION, action.kind);
    assertEquals(SORT_FACTOR, action.runs);
    assertEquals(MAX_BYTES, action.bytes);
    // The first two invocations start at 4, the later ones at 8.
    Snapshot third = waiting(7);
    third.invocationsStarted = 2;
    assertEquals(Kind.NONE, next(third));
    third.unprocessedMapOutputs = 8;
    assertEquals(Kind.START_INVOCATION, next(third));
  }

  @Test
  public void aBacklogOfTheByteBoundStartsAnInvocationBelowTheThreshold() {
    Snapshot s = waiting(2);
    s.unprocessedBytes = MAX_BYTES - 1;
    assertEquals(Kind.NONE, next(s));
    s.unprocessedBytes = MAX_BYTES;
    assertEquals(Kind.START_INVOCATION, next(s));
    // Without a bound an invocation takes any number of bytes.
    Configuration conf = conf();
    conf.setLong(MarcoConfig.INVOCATION_MAX_BYTES, 0);
    assertEquals(Long.MAX_VALUE, scheduler(conf).next(waiting(4)).bytes);
  }

  @Test
  public void theStopPointIsRecordedOnceAndEndsPartialWorkButNotSpills() {
    Snapshot s = waiting(8);
    s.arrivals = MAPS;
    s.partialRuns = SORT_FACTOR;
    assertEquals(Kind.RECORD_STOP_POINT, next(s));
    s.stopPointRecorded = true;
    assertEquals("no invocation, no re-merge from the stop point on", Kind.NONE, next(s));
    s.committedInMemoryBytes = MERGE_THRESHOLD;
    assertEquals(Kind.START_SPILL, next(s));
    // Before the stop point, nothing is recorded.
    Snapshot before = waiting(8);
    before.arrivals = MAPS - 1;
    assertEquals(Kind.START_INVOCATION, next(before));
  }

  @Test
  public void onceTheMapsAreCompleteAnyWaitingMapOutputStartsAnInvocationWhereAsked() {
    Snapshot s = waiting(1);
    s.mapsComplete = true;
    assertEquals("off by default", Kind.NONE, next(s));
    Configuration conf = conf();
    conf.setBoolean(MarcoConfig.START_WHEN_MAPS_COMPLETE, true);
    MarcoScheduler asked = scheduler(conf);
    assertEquals(Kind.START_INVOCATION, asked.next(s).kind);
    s.mapsComplete = false;
    assertEquals(Kind.NONE, asked.next(s).kind);
    assertEquals("nothing waiting", Kind.NONE, asked.next(idle()).kind);
  }

  @Test
  public void aBacklogTheStopPointLeavesBelowTheThresholdStartsAnInvocation() {
    Snapshot s = waiting(2);
    s.arrivals = MAPS - 2; // one more map output can arrive before the stop point: 3 < 4
    assertEquals(Kind.START_INVOCATION, next(s));
    Configuration conf = conf();
    conf.setBoolean(MarcoConfig.START_WHEN_THRESHOLD_UNREACHABLE, false);
    assertEquals(Kind.NONE, scheduler(conf).next(s).kind);
  }

  @Test
  public void aBacklogWhoseThresholdBatchWouldEndLateStartsAnInvocationStillForecastInTime() {
    Snapshot s = waiting(1);
    assertEquals(Kind.NONE, next(s));
    s.thresholdLate = true;
    s.forecast = Forecast.UNREAD;
    Action read = scheduler.next(s);
    assertEquals("the backlog itself must still end in time", Kind.READ_FORECAST, read.kind);
    assertEquals(10, read.bytes);
    s.forecast = Forecast.LATE;
    assertEquals(Kind.NONE, next(s));
    s.forecast = Forecast.IN_TIME;
    assertEquals(Kind.START_INVOCATION, next(s));
    Configuration conf = conf();
    conf.setBoolean(MarcoConfig.START_WHEN_THRESHOLD_LATE, false);
    assertEquals(Kind.NONE, scheduler(conf).next(s).kind);
  }

  @Test
  public void aTakeThatCameBackShortEndsTheInvocationsOfThePassButNotReMergesOrSpills() {
    Snapshot s = waiting(8);
    s.unprocessedHeld = true;
    assertEquals(Kind.NONE, next(s));
    s.partialRuns = SORT_FACTOR;
    assertEquals(Kind.START_REMERGE, next(s));
    s.partialRuns = 0;
    s.committedInMemoryBytes = 1;
    s.pinnedBytes = MERGE_THRESHOLD - 1;
    assertEquals(Kind.START_SPILL, next(s));
  }

  @Test
  public void aTakeStartsAnInvocationUnlessItIsEmptyOrALoneRunOnDiskUnderPartialSort() {
    Action reduce = scheduler.next(waiting(4));
    assertFalse("pins exhausted: nothing taken", reduce.startsInvocation(0, false));
    assertTrue(reduce.startsInvocation(1, true));
    assertTrue(reduce.startsInvocation(1, false));
    Snapshot sortOnly = waiting(4);
    sortOnly.partialReduceOn = false;
    Action sort = scheduler.next(sortOnly);
    assertEquals(Kind.START_INVOCATION, sort.kind);
    assertFalse("a lone run on disk waits for company", sort.startsInvocation(1, true));
    assertTrue("a lone run in memory is worth sorting to disk", sort.startsInvocation(1, false));
    assertTrue(sort.startsInvocation(2, false));
    assertFalse(sort.startsInvocation(0, false));
  }

  @Test
  public void partialRunsAreReMergedAtTheSortFactorWhenNoInvocationIsDue() {
    Snapshot s = idle();
    s.partialRuns = SORT_FACTOR - 1;
    assertEquals(Kind.NONE, next(s));
    s.partialRuns = SORT_FACTOR;
    Action action = scheduler.next(s);
    assertEquals(Kind.START_REMERGE, action.kind);
    assertEquals(SORT_FACTOR, action.runs);
    s.unprocessedMapOutputs = 4;
    assertEquals("an invocation goes first", Kind.START_INVOCATION, next(s));
  }

  @Test
  public void partialWorkWaitsForAFreeThreadAndNeverStartsWhenOff() {
    Snapshot s = waiting(8);
    s.partialRuns = SORT_FACTOR;
    s.running = THREADS - 1;
    assertEquals(Kind.START_INVOCATION, next(s));
    s.running = THREADS;
    assertEquals(Kind.NONE, next(s));
    s.running = 0;
    s.partialWorkOff = true;
    assertEquals(Kind.NONE, next(s));
    s.committedInMemoryBytes = MERGE_THRESHOLD;
    assertEquals(Kind.START_SPILL, next(s));
  }

  @Test
  public void theHeapIsReadOnlyWhenPartialWorkCouldStartAndHoldsItBack() {
    Snapshot s = waiting(4);
    s.heap = Heap.UNREAD;
    assertEquals(Kind.READ_HEAP, next(s));
    s.heap = Heap.NO_ROOM;
    assertEquals(Kind.NONE, next(s));
    s.partialRuns = SORT_FACTOR;
    assertEquals("no re-merge either", Kind.NONE, next(s));
    s.committedInMemoryBytes = MERGE_THRESHOLD;
    assertEquals("a spill does not ask the heap", Kind.START_SPILL, next(s));
    Snapshot remergeOnly = idle();
    remergeOnly.partialRuns = SORT_FACTOR;
    remergeOnly.heap = Heap.UNREAD;
    assertEquals(Kind.READ_HEAP, next(remergeOnly));
    Snapshot nothingToStart = waiting(3);
    nothingToStart.heap = Heap.UNREAD;
    nothingToStart.committedInMemoryBytes = MERGE_THRESHOLD;
    assertEquals(Kind.START_SPILL, next(nothingToStart));
    nothingToStart.committedInMemoryBytes = 0;
    assertEquals(Kind.NONE, next(nothingToStart));
  }

  @Test
  public void theForecastIsReadAfterTheHeapForTheInvocationsBytesAndALateOneDoesNotStart() {
    Snapshot s = waiting(4);
    s.heap = Heap.UNREAD;
    s.forecast = Forecast.UNREAD;
    assertEquals("the heap first", Kind.READ_HEAP, next(s));
    s.heap = Heap.NO_ROOM;
    assertEquals("no forecast where the heap holds partial work back", Kind.NONE, next(s));
    s.heap = Heap.ROOM;
    Action read = scheduler.next(s);
    assertEquals(Kind.READ_FORECAST, read.kind);
    assertEquals("what waits", 40, read.bytes);
    s.unprocessedBytes = 5 * MAX_BYTES;
    assertEquals("at most what one invocation takes", MAX_BYTES, scheduler.next(s).bytes);
    s.forecast = Forecast.LATE;
    assertEquals(Kind.NONE, next(s));
    s.forecast = Forecast.IN_TIME;
    assertEquals(Kind.START_INVOCATION, next(s));
    // A late invocation leaves a re-merge and a spill free to start.
    s.forecast = Forecast.LATE;
    s.partialRuns = SORT_FACTOR;
    assertEquals(Kind.START_REMERGE, next(s));
    s.partialRuns = 0;
    s.committedInMemoryBytes = MERGE_THRESHOLD;
    assertEquals(Kind.START_SPILL, next(s));
    Snapshot nothingWaits = idle();
    nothingWaits.forecast = Forecast.UNREAD;
    assertEquals("nothing to forecast", Kind.NONE, next(nothingWaits));
  }

  @Test
  public void aSpillStartsWhenCommittedMemoryWithThePinsReachesTheMergeThreshold() {
    Snapshot s = idle();
    s.committedInMemoryBytes = 100;
    s.pinnedBytes = MERGE_THRESHOLD - 101;
    assertEquals(Kind.NONE, next(s));
    s.pinnedBytes = MERGE_THRESHOLD - 100;
    assertEquals(Kind.START_SPILL, next(s));
    s.committedInMemoryBytes = 0;
    s.pinnedBytes = MERGE_THRESHOLD;
    assertEquals("pinned memory alone is nothing to spill", Kind.NONE, next(s));
    // Partial work goes first: the spill takes what it has left.
    Snapshot both = waiting(4);
    both.committedInMemoryBytes = MERGE_THRESHOLD;
    assertEquals(Kind.START_INVOCATION, next(both));
  }

  @Test
  public void nothingStartsOnceAMergeFailedTheAttemptOrTheShuffleIsOver() {
    Snapshot s = waiting(8);
    s.arrivals = MAPS;
    s.partialRuns = SORT_FACTOR;
    s.committedInMemoryBytes = MERGE_THRESHOLD;
    s.heap = Heap.UNREAD;
    s.failed = true;
    assertEquals(Kind.NONE, next(s));
    s.failed = false;
    s.shuffleOver = true;
    assertEquals(Kind.NONE, next(s));
  }
}
