/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.mapreduce.TaskAttemptID;

/**
 * Memory spills: in-memory runs merged into one run on disk, through the job's old-API combiner
 * as stock Hadoop does, on one thread at the container's share. A spill frees shuffle memory that
 * fetches wait for, so it must not starve behind low-priority partial work. Its end is applied
 * under the merge manager's lock by the manager ({@link Committer}); the counts of spills are
 * guarded by that lock too.
 */
final class MarcoSpiller<K, V> {
  /** The merge manager's side of a spill's end. */
  interface Committer<K, V> {
    /**
     * Applies the end of spill {@code number}, with the merge manager's lock held: commits its
     * run, or takes note of its failure.
     *
     * @param result the spill's run, or null where the merge failed
     * @param failure why the merge failed, or null
     * @return what fails the attempt, or null
     */
    Throwable spillEnded(
        int number,
        List<MarcoShuffledRun<K, V>> inputs,
        boolean toFinalMerge,
        MarcoRunMerger.Result<K, V> result,
        Throwable failure);
  }

  private final Object lock;
  private final Committer<K, V> committer;
  private final ExceptionReporter exceptionReporter;
  private final MarcoRunMerger<K, V> runMerger;
  private final MarcoRecordReducer<K, V> combiner;
  private final MarcoShuffleCpuCgroup shuffleCpuCgroup;
  private final ExecutorService thread;
  private final ThreadLocal<Boolean> movedToContainerShare = ThreadLocal.withInitial(() -> false);

  /** Guarded by {@link #lock}. */
  private int started;

  /** Guarded by {@link #lock}. */
  private int running;

  /**
   * @param lock the merge manager's lock, under which a spill's end is applied
   * @param combiner the job's old-API combiner, or a copy
   */
  MarcoSpiller(
      TaskAttemptID reduceId,
      Object lock,
      Committer<K, V> committer,
      ExceptionReporter exceptionReporter,
      MarcoRunMerger<K, V> runMerger,
      MarcoRecordReducer<K, V> combiner,
      MarcoShuffleCpuCgroup shuffleCpuCgroup) {
    this.lock = lock;
    this.committer = committer;
    this.exceptionReporter = exceptionReporter;
    this.runMerger = runMerger;
    this.combiner = combiner;
    this.shuffleCpuCgroup = shuffleCpuCgroup;
    this.thread =
        Executors.newSingleThreadExecutor(
            new MarcoCpuShareThreadFactory("MaRCO memory spill " + reduceId, 0, ""));
  }

  /**
   * Hands {@code inputs} to the spill thread; called with the merge manager's lock held. Throws
   * what the thread pool throws (shut down, no thread could be made): then no spill started.
   *
   * @param toFinalMerge the spilled run skips partial invocations (inputs of a failed one)
   * @return the spill's number
   */
  int start(List<MarcoShuffledRun<K, V>> inputs, boolean toFinalMerge) {
    int number = started + 1;
    thread.execute(() -> run(number, inputs, toFinalMerge));
    started = number;
    running++;
    return number;
  }

  /** Spills started so far; read with the merge manager's lock held. */
  int started() {
    return started;
  }

  /** Spills running now; read with the merge manager's lock held. */
  int running() {
    return running;
  }

  /**
   * The spill thread is born from whichever thread first starts a spill, a partial thread
   * included; a fetcher that waits for the spill needs it at the container's share.
   */
  private void keepAtContainerShare() {
    if (!movedToContainerShare.get()) {
      movedToContainerShare.set(true);
      shuffleCpuCgroup.keepCurrentThreadAtContainerShare();
    }
  }

  private void run(int number, List<MarcoShuffledRun<K, V>> inputs, boolean toFinalMerge) {
    keepAtContainerShare();
    MarcoRunMerger.Result<K, V> result = null;
    Throwable failure = null;
    try {
      result = runMerger.merge("marco-spill-" + number, inputs, combiner);
    } catch (Throwable t) {
      failure = MarcoErrors.keepInterrupt(t);
    }
    Throwable fatal;
    synchronized (lock) {
      running--;
      fatal = committer.spillEnded(number, inputs, toFinalMerge, result, failure);
    }
    if (fatal != null) {
      // As in stock Hadoop, a merge that must free memory and cannot fails the attempt.
      exceptionReporter.reportException(fatal);
    }
  }

  /** Lets the spill running, and those handed over, finish; starts none after. */
  void shutdown() {
    thread.shutdown();
  }

  /**
   * Waits at most {@code millis} for the spill thread to end after {@link #shutdown}; returns
   * whether it has.
   */
  boolean awaitTermination(long millis) throws InterruptedException {
    return thread.awaitTermination(millis, TimeUnit.MILLISECONDS);
  }
}
