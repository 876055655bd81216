/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.util.List;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the merge manager tells the world about the runs it merges: the MaRCO counters, the
 * timeline and the log lines an operator greps for, one method per event, so that the data path
 * reads without them. The log lines keep the merge manager's logger, as operators configure it.
 * Called with the merge manager's lock held, where a method does not say otherwise.
 */
final class MarcoMergeEvents {
  private static final Logger LOG = LoggerFactory.getLogger(MarcoMergeManager.class);

  private final TaskAttemptID reduceId;
  private final Reporter reporter;
  private final MarcoTimeline timeline;
  private int deepestLevel;

  MarcoMergeEvents(TaskAttemptID reduceId, Reporter reporter, MarcoTimeline timeline) {
    this.reduceId = reduceId;
    this.reporter = reporter;
    this.timeline = timeline;
  }

  void count(MarcoCounter counter, long amount) {
    reporter.incrCounter(counter, amount);
  }

  <K, V> void arrival(MarcoShuffledRun<K, V> run, int arrivals) {
    timeline.event(
        "arrival",
        "map",
        run.name(),
        "bytes",
        run.rawLength(),
        "where",
        run.inMemory() ? "memory" : "disk",
        "arrived",
        arrivals);
  }

  void stopPoint(int arrivals, int maps) {
    timeline.event("stop-point", "arrived", arrivals, "maps", maps);
    LOG.info(
        "MaRCO stop point: {} of {} map outputs arrived, no new partial invocation starts",
        arrivals,
        maps);
  }

  void mapsCompleted(boolean complete, int arrivals, int maps, boolean startAtOnce) {
    timeline.event(complete ? "maps-complete" : "maps-incomplete", "arrived", arrivals);
    if (complete) {
      LOG.info(
          "MaRCO: all {} maps have completed, {} of their outputs arrived at {}; waiting map"
              + " outputs start partial invocations {}",
          maps,
          arrivals,
          reduceId,
          startAtOnce ? "at once" : "at the start threshold");
    } else {
      LOG.info("MaRCO: a map of {} runs again; the start threshold applies again", reduceId);
    }
  }

  /** Partial work is held back for the heap: an episode, counted once. */
  void heapHold(int arrivals, MarcoHeapGuard guard) {
    count(MarcoCounter.HEAP_BACKOFFS, 1);
    timeline.event("heap-hold", "arrived", arrivals);
    LOG.info(
        "MaRCO: {} holds partial work back: {} ({}); the shuffle goes on as stock's",
        reduceId,
        guard,
        MarcoConfig.PARTIAL_HEAP_LIMIT_PERCENT);
  }

  void heapRoom(int arrivals, MarcoHeapGuard guard) {
    timeline.event("heap-room", "arrived", arrivals);
    LOG.info("MaRCO: {} resumes partial work: {}", reduceId, guard);
  }

  /**
   * Invocations are held back as forecast to end after the shuffle ({@code late}), an episode
   * counted once, or start again.
   */
  void lateStarts(boolean late, int arrivals, String forecast) {
    if (late) {
      count(MarcoCounter.LATE_STARTS_HELD, 1);
    }
    timeline.event(late ? "late-hold" : "late-resume", "arrived", arrivals);
    LOG.info(
        "MaRCO: {} {}: {}",
        reduceId,
        late
            ? "holds partial invocations back, as they would end after the shuffle"
            : "starts partial invocations again, as they would end within the shuffle",
        forecast);
  }

  /**
   * The map outputs waiting may start an invocation below the start threshold: a batch of the
   * threshold would end after the shuffle. Logged each time it becomes so.
   */
  void thresholdLate(int arrivals, String forecast) {
    timeline.event("threshold-late", "arrived", arrivals);
    LOG.info(
        "MaRCO: {} starts partial invocations below the start threshold, as a batch of it would"
            + " end after the shuffle: {}",
        reduceId,
        forecast);
  }

  <K, V> void started(MarcoInvocation<K, V> invocation, int arrivals) {
    if (invocation.isRemerge()) {
      timeline.event(
          "remerge-start",
          "n",
          invocation.number,
          "level",
          invocation.level,
          "runs",
          invocation.inputs.size(),
          "bytes",
          MarcoShuffledRun.bytesOf(invocation.inputs),
          "reduce",
          invocation.function != null);
    } else {
      timeline.event(
          "invocation-start",
          "n",
          invocation.number,
          "arrived",
          arrivals,
          "runs",
          invocation.inputs.size(),
          "mapOutputs",
          MarcoShuffledRun.mapOutputsOf(invocation.inputs),
          "bytes",
          MarcoShuffledRun.bytesOf(invocation.inputs),
          "reduce",
          invocation.function != null);
    }
  }

  /** A merge of partial work committed its run, which took {@code millis}. */
  <K, V> void committed(
      MarcoInvocation<K, V> invocation, MarcoRunMerger.Result<K, V> result, long millis) {
    boolean reduced = invocation.function != null;
    deepen(invocation.level);
    count(reduced ? MarcoCounter.PARTIAL_REDUCE_MILLIS : MarcoCounter.PARTIAL_SORT_MILLIS, millis);
    count(MarcoCounter.PARTIAL_BYTES_WRITTEN, result.bytesWritten);
    if (invocation.isRemerge()) {
      count(MarcoCounter.PARTIAL_REMERGES, 1);
      count(MarcoCounter.PARTIAL_REMERGED_RUNS, invocation.inputs.size());
      timeline.event(
          "remerge-end",
          "n",
          invocation.number,
          "level",
          invocation.level,
          "inputRecords",
          result.inputRecords,
          "outputRecords",
          result.outputRecords,
          "millis",
          millis);
      LOG.info(
          "MaRCO {} of {}: {} {} partial runs, {} -> {} records, {} ms",
          invocation,
          reduceId,
          reduced ? "merged+reduced" : "merged",
          invocation.inputs.size(),
          result.inputRecords,
          result.outputRecords,
          millis);
      return;
    }
    int mapOutputs = MarcoShuffledRun.mapOutputsOf(invocation.inputs);
    count(MarcoCounter.INVOCATIONS, 1);
    count(MarcoCounter.PARTIAL_INPUT_RECORDS, result.inputRecords);
    count(MarcoCounter.PARTIAL_OUTPUT_RECORDS, result.outputRecords);
    count(MarcoCounter.PARTIAL_INPUT_MAP_OUTPUTS, mapOutputs);
    timeline.event(
        "invocation-end",
        "n",
        invocation.number,
        "inputRecords",
        result.inputRecords,
        "outputRecords",
        result.outputRecords,
        "bytesWritten",
        result.bytesWritten,
        "millis",
        millis,
        "reduce",
        reduced);
    LOG.info(
        String.format(
            "MaRCO partial invocation #%d of %s: %s %d runs (%d map outputs), "
                + "%d -> %d records, %d bytes written, %d ms",
            invocation.number,
            reduceId,
            reduced ? "sorted+reduced" : "sorted",
            invocation.inputs.size(),
            mapOutputs,
            result.inputRecords,
            result.outputRecords,
            result.bytesWritten,
            millis));
  }

  /** Keeps PARTIAL_MERGE_LEVELS at the deepest level of partial runs made so far. */
  private void deepen(int level) {
    if (level > deepestLevel) {
      count(MarcoCounter.PARTIAL_MERGE_LEVELS, level - deepestLevel);
      deepestLevel = level;
    }
  }

  void adaptiveDisabled(int invocation, float ratioThreshold) {
    count(MarcoCounter.ADAPTIVE_DISABLES, 1);
    timeline.event("adaptive-disable", "n", invocation);
    LOG.info(
        "MaRCO adaptive control: partial reduce of {} keeps {} or more of its records; switched"
            + " off, partial sort goes on",
        reduceId,
        ratioThreshold);
  }

  /**
   * A merge of partial work failed.
   *
   * @param failsAttempt the failure fails the attempt
   * @param firstViolation the first contract violation of the attempt: partial reduce goes off
   * @param reducerName the partial reducer's class, for the fix the log line names
   */
  <K, V> void failed(
      MarcoInvocation<K, V> invocation,
      Throwable failure,
      boolean failsAttempt,
      boolean firstViolation,
      String reducerName) {
    boolean violation = failure instanceof MarcoContractViolationException;
    count(MarcoCounter.FAILED_INVOCATIONS, 1);
    timeline.event(
        invocation.isRemerge() ? "remerge-failed" : "invocation-failed",
        "n",
        invocation.number,
        "error",
        failure.toString());
    if (violation) {
      count(MarcoCounter.CONTRACT_VIOLATIONS, 1);
    }
    if (failsAttempt) {
      LOG.error(
          "MaRCO {} of {} failed; the attempt fails, as it would under stock Hadoop{}, and a retry"
              + " runs without partial work",
          invocation,
          reduceId,
          violation ? " (" + MarcoConfig.PARTIAL_CONTRACT_STRICT + "=true)" : "",
          failure);
    } else if (firstViolation) {
      LOG.warn(
          "MaRCO {} of {}: {}. Its {} runs go to the final merge unchanged and partial reduce is"
              + " off for the rest of this attempt (partial sort goes on). Fix the partial reducer"
              + " ({}); docs/partial-reducer.md has the contract",
          invocation,
          reduceId,
          failure.getMessage(),
          invocation.inputs.size(),
          reducerName);
    } else if (!violation) {
      LOG.warn(
          "MaRCO {} of {} failed; its {} runs go to the final merge unchanged",
          invocation,
          reduceId,
          invocation.inputs.size(),
          failure);
    }
  }

  <K, V> void backedOff(MarcoInvocation<K, V> invocation, long millis, MarcoHeapGuard guard) {
    count(MarcoCounter.HEAP_BACKOFFS, 1);
    ended(invocation, "backed-off", millis);
    LOG.info(
        "MaRCO {} of {} backed off after {} ms: {} ({}); its {} runs wait, unchanged, until the"
            + " heap has room",
        invocation,
        reduceId,
        millis,
        guard,
        MarcoConfig.PARTIAL_HEAP_LIMIT_PERCENT,
        invocation.inputs.size());
  }

  /**
   * A merge of partial work ran the heap out, ahead of the guard, whose reading trails the
   * allocations of a young generation: the attempt goes on, without partial reduce.
   */
  <K, V> void ranOutOfHeap(
      MarcoInvocation<K, V> invocation, long millis, Throwable error, String reducerName) {
    count(MarcoCounter.HEAP_BACKOFFS, 1);
    ended(invocation, "out-of-heap", millis);
    LOG.warn(
        "MaRCO {} of {} ran out of heap after {} ms ({}): partial work (partial reducer {}) held"
            + " more than the heap has room for next to the shuffle's buffers. Its {} runs wait,"
            + " unchanged, and partial reduce is off for the rest of this attempt (partial sort"
            + " goes on). Give reduces more heap (mapreduce.reduce.memory.mb and -Xmx), or lower"
            + " {}",
        invocation,
        reduceId,
        millis,
        error,
        reducerName,
        invocation.inputs.size(),
        MarcoConfig.PARTIAL_HEAP_LIMIT_PERCENT);
  }

  /** The timeline event of a merge of partial work that ended {@code how}, without a run. */
  private <K, V> void ended(MarcoInvocation<K, V> invocation, String how, long millis) {
    timeline.event(
        (invocation.isRemerge() ? "remerge-" : "invocation-") + how,
        "n",
        invocation.number,
        "millis",
        millis);
  }

  /**
   * An invocation abandoned at shuffle end: as {@code asked} by {@link
   * MarcoConfig#ABANDON_AT_SHUFFLE_END} or a failing attempt, or as not worth the final merge's
   * wait.
   */
  <K, V> void abandoned(MarcoInvocation<K, V> invocation, long millis, boolean asked) {
    count(MarcoCounter.ABANDONED_INVOCATIONS, 1);
    ended(invocation, "abandoned", millis);
    LOG.info(
        "MaRCO {} of {} abandoned at shuffle end after {} ms ({}); its {} runs go to the final"
            + " merge unchanged",
        invocation,
        reduceId,
        millis,
        asked
            ? "as asked"
            : "not worth the wait: " + invocation.progress.describe(invocation.inputBytes()),
        invocation.inputs.size());
  }

  /**
   * How an invocation detached at shuffle end ended; called on its partial thread, without the
   * lock, after the shuffle (no fetcher waits for the log any more).
   */
  <K, V> void detachedEnded(MarcoInvocation<K, V> invocation, Throwable failure) {
    if (failure instanceof Error) {
      LOG.error(
          "MaRCO: abandoned {} of {} failed; the attempt fails", invocation, reduceId, failure);
    } else if (failure != null && !(failure instanceof MarcoAbandonedMergeException)) {
      LOG.info(
          "MaRCO: abandoned {} of {} ended with {}; its inputs were already in the final merge",
          invocation,
          reduceId,
          failure.toString());
    }
  }

  <K, V> void spillStarted(int number, List<MarcoShuffledRun<K, V>> inputs) {
    timeline.event(
        "spill-start",
        "n",
        number,
        "runs",
        inputs.size(),
        "bytes",
        MarcoShuffledRun.bytesOf(inputs));
  }

  <K, V> void spillCommitted(
      int number, List<MarcoShuffledRun<K, V>> inputs, MarcoRunMerger.Result<K, V> result) {
    timeline.event("spill-end", "n", number, "bytesWritten", result.bytesWritten);
    LOG.info(
        "MaRCO memory spill #{} of {}: {} in-memory map outputs, {} records, {} bytes to disk",
        number,
        reduceId,
        inputs.size(),
        result.outputRecords,
        result.bytesWritten);
  }

  void shuffleEnded(int arrivals, int running, boolean abandon) {
    timeline.event(
        "shuffle-end", "arrived", arrivals, "invocationsRunning", running, "abandon", abandon);
  }

  void partialThreadsRaised(int threads) {
    timeline.event("partial-threads-raised", "threads", threads);
    LOG.info(
        "MaRCO: {} waits for its running partial work at shuffle end; {} partial threads back at"
            + " the container's share",
        reduceId,
        threads);
  }

  void finalMergeStarted(int runs, int partialRuns) {
    timeline.event("final-merge-start", "runs", runs, "partialRuns", partialRuns);
  }

  /** The reducer's input is ready: what the shuffle did, and how long its end took. */
  void finalMergeEnded(
      int arrivals,
      int invocations,
      int remerges,
      int spills,
      long waitedMillis,
      long finalMergeMillis) {
    timeline.event("final-merge-end");
    count(MarcoCounter.FINAL_MERGE_MILLIS, finalMergeMillis);
    count(MarcoCounter.EXPOSED_AFTER_SHUFFLE_MILLIS, waitedMillis + finalMergeMillis);
    LOG.info(
        "MaRCO shuffle of {} done: {} map outputs, {} partial invocations, {} re-merges, {} memory"
            + " spills; waited {} ms for running invocations, final merge {} ms",
        reduceId,
        arrivals,
        invocations,
        remerges,
        spills,
        waitedMillis,
        finalMergeMillis);
  }

  List<String> timelineEvents() {
    return timeline.events();
  }
}
