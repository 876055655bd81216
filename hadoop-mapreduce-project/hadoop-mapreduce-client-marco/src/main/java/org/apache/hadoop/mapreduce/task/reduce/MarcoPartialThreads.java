/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.marco.MarcoSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The low-priority partial threads and the work they do: merge an invocation's inputs, then hand
 * the outcome over, or, once the invocation was detached at shuffle end, clean up after it. None
 * of it takes a lock: a partial thread may be left off the CPU for seconds, and a lock it held
 * could hold up every fetcher. The merge reads inputs only it holds, and the hand-off and the
 * detached end are decided by one atomic state change ({@link MarcoInvocation#finish}).
 */
final class MarcoPartialThreads<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(MarcoPartialThreads.class);
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final MarcoCpuShareThreadFactory factory;
  private final ThreadPoolExecutor pool;
  private final MarcoRunMerger<K, V> runMerger;
  private final Supplier<MarcoHeapGuard> heapGuard;
  private final Consumer<MarcoInvocation<K, V>> handOff;
  private final MarcoMergeEvents events;

  /** The first Error of an invocation detached at shuffle end: the reducer's input throws it. */
  private final AtomicReference<Throwable> detachedFailure = new AtomicReference<>();

  /**
   * Starts {@code mapreduce.marco.partial.threads} threads at the partial work's share, from the
   * calling thread's cpu cgroup.
   *
   * @param heapGuard the heap guard in force, asked when a merge starts
   * @param handOff takes a finished invocation's outcome; called on a partial thread, so it must
   *     not block or take a lock
   */
  MarcoPartialThreads(
      TaskAttemptID reduceId,
      MarcoSettings settings,
      MarcoRunMerger<K, V> runMerger,
      Supplier<MarcoHeapGuard> heapGuard,
      Consumer<MarcoInvocation<K, V>> handOff,
      MarcoMergeEvents events) {
    this.factory =
        new MarcoCpuShareThreadFactory(
            "MaRCO partial " + reduceId,
            settings.effectivePartialNice(),
            settings.effectivePartialCpuCgroup());
    this.pool =
        new ThreadPoolExecutor(
            settings.getPartialThreads(),
            settings.getPartialThreads(),
            0L,
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(),
            factory);
    pool.prestartAllCoreThreads();
    this.runMerger = runMerger;
    this.heapGuard = heapGuard;
    this.handOff = handOff;
    this.events = events;
  }

  /**
   * Hands an invocation, whose inputs' reads have begun, to a partial thread. Throws what the
   * pool throws (shut down, no thread could be made): then no thread took it.
   */
  void execute(MarcoInvocation<K, V> invocation) {
    pool.execute(() -> run(invocation));
  }

  /**
   * The work of one invocation. The outcome is handed over ({@link #handOff}), or, for an
   * invocation detached at shuffle end, discarded here.
   */
  private void run(MarcoInvocation<K, V> invocation) {
    long start = System.currentTimeMillis();
    long cpuStart = cpuNanos();
    MarcoRunMerger.Result<K, V> result = null;
    Throwable failure = null;
    MarcoHeapGuard heap = heapGuard.get();
    try {
      result =
          runMerger.merge(
              invocation.runName(),
              invocation.inputs,
              invocation.function == null ? MarcoRecordReducer.copy() : invocation.function,
              invocation.injectFailure,
              () -> invocation.detached() || heap.overLimit(),
              invocation.progress);
    } catch (Throwable t) {
      failure =
          MarcoErrors.isHeapExhaustion(t)
              ? new MarcoOutOfHeapException((OutOfMemoryError) t)
              : MarcoErrors.keepInterrupt(t);
    } finally {
      endReads(invocation.inputs);
    }
    long end = System.currentTimeMillis();
    long cpuEnd = cpuNanos();
    long cpuMillis = cpuStart < 0 || cpuEnd < 0 ? end - start : (cpuEnd - cpuStart) / 1_000_000;
    if (invocation.finish(result, failure, start, end, cpuMillis)) {
      handOff.accept(invocation);
    } else {
      discardDetached(invocation, result, failure);
    }
  }

  /** This thread's CPU time in nanoseconds, or -1 where the JVM does not measure it. */
  private static long cpuNanos() {
    return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : -1;
  }

  /** Ends the reads of a merge's inputs; a run released meanwhile goes with the last read. */
  static <K, V> void endReads(List<MarcoShuffledRun<K, V>> inputs) {
    for (MarcoShuffledRun<K, V> run : inputs) {
      try {
        run.endRead();
      } catch (IOException e) {
        LOG.warn("MaRCO: could not remove run {}; YARN removes it with the container", run, e);
      }
    }
  }

  /**
   * The end of a detached invocation: nothing of it counts, and its run, if any, is removed (no
   * one else ever saw it). Its inputs belong to the final merge, and the reads it ended let the
   * last holder remove them. An {@link Error} fails the attempt through the reducer's input
   * ({@link #detachedFailure}), as any other merge's would; an exception only ends work that no
   * one waits for.
   */
  private void discardDetached(
      MarcoInvocation<K, V> invocation, MarcoRunMerger.Result<K, V> result, Throwable failure) {
    if (result != null) {
      try {
        result.run.release();
      } catch (IOException e) {
        LOG.warn(
            "MaRCO: could not remove the run of abandoned {}; YARN removes it with the container",
            invocation,
            e);
      }
    }
    if (failure instanceof Error) {
      detachedFailure.compareAndSet(null, failure);
    }
    events.detachedEnded(invocation, failure);
  }

  /** The first Error of an invocation detached at shuffle end, for the reducer's input. */
  AtomicReference<Throwable> detachedFailure() {
    return detachedFailure;
  }

  /**
   * Brings the partial threads back to the container's share, for work the final merge waits
   * for.
   *
   * @return how many threads were raised
   */
  int raiseToContainerShare() {
    return factory.raiseToContainerShare();
  }

  /** Lets the invocations handed over finish; starts no thread after. */
  void shutdown() {
    pool.shutdown();
  }

  /**
   * Waits at most {@code millis} for the threads to end after {@link #shutdown}, detached work
   * included; returns whether they all have.
   */
  boolean awaitTermination(long millis) throws InterruptedException {
    return pool.awaitTermination(millis, TimeUnit.MILLISECONDS);
  }
}
