/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.apache.hadoop.mapreduce.marco.MarcoSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What becomes of the merges that the merge manager started: the partial invocations and
 * re-merges still running, and the end of each, applied at normal priority. A partial thread
 * only posts its outcome ({@link #handOff}); the {@link MarcoCoordinator} thread, at the
 * container's share, applies it under the merge manager's lock: a commit makes a partial run and
 * releases the inputs, a back-off for the heap gives the inputs back, a failure hands them to the
 * final merge (and may fail the attempt), and at shuffle end an invocation not worth the wait is
 * detached and its inputs go to the final merge. Memory spills end here too ({@link #spillEnded}).
 *
 * <p>Every method but {@link #handOff} is called with the merge manager's lock held, or takes
 * it; every change of state wakes the lock's waiters.
 */
final class MarcoOutcomeHandler<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(MarcoOutcomeHandler.class);

  /** Starts a memory spill of in-memory runs ({@link MarcoMergeManager}'s). */
  interface SpillStarter<K, V> {
    void start(List<MarcoShuffledRun<K, V>> runs, boolean toFinalMerge);
  }

  /** What the handler works on; all of it guarded by {@link #lock} but the counters. */
  static final class Parts<K, V> {
    Object lock;
    MarcoRunLedger<K, V> ledger;
    MarcoMemoryBudget memory;
    MarcoMergeEvents events;
    MarcoSettings settings;
    MarcoAdaptiveControl adaptive;
    MarcoHeapHold heapHold;
    MarcoFinishForecast forecast;
    Reporter reporter;
    ExceptionReporter exceptionReporter;
    Counters.Counter mergedMapOutputs;
    Counters.Counter spilledRecords;

    /** The partial reducer's class name for log lines, or empty. */
    String partialReducerName;

    SpillStarter<K, V> spills;

    /** Asks the scheduler what to start next, after a change of state. */
    Runnable reschedule;

    /** When the shuffle ended, or 0 while it goes on. */
    LongSupplier shuffleEndMillis;
  }

  private final Parts<K, V> p;
  private final MarcoCoordinator coordinator;

  /**
   * Partial invocations and re-merges whose thread has not yet ended and that were not detached
   * at shuffle end; its size is the number running.
   */
  private final List<MarcoInvocation<K, V>> running = new ArrayList<>();

  private boolean contractBroken;

  private boolean ranOutOfHeap;

  /** The first error that fails the attempt. */
  private Throwable fatalFailure;

  private MarcoMergeSteps steps = MarcoMergeSteps.NONE;

  MarcoOutcomeHandler(TaskAttemptID reduceId, Parts<K, V> parts) {
    this.p = parts;
    this.coordinator =
        new MarcoCoordinator(
            new MarcoCpuShareThreadFactory("MaRCO coordinator " + reduceId, 0, ""),
            this::coordinatorFailed);
  }

  /** Merges of partial work running now. */
  int running() {
    return running.size();
  }

  /**
   * Whether partial reduce is off for the rest of the attempt: the partial reducer broke its
   * contract, or a merge of partial work ran the heap out.
   */
  boolean partialReduceRuledOut() {
    return contractBroken || ranOutOfHeap;
  }

  /** The first error that fails the attempt, or null. */
  Throwable fatalFailure() {
    return fatalFailure;
  }

  /** Records {@code failure} as failing the attempt unless an earlier one does already. */
  void fail(Throwable failure) {
    fatalFailure = fatalFailure == null ? failure : fatalFailure;
    p.lock.notifyAll();
  }

  /** A partial thread took {@code invocation}: its outcome is now awaited. */
  void started(MarcoInvocation<K, V> invocation) {
    invocation.startMillis = System.currentTimeMillis();
    running.add(invocation);
  }

  /**
   * Hands a finished invocation's outcome to the coordinator; on its partial thread, with no lock.
   * A thread that stops here delays neither the coordinator nor a waiting final merge, which
   * applies a finished outcome itself ({@link #applyFinishedOnes}).
   */
  void handOff(MarcoInvocation<K, V> invocation) {
    steps.at(MarcoMergeSteps.Step.OUTCOME_HANDOFF);
    coordinator.post(() -> applyOutcome(invocation));
  }

  /** Applies the outcome of a finished invocation, on the coordinator thread. */
  private void applyOutcome(MarcoInvocation<K, V> invocation) {
    Throwable fatal;
    synchronized (p.lock) {
      fatal = applyFinished(invocation);
    }
    if (fatal != null) {
      p.exceptionReporter.reportException(fatal);
    }
  }

  /**
   * Applies the outcome of every running invocation whose thread has finished but not handed it
   * over yet: a thread at nice 19 may wait long for the CPU, and the final merge does not wait
   * for its hand-off.
   */
  void applyFinishedOnes() {
    for (MarcoInvocation<K, V> invocation : new ArrayList<>(running)) {
      if (invocation.finished()) {
        applyFinished(invocation);
      }
    }
  }

  /**
   * Applies a finished invocation's outcome unless it was applied already (by the coordinator,
   * or by a final merge that would not wait for the coordinator).
   *
   * @return what fails the attempt, or null
   */
  private Throwable applyFinished(MarcoInvocation<K, V> invocation) {
    if (!invocation.claimOutcome()) {
      return null;
    }
    running.remove(invocation);
    if (invocation.result() != null) {
      p.ledger.made(invocation.result().run);
    }
    long millis = invocation.workMillis();
    Throwable failure = invocation.failure();
    Throwable fatal = null;
    try {
      // Before anything that may throw: a pin left behind would shrink the headroom for good.
      p.memory.unpin(MarcoShuffledRun.memoryBytesOf(invocation.inputs));
      long shuffleEnd = p.shuffleEndMillis.getAsLong();
      long overlapped =
          shuffleEnd == 0 ? millis : Math.max(0, shuffleEnd - invocation.workStartMillis());
      p.events.count(MarcoCounter.OVERLAPPED_MILLIS, overlapped);
      if (failure == null) {
        commit(invocation, invocation.result(), millis);
      } else if (failure instanceof MarcoAbandonedMergeException) {
        giveBack(invocation);
        p.events.backedOff(invocation, millis, p.heapHold.guard());
      } else if (failure instanceof MarcoOutOfHeapException) {
        ranOutOfHeap = true;
        giveBack(invocation);
        p.events.ranOutOfHeap(invocation, millis, failure.getCause(), p.partialReducerName);
      } else {
        fatal = failInvocation(invocation, failure);
      }
      p.reschedule.run();
    } catch (RuntimeException | Error e) {
      fatal = fatal == null ? e : fatal;
    } finally {
      if (fatal != null) {
        fatalFailure = fatalFailure == null ? fatal : fatalFailure;
      }
      p.lock.notifyAll();
    }
    return fatal;
  }

  /** Commits a merge of partial work: its run becomes a partial run, then its inputs go. */
  private void commit(
      MarcoInvocation<K, V> invocation, MarcoRunMerger.Result<K, V> result, long millis) {
    steps.at(MarcoMergeSteps.Step.INVOCATION_COMMIT);
    p.ledger.addPartialRun(new MarcoPartialRun<>(result.run, invocation.level));
    releaseAll(invocation.inputs);
    result.userCounters.addTo(p.reporter);
    p.spilledRecords.increment(result.diskRecordsRead);
    p.events.committed(invocation, result, millis);
    if (!invocation.isRemerge()) {
      p.forecast.invocationFinished(invocation.inputBytes(), invocation.cpuMillis());
    }
    if (invocation.function != null
        && !invocation.isRemerge()
        && p.adaptive.record(result.inputRecords, result.outputRecords)) {
      p.events.adaptiveDisabled(invocation.number, p.settings.getAdaptiveRatioThreshold());
    }
  }

  /**
   * An invocation stopped because the heap had no room, or ran it out: its inputs (only read,
   * never changed) wait again, map outputs for a later invocation or a memory spill, partial runs
   * for a later re-merge, and partial work is held back until the heap has room again.
   */
  private void giveBack(MarcoInvocation<K, V> invocation) {
    if (invocation.isRemerge()) {
      p.ledger.givePartialRunsBack(invocation.partialInputs);
    } else {
      p.ledger.giveBack(invocation.inputs);
    }
    p.heapHold.heldBackByMerge();
  }

  /**
   * Hands a failed invocation's inputs (only read, never changed) to the final merge.
   *
   * @return what must fail the attempt, or null: an {@link Error}, or a contract violation when
   *     {@code mapreduce.marco.partial.contract.strict} is set
   */
  private Throwable failInvocation(MarcoInvocation<K, V> invocation, Throwable failure) {
    boolean violation = failure instanceof MarcoContractViolationException;
    boolean failsAttempt =
        MarcoErrors.failsAttempt(failure) || violation && p.settings.isPartialContractStrict();
    // Those in memory are spilled first, or their memory would stay taken with no merge left to
    // free it; an attempt that fails anyway skips that, and so does a shuffle that is over.
    boolean spill = !failsAttempt && p.shuffleEndMillis.getAsLong() == 0;
    List<MarcoShuffledRun<K, V>> inMemory = new ArrayList<>();
    for (MarcoShuffledRun<K, V> run : invocation.inputs) {
      if (run.inMemory() && spill) {
        inMemory.add(run);
      } else {
        p.ledger.toFinalMerge(run);
      }
    }
    if (!inMemory.isEmpty()) {
      p.spills.start(inMemory, true);
    }
    boolean firstViolation = violation && !failsAttempt && !contractBroken;
    contractBroken |= firstViolation;
    p.events.failed(invocation, failure, failsAttempt, firstViolation, p.partialReducerName);
    return failsAttempt ? failure : null;
  }

  /**
   * Abandons, at shuffle end, each running invocation not worth waiting for ({@link
   * MarcoMergeProgress#worthWaitingFor}; none with {@code finish.all.at.shuffle.end}), or every
   * one with {@code all}, without waiting for it. The final merge waits only for work that saves
   * more than the wait costs: a partial reducer too expensive for what it keeps (or that has
   * hardly started) would otherwise make the job slower than stock. A partial thread runs at low
   * priority, and on a node busy with other reduces it may take seconds to reach the next record
   * and see that it is abandoned: the final merge does not wait for that either. Its inputs are
   * only read, so the final merge takes them now while the detached thread stops on its own and
   * removes what it wrote ({@link MarcoPartialThreads}). Called at shuffle end and again while
   * the final merge waits, as the invocations' progress changes the answer.
   */
  void detachRunning(boolean all) {
    if (!all && p.settings.effectiveFinishAllAtShuffleEnd()) {
      return;
    }
    long now = System.currentTimeMillis();
    long shuffleEnd = p.shuffleEndMillis.getAsLong();
    long overlapEnd = shuffleEnd == 0 ? now : shuffleEnd;
    for (Iterator<MarcoInvocation<K, V>> it = running.iterator(); it.hasNext(); ) {
      MarcoInvocation<K, V> invocation = it.next();
      boolean worthWaitingFor = invocation.progress.worthWaitingFor(invocation.inputBytes());
      if (!all && worthWaitingFor || !invocation.detach()) {
        continue; // waited for; or it has finished: its outcome is posted, and is applied now
      }
      it.remove();
      p.memory.unpin(MarcoShuffledRun.memoryBytesOf(invocation.inputs));
      p.events.count(
          MarcoCounter.OVERLAPPED_MILLIS, Math.max(0, overlapEnd - invocation.startMillis));
      // The shuffle is over: the final merge takes the inputs as they are, memory included.
      p.ledger.toFinalMerge(invocation.inputs);
      p.events.abandoned(invocation, now - invocation.startMillis, all);
    }
  }

  /** Applies a memory spill's end ({@link MarcoSpiller.Committer}); called with the lock held. */
  Throwable spillEnded(
      int number,
      List<MarcoShuffledRun<K, V>> inputs,
      boolean toFinalMerge,
      MarcoRunMerger.Result<K, V> result,
      Throwable failure) {
    try {
      if (result != null) {
        p.ledger.made(result.run);
      }
      if (failure == null) {
        steps.at(MarcoMergeSteps.Step.SPILL_COMMIT);
        releaseAll(inputs);
        result.userCounters.addTo(p.reporter);
        if (toFinalMerge) {
          p.ledger.toFinalMerge(result.run);
        } else {
          p.ledger.giveBack(List.of(result.run));
        }
        p.events.spillCommitted(number, inputs, result);
        p.reschedule.run();
      }
    } catch (RuntimeException | Error e) {
      failure = e;
    } finally {
      if (failure != null) {
        fatalFailure = fatalFailure == null ? failure : fatalFailure;
      }
      p.lock.notifyAll();
    }
    return failure;
  }

  /** What an outcome threw past its own handling: it fails the attempt. */
  private void coordinatorFailed(Throwable failure) {
    synchronized (p.lock) {
      fail(failure);
    }
    p.exceptionReporter.reportException(failure);
  }

  private void releaseAll(List<MarcoShuffledRun<K, V>> runs) {
    steps.at(MarcoMergeSteps.Step.RELEASE);
    for (MarcoShuffledRun<K, V> run : runs) {
      if (run.fetched()) {
        p.mergedMapOutputs.increment(1);
      }
      p.ledger.released(run);
      try {
        run.release();
      } catch (IOException e) {
        LOG.warn(
            "MaRCO: could not remove merged run {}; YARN removes it with the container", run, e);
      }
    }
  }

  /** Ends the coordinator once what was posted is applied; it does not wait for that. */
  void shutdown() {
    coordinator.shutdown();
  }

  /**
   * Waits at most {@code millis} for the coordinator to end after {@link #shutdown}; returns
   * whether it has.
   */
  boolean awaitTermination(long millis) throws InterruptedException {
    return coordinator.awaitTermination(millis);
  }

  /** Lets a test make a bookkeeping step throw. */
  void setMergeSteps(MarcoMergeSteps steps) {
    this.steps = steps;
  }
}
