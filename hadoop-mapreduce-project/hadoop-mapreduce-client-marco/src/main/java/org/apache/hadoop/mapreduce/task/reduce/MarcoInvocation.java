/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/** One merge of partial work: of map outputs (level 1), or of partial runs (a re-merge). */
final class MarcoInvocation<K, V> {
  private enum State {
    RUNNING,
    FINISHED,
    APPLIED,
    DETACHED
  }

  final int number;
  final int level;
  final List<MarcoShuffledRun<K, V>> inputs;

  /** A re-merge's inputs with their levels (empty for an invocation on map outputs). */
  final List<MarcoPartialRun<K, V>> partialInputs;

  /** The partial reducer, or null for partial sort (a plain merge). */
  final MarcoRecordReducer<K, V> function;

  final boolean injectFailure;

  /** How far its merge has got, for the decision whether the final merge waits for it. */
  final MarcoMergeProgress progress = new MarcoMergeProgress();

  /** When it was handed to a partial thread; guarded by the merge manager. */
  long startMillis;

  /**
   * RUNNING until either its partial thread finishes it (and posts the outcome) or the shuffle's
   * end detaches it (and the final merge takes its inputs): whichever comes first decides, with
   * no lock, who handles its end.
   */
  private final AtomicReference<State> state = new AtomicReference<>(State.RUNNING);

  /**
   * The outcome, written by the partial thread before it sets FINISHED and read only by the
   * caller that claims it, after it has seen FINISHED.
   */
  private MarcoRunMerger.Result<K, V> result;

  private Throwable failure;
  private long workStartMillis;
  private long endMillis;
  private long cpuMillis;

  MarcoInvocation(
      int number,
      int level,
      List<MarcoShuffledRun<K, V>> inputs,
      List<MarcoPartialRun<K, V>> partialInputs,
      MarcoRecordReducer<K, V> function,
      boolean injectFailure) {
    this.number = number;
    this.level = level;
    this.inputs = inputs;
    this.partialInputs = partialInputs;
    this.function = function;
    this.injectFailure = injectFailure;
  }

  boolean isRemerge() {
    return level > 1;
  }

  /**
   * Its partial thread is done, with {@code result} or {@code failure}, having worked from {@code
   * startMillis} to {@code endMillis} with {@code cpuMillis} of CPU time: true if the outcome is
   * now the manager's to apply, false if the invocation was detached first.
   */
  boolean finish(
      MarcoRunMerger.Result<K, V> result,
      Throwable failure,
      long startMillis,
      long endMillis,
      long cpuMillis) {
    this.result = result;
    this.failure = failure;
    this.workStartMillis = startMillis;
    this.endMillis = endMillis;
    this.cpuMillis = cpuMillis;
    return state.compareAndSet(State.RUNNING, State.FINISHED);
  }

  /** The finished merge's run, or null where it failed; read after {@link #claimOutcome}. */
  MarcoRunMerger.Result<K, V> result() {
    return result;
  }

  /** Why the finished merge failed, or null; read after {@link #claimOutcome}. */
  Throwable failure() {
    return failure;
  }

  /** When its partial thread started the merge. */
  long workStartMillis() {
    return workStartMillis;
  }

  /** How long its partial thread worked on it. */
  long workMillis() {
    return endMillis - workStartMillis;
  }

  /**
   * The CPU time its partial thread spent on it (its wall time where the JVM measures no thread
   * CPU time): the work itself, without the time the thread waited for a CPU.
   */
  long cpuMillis() {
    return cpuMillis;
  }

  boolean finished() {
    return state.get() == State.FINISHED;
  }

  /** True for the one caller that gets to apply the outcome of a finished invocation. */
  boolean claimOutcome() {
    return state.compareAndSet(State.FINISHED, State.APPLIED);
  }

  /** Whether the shuffle's end took its inputs from it: its merge stops at the next record. */
  boolean detached() {
    return state.get() == State.DETACHED;
  }

  /** Raw bytes of its inputs. */
  long inputBytes() {
    long bytes = 0;
    for (MarcoShuffledRun<K, V> run : inputs) {
      bytes += run.rawLength();
    }
    return bytes;
  }

  /** The shuffle ended: true if it was still running, and its inputs go to the final merge. */
  boolean detach() {
    return state.compareAndSet(State.RUNNING, State.DETACHED);
  }

  String runName() {
    return (isRemerge() ? "marco-remerge-" : "marco-partial-") + number;
  }

  @Override
  public String toString() {
    return isRemerge()
        ? "re-merge #" + number + " (level " + level + ")"
        : "partial invocation #" + number;
  }
}
