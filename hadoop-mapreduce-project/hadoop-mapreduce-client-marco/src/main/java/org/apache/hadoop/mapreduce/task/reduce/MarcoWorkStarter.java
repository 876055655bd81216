/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.mapreduce.marco.MarcoSettings;

/**
 * Starts what {@link MarcoScheduler} decides: partial invocations on the map outputs that
 * arrived, re-merges of partial runs, and memory spills. It takes each action's inputs out of the
 * ledger (pinning those in memory), hands the merge to a partial thread or the spiller, and
 * counts what it started. Called with the merge manager's lock held, after every change of state.
 */
final class MarcoWorkStarter<K, V> {
  private final MarcoScheduler scheduler;
  private final MarcoRunLedger<K, V> ledger;
  private final MarcoMemoryBudget memory;
  private final MarcoHeapHold heapHold;
  private final MarcoFinishForecast forecast;

  /**
   * The forecast's reading before it is read: unread where {@code
   * mapreduce.marco.start.only.within.shuffle} is in force, else in time, so that the scheduler
   * never asks for it.
   */
  private final MarcoScheduler.Forecast unreadForecast;

  private final MarcoSettings settings;
  private final MarcoPartialThreads<K, V> partialThreads;
  private final MarcoOutcomeHandler.SpillStarter<K, V> spills;
  private final MarcoOutcomeHandler<K, V> outcomes;
  private final MarcoAdaptiveControl adaptive;
  private final MarcoMergeEvents events;
  private final int maps;

  /** The partial reducer, or null for partial sort only. */
  private final MarcoGroupedReducerRunner<K, V> partialReducer;

  /** {@code mapreduce.marco.test.fail.invocation}: the invocation that fails on purpose. */
  private final int failInvocation;

  /** A retried attempt runs without partial work. */
  private final boolean partialWorkOff;

  private int invocationsStarted;
  private int remergesStarted;
  private boolean stopPointRecorded;

  /** The latest forecast read said late: invocations are held back until one says in time. */
  private boolean lateHold;

  /**
   * The most raw bytes the invocation about to start takes beyond its first run: what the latest
   * forecast read says ends within the shuffle, or no bound where the forecast is not read.
   */
  private long inTimeBytes = Long.MAX_VALUE;

  /** The latest snapshot found the start threshold's batch late (logged when it becomes so). */
  private boolean thresholdLate;

  MarcoWorkStarter(
      MarcoScheduler scheduler,
      MarcoRunLedger<K, V> ledger,
      MarcoMemoryBudget memory,
      MarcoHeapHold heapHold,
      MarcoFinishForecast forecast,
      MarcoPartialThreads<K, V> partialThreads,
      MarcoOutcomeHandler.SpillStarter<K, V> spills,
      MarcoOutcomeHandler<K, V> outcomes,
      MarcoAdaptiveControl adaptive,
      MarcoMergeEvents events,
      MarcoSettings settings,
      int maps,
      MarcoGroupedReducerRunner<K, V> partialReducer,
      boolean partialWorkOff) {
    this.scheduler = scheduler;
    this.ledger = ledger;
    this.memory = memory;
    this.heapHold = heapHold;
    this.forecast = forecast;
    this.unreadForecast =
        settings.effectiveStartOnlyWithinShuffle()
            ? MarcoScheduler.Forecast.UNREAD
            : MarcoScheduler.Forecast.IN_TIME;
    this.settings = settings;
    this.partialThreads = partialThreads;
    this.spills = spills;
    this.outcomes = outcomes;
    this.adaptive = adaptive;
    this.events = events;
    this.maps = maps;
    this.partialReducer = partialReducer;
    this.failInvocation = settings.getFailInvocation();
    this.partialWorkOff = partialWorkOff;
  }

  int invocationsStarted() {
    return invocationsStarted;
  }

  int remergesStarted() {
    return remergesStarted;
  }

  /**
   * Starts what the scheduler decides, one action at a time, asking again after each.
   *
   * @param arrivals map outputs arrived so far
   * @param mapsComplete every map of the job has completed
   * @param shuffleOver the final merge has begun: nothing starts
   */
  void schedule(int arrivals, boolean mapsComplete, boolean shuffleOver) {
    boolean unprocessedHeld = false;
    MarcoScheduler.Heap heap = MarcoScheduler.Heap.UNREAD;
    MarcoScheduler.Forecast finish = unreadForecast;
    while (true) {
      MarcoScheduler.Action action =
          scheduler.next(
              snapshot(arrivals, mapsComplete, shuffleOver, unprocessedHeld, heap, finish));
      switch (action.kind) {
        case RECORD_STOP_POINT:
          stopPointRecorded = true;
          events.stopPoint(arrivals, maps);
          break;
        case READ_HEAP:
          heap =
              heapHold.hasRoom(arrivals) ? MarcoScheduler.Heap.ROOM : MarcoScheduler.Heap.NO_ROOM;
          break;
        case READ_FORECAST:
          finish = readForecast(action.bytes, arrivals);
          break;
        case START_INVOCATION:
          // Pinned memory comes back only when this low-priority invocation ends: runs in memory
          // are taken only as far as tryPin allows, the others wait for the spill; runs on disk
          // always. So the take may come back with nothing to start.
          List<MarcoShuffledRun<K, V>> inputs =
              ledger.takeUnprocessed(
                  run -> !run.inMemory() || memory.tryPin(run.rawLength()),
                  action.runs,
                  Math.min(action.bytes, inTimeBytes));
          if (action.startsInvocation(
              inputs.size(), inputs.size() == 1 && !inputs.get(0).inMemory())) {
            start(newInvocation(inputs), arrivals);
            heap = MarcoScheduler.Heap.UNREAD;
            finish = unreadForecast;
          } else {
            memory.unpin(MarcoShuffledRun.memoryBytesOf(inputs));
            ledger.putBack(inputs);
            unprocessedHeld = true;
          }
          break;
        case START_REMERGE:
          start(newRemerge(ledger.takeSmallestPartialRuns(action.runs)), arrivals);
          heap = MarcoScheduler.Heap.UNREAD;
          break;
        case START_SPILL:
          spills.start(ledger.takeForSpill(), false);
          return;
        case NONE:
          return;
      }
    }
  }

  /** What the scheduler decides from, at one step of a pass. */
  private MarcoScheduler.Snapshot snapshot(
      int arrivals,
      boolean mapsComplete,
      boolean shuffleOver,
      boolean unprocessedHeld,
      MarcoScheduler.Heap heap,
      MarcoScheduler.Forecast finish) {
    MarcoScheduler.Snapshot s = new MarcoScheduler.Snapshot();
    s.failed = outcomes.fatalFailure() != null;
    s.shuffleOver = shuffleOver;
    s.partialWorkOff = partialWorkOff;
    s.partialReduceOn = partialFunction() != null;
    s.arrivals = arrivals;
    s.mapsComplete = mapsComplete;
    s.stopPointRecorded = stopPointRecorded;
    s.invocationsStarted = invocationsStarted;
    s.running = outcomes.running();
    s.unprocessedMapOutputs = ledger.unprocessedMapOutputs();
    s.unprocessedBytes = ledger.unprocessedBytes();
    // While maps run, arrivals come in bursts as they finish, and the threshold batches work
    // that competes with them for the CPU; after them, the pace is the network's.
    s.thresholdLate =
        settings.effectiveStartWhenThresholdLate()
            && mapsComplete
            && readThresholdLate(arrivals, s);
    s.unprocessedHeld = unprocessedHeld;
    s.partialRuns = ledger.partialRunCount();
    s.committedInMemoryBytes = ledger.committedInMemoryBytes();
    s.pinnedBytes = memory.pinned();
    s.mergeThreshold = memory.mergeThreshold();
    s.heap = heap;
    s.forecast = finish;
    return s;
  }

  /**
   * Whether an invocation over up to {@code bytes} raw bytes would end after the shuffle; logged,
   * and counted once per episode of holding back, when the answer changes. It takes the oldest
   * waiting runs first, so where all of {@code bytes} would end late, it takes only what is
   * forecast to end in time ({@link #inTimeBytes}); it is late only when its first run is.
   * Holding all of them back instead left a reduce whose first invocation the maps had slowed to
   * send every later map output raw to the final merge.
   */
  private MarcoScheduler.Forecast readForecast(long bytes, int arrivals) {
    long now = System.currentTimeMillis();
    inTimeBytes = forecast.bytesWithinShuffle(now);
    long first = ledger.oldestUnprocessedBytes();
    boolean isLate = first > inTimeBytes;
    if (isLate != lateHold) {
      lateHold = isLate;
      events.lateStarts(isLate, arrivals, forecast.describe(isLate ? first : bytes, now));
    }
    return isLate ? MarcoScheduler.Forecast.LATE : MarcoScheduler.Forecast.IN_TIME;
  }

  /**
   * Whether a batch of the next invocation's start threshold, waited for, would end after the
   * shuffle; logged when it becomes so.
   */
  private boolean readThresholdLate(int arrivals, MarcoScheduler.Snapshot s) {
    long now = System.currentTimeMillis();
    int threshold = settings.startThreshold(invocationsStarted);
    boolean late =
        forecast.batchEndsAfterShuffle(threshold, s.unprocessedMapOutputs, s.unprocessedBytes, now);
    if (late && !thresholdLate) {
      events.thresholdLate(
          arrivals,
          forecast.describeBatch(threshold, s.unprocessedMapOutputs, s.unprocessedBytes, now));
    }
    thresholdLate = late;
    return late;
  }

  /** The partial reducer while partial reduce is on, else null (partial sort). */
  private MarcoRecordReducer<K, V> partialFunction() {
    return partialReducer != null
            && !outcomes.partialReduceRuledOut()
            && adaptive.partialReduceActive()
        ? partialReducer
        : null;
  }

  private MarcoInvocation<K, V> newInvocation(List<MarcoShuffledRun<K, V>> mapOutputs) {
    int number = invocationsStarted + 1;
    return new MarcoInvocation<>(
        number, 1, mapOutputs, new ArrayList<>(), partialFunction(), number == failInvocation);
  }

  private MarcoInvocation<K, V> newRemerge(List<MarcoPartialRun<K, V>> runs) {
    int level = 0;
    List<MarcoShuffledRun<K, V>> inputs = new ArrayList<>();
    for (MarcoPartialRun<K, V> run : runs) {
      level = Math.max(level, run.level + 1);
      inputs.add(run.run);
    }
    return new MarcoInvocation<>(
        remergesStarted + 1, level, inputs, runs, partialFunction(), false);
  }

  private void start(MarcoInvocation<K, V> invocation, int arrivals) {
    invocation.inputs.forEach(MarcoShuffledRun::beginRead);
    try {
      partialThreads.execute(invocation);
    } catch (RuntimeException | Error e) {
      // No thread took the inputs (the pool is shut down, no thread could be made): they wait
      // for the final merge as they were, unpinned.
      MarcoPartialThreads.endReads(invocation.inputs);
      memory.unpin(MarcoShuffledRun.memoryBytesOf(invocation.inputs));
      if (invocation.isRemerge()) {
        ledger.toFinalMerge(invocation.inputs);
      } else {
        ledger.giveBack(invocation.inputs);
      }
      throw e;
    }
    // The invocation cannot end before these: it needs the lock to say so.
    outcomes.started(invocation);
    if (invocation.isRemerge()) {
      remergesStarted++;
    } else {
      invocationsStarted++;
    }
    events.started(invocation, arrivals);
  }
}
