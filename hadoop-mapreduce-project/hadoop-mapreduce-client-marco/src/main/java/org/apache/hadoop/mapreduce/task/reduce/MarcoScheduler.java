/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

/**
 * What the merge manager starts next, decided from a {@link Snapshot} of what it knows: a partial
 * invocation over the unprocessed map outputs, a re-merge of the smallest partial runs, or a
 * memory spill. A pure function: no thread, no lock, no side effect; the manager carries each
 * {@link Action} out under its lock and asks again with a fresh snapshot, until the answer is
 * {@link Kind#NONE} or a spill (the last action of a pass).
 *
 * <p>The rules, in the order they apply: nothing starts once a merge has failed the attempt or
 * the shuffle is over; the stop point is recorded when first reached; an invocation starts while
 * {@link MarcoInvocationPolicy#mayStart} allows one, a partial thread is free and it is not
 * forecast to end after the shuffle ({@link MarcoFinishForecast}); then a re-merge, before the
 * stop point, once there are sort-factor partial runs; partial work of either kind only while the
 * heap has room. The heap and the forecast are read only when they could decide a start (each
 * reading is logged when it changes). Last, as Hadoop's merge manager, a spill once the committed
 * in-memory map outputs, pinned ones included, reach the merge threshold.
 */
final class MarcoScheduler {
  /** The heap guard's reading at this step: read only when partial work could start. */
  enum Heap {
    UNREAD,
    ROOM,
    NO_ROOM
  }

  /** The finish forecast's reading for the invocation that could start at this step. */
  enum Forecast {
    UNREAD,
    /** Forecast to end before the shuffle does, no forecast yet, or the forecast not asked for. */
    IN_TIME,
    /** Forecast to end after the shuffle: it does not start. */
    LATE
  }

  enum Kind {
    /** Nothing (more) to start in this pass. */
    NONE,
    /** The stop point is reached: record it once. */
    RECORD_STOP_POINT,
    /** Partial work could start: read the heap guard and ask again. */
    READ_HEAP,
    /**
     * An invocation could start: forecast how much of at most {@code bytes} raw bytes, oldest
     * first, ends before the shuffle (none: late), and ask again.
     */
    READ_FORECAST,
    /** Take unprocessed runs, oldest first, within the bounds, and start an invocation. */
    START_INVOCATION,
    /** Take the smallest partial runs and start a re-merge of them. */
    START_REMERGE,
    /** Take every committed in-memory map output no merge has taken and spill it. */
    START_SPILL
  }

  /**
   * One step's answer. For {@link Kind#START_INVOCATION}, at most {@code runs} runs of at most
   * {@code bytes} raw bytes (the first run always), and the take may come back with nothing to
   * start (see {@link #startsInvocation}); for {@link Kind#START_REMERGE}, exactly {@code runs}
   * partial runs.
   */
  static final class Action {
    static final Action NONE = new Action(Kind.NONE, 0, 0, false);
    static final Action RECORD_STOP_POINT = new Action(Kind.RECORD_STOP_POINT, 0, 0, false);
    static final Action READ_HEAP = new Action(Kind.READ_HEAP, 0, 0, false);
    static final Action START_SPILL = new Action(Kind.START_SPILL, 0, 0, false);

    final Kind kind;
    final int runs;
    final long bytes;
    private final boolean loneRunOnDiskWaits;

    private Action(Kind kind, int runs, long bytes, boolean loneRunOnDiskWaits) {
      this.kind = kind;
      this.runs = runs;
      this.bytes = bytes;
      this.loneRunOnDiskWaits = loneRunOnDiskWaits;
    }

    /**
     * Whether the runs a take for {@link Kind#START_INVOCATION} came back with are an invocation
     * to start: {@code taken} runs, the only one on disk or not. None: every waiting run is in
     * memory and no pin is left for it (it waits for the memory spill). A lone run on disk under
     * partial sort would be copied unchanged, a disk write and read for nothing that Hadoop
     * counts in SPILLED_RECORDS: it waits for company. (One in memory is worth sorting to disk:
     * the final merge would write it there itself, on the reducer's critical path.) Either way,
     * the runs go back and no invocation starts in this pass.
     */
    boolean startsInvocation(int taken, boolean loneRunOnDisk) {
      return taken > 0 && !(taken == 1 && loneRunOnDisk && loneRunOnDiskWaits);
    }

    @Override
    public String toString() {
      return kind + (runs == 0 ? "" : " runs=" + runs) + (bytes == 0 ? "" : " bytes=" + bytes);
    }
  }

  /** What the merge manager knows at one step of a pass; filled in under its lock. */
  static final class Snapshot {
    boolean failed;
    boolean shuffleOver;
    boolean partialWorkOff;
    boolean partialReduceOn;
    int arrivals;
    boolean mapsComplete;
    boolean stopPointRecorded;
    int invocationsStarted;
    int running;
    int unprocessedMapOutputs;
    long unprocessedBytes;

    /** A batch of the start threshold, waited for, is forecast to end after the shuffle. */
    boolean thresholdLate;

    /** This pass's take of unprocessed runs came back with nothing to start. */
    boolean unprocessedHeld;

    int partialRuns;
    long committedInMemoryBytes;
    long pinnedBytes;
    long mergeThreshold;
    Heap heap = Heap.UNREAD;
    Forecast forecast = Forecast.UNREAD;
  }

  private final MarcoInvocationPolicy policy;
  private final int partialThreads;
  private final int sortFactor;
  private final long invocationMaxBytes;

  /**
   * @param partialThreads the most merges of partial work running at once
   * @param sortFactor the most runs one merge opens: {@code mapreduce.task.io.sort.factor}
   * @param invocationMaxBytes the most raw bytes of map outputs one invocation takes
   */
  MarcoScheduler(
      MarcoInvocationPolicy policy, int partialThreads, int sortFactor, long invocationMaxBytes) {
    this.policy = policy;
    this.partialThreads = partialThreads;
    this.sortFactor = sortFactor;
    this.invocationMaxBytes = invocationMaxBytes;
  }

  /** The next action of a pass, from what the manager knows now. */
  Action next(Snapshot s) {
    if (s.failed || s.shuffleOver) {
      // The attempt fails, or the shuffle is over: no fetch needs memory, and the final merge
      // takes every run as it is.
      return Action.NONE;
    }
    if (!s.stopPointRecorded && policy.stopReached(s.arrivals)) {
      return Action.RECORD_STOP_POINT;
    }
    boolean threadFree = !s.partialWorkOff && s.running < partialThreads;
    boolean invocation =
        threadFree
            && !s.unprocessedHeld
            && policy.mayStart(
                s.invocationsStarted,
                s.unprocessedMapOutputs,
                s.unprocessedBytes,
                s.arrivals,
                s.mapsComplete,
                s.thresholdLate);
    // Multi-level partial reduce: partial runs are merged again once there are sort-factor of
    // them, so that the final merge gets fewer than that from MaRCO. Like invocations, not from
    // the stop point on: one may be running at shuffle end.
    boolean remerge = threadFree && !policy.stopReached(s.arrivals) && s.partialRuns >= sortFactor;
    if ((invocation || remerge) && s.heap == Heap.UNREAD) {
      return Action.READ_HEAP;
    }
    if (invocation && s.heap == Heap.ROOM && s.forecast == Forecast.UNREAD) {
      return new Action(
          Kind.READ_FORECAST, 0, Math.min(s.unprocessedBytes, invocationMaxBytes), false);
    }
    if (invocation && s.heap == Heap.ROOM && s.forecast == Forecast.IN_TIME) {
      return new Action(Kind.START_INVOCATION, sortFactor, invocationMaxBytes, !s.partialReduceOn);
    }
    if (remerge && s.heap == Heap.ROOM) {
      return new Action(Kind.START_REMERGE, sortFactor, 0, false);
    }
    // Committed in-memory map outputs, pinned ones included, stay below the merge threshold, so
    // only fetches in flight can take memory over the limit. Counting only the unpinned ones let
    // pins and unpinned outputs together fill the buffer, and every fetch until the spill ended
    // was told to WAIT (and reconnected).
    if (s.committedInMemoryBytes > 0
        && s.committedInMemoryBytes + s.pinnedBytes >= s.mergeThreshold) {
      return Action.START_SPILL;
    }
    return Action.NONE;
  }
}
