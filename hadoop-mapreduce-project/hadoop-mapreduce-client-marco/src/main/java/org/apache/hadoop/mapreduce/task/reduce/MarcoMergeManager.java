/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.VisibleForTesting;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.apache.hadoop.mapreduce.marco.MarcoSettings;
import org.apache.hadoop.mapreduce.marco.PartialReducerSpec;
import org.apache.hadoop.util.Progress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MaRCO's reduce-side merge manager: the facade that Hadoop's fetchers and reduce task talk to.
 * Every committed map output is an arrival. While fetches go on, partial invocations merge the
 * map outputs that arrived since the last one (at most {@code
 * mapreduce.marco.invocation.max.bytes} of them) into one sorted run and stream it through the
 * partial reducer, on low-priority threads (paper sections 3.1 and 3.2). {@link #close} feeds
 * every run to the reducer.
 *
 * <p>The parts, each in a class of its own:
 *
 * <ul>
 *   <li>this facade reserves shuffle memory for fetches ({@link #reserve}), records arrivals, and
 *       runs the final merge ({@link #close});
 *   <li>{@link MarcoRunLedger} knows where every waiting run is, {@link MarcoMemoryBudget} what
 *       memory is reserved, held and pinned;
 *   <li>{@link MarcoWorkStarter} starts what the pure {@link MarcoScheduler} decides from a
 *       snapshot: invocations, re-merges and memory spills;
 *   <li>{@link MarcoPartialThreads} run the merges of partial work with no lock, and {@link
 *       MarcoSpiller} the memory spills at the container's share;
 *   <li>{@link MarcoOutcomeHandler} applies how each merge ended, on the normal-priority
 *       coordinator thread, and detaches at shuffle end what is not worth the wait;
 *   <li>{@link MarcoMergeEvents} is the one sink for counters, timeline and log lines.
 * </ul>
 *
 * <p>Memory: Hadoop's rules stay, but for one: above the shuffle memory limit a fetch goes to
 * disk instead of WAITing for a spill ({@code mapreduce.marco.fetch.to.disk.when.full}); committed
 * in-memory outputs above the merge threshold are spilled to disk (with the old-API combiner, as
 * stock Hadoop does). An invocation opens at most {@code mapreduce.task.io.sort.factor} runs; once
 * that many partial runs exist, a re-merge merges and partially reduces them again (multi-level
 * partial reduce). Invocations take in-memory outputs only within the headroom above the merge
 * threshold ({@link MarcoMemoryBudget#tryPin}), so a fetch waits for a spill, never for partial
 * work. Partial work also backs off while the heap has no room for it ({@link MarcoHeapHold}).
 *
 * <p>Errors: an invocation that fails with an exception, or whose partial reducer breaks its
 * contract, hands its untouched inputs to the final merge; a contract violation also switches
 * partial reduce off for the rest of the attempt. An {@link Error} (out of memory, a linkage
 * error) fails the attempt, as it would under stock Hadoop, and so does a memory spill that
 * fails. A retried attempt runs without partial work. Every counter of running merges is
 * changed exactly once whatever throws, and waiters are always woken.
 *
 * <p>Locks: the state of this facade, the ledger, the budget's reservations, the starter and the
 * outcome handler is guarded by {@code this}. Only threads at the container's share take it:
 * fetchers, the event fetcher, the spill thread, the coordinator and the reduce thread. A
 * partial thread never does.
 */
@InterfaceAudience.Private
public class MarcoMergeManager<K, V> implements MergeManager<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(MarcoMergeManager.class);

  /** Waits re-check their condition at least this often, so a missed wake-up cannot hang. */
  private static final long WAIT_CHECK_MILLIS = 1000;

  /** How long a failed shuffle waits for the spill thread and the coordinator to finish. */
  private static final long FAILURE_CLEANUP_WAIT_MILLIS = 10_000;

  private final TaskAttemptID reduceId;
  private final JobConf conf;
  private final FileSystem localFs;
  private final MapOutputFile mapOutputFile;
  private final CompressionCodec codec;
  private final MarcoSettings settings;
  private final MarcoMemoryBudget memory;
  private final MarcoFinalMerge<K, V> finalMerge;
  private final MarcoTimeline timeline = new MarcoTimeline();

  /** Counters, timeline and log lines of the events below; guarded by this. */
  private final MarcoMergeEvents events;

  private final Counters.Counter mergedMapOutputs;
  private final MarcoPartialThreads<K, V> partialThreads;
  private final MarcoSpiller<K, V> spiller;
  private final MarcoShuffleCpuCgroup shuffleCpuCgroup;

  /** Where every waiting run is; guarded by this. */
  private final MarcoRunLedger<K, V> ledger;

  private final MarcoHeapHold heapHold;

  /** The merges running and what becomes of them; guarded by this. */
  private final MarcoOutcomeHandler<K, V> outcomes;

  /** Starts partial invocations, re-merges and spills; guarded by this. */
  private final MarcoWorkStarter<K, V> starter;

  /**
   * {@code mapreduce.marco.fetch.to.disk.when.full}, where the job keeps no map output in memory
   * for the reducer ({@code mapreduce.reduce.input.buffer.percent} 0, Hadoop's default). A job
   * that keeps some asks for map outputs to reach the reducer without a disk write and read:
   * there a fetch that finds memory full waits for the spill, as in Hadoop, and its map output
   * may then stay in memory.
   */
  private final boolean fetchToDiskWhenFull;

  private int arrivals;

  /** Whether an invocation would end after the shuffle; guarded by this. */
  private final MarcoFinishForecast forecast;

  /** Every map of the job has completed: the rest of the shuffle only waits for the network. */
  private boolean mapsComplete;

  private long shuffleEndMillis;

  /** What fetchers waited to enter this manager, below the millisecond counted so far. */
  private long fetcherWaitNanos;

  /**
   * @param partialReducer the job's partial reducer, or null for partial sort only
   * @param combinerClass the job's old-API combiner (Hadoop applies it to memory spills), or null
   */
  @SuppressWarnings("rawtypes")
  public MarcoMergeManager(
      TaskAttemptID reduceId,
      JobConf conf,
      FileSystem localFs,
      MapOutputFile mapOutputFile,
      CompressionCodec codec,
      Reporter reporter,
      ExceptionReporter exceptionReporter,
      MarcoSettings settings,
      PartialReducerSpec partialReducer,
      Class<? extends org.apache.hadoop.mapred.Reducer> combinerClass,
      Counters.Counter spilledRecords,
      Counters.Counter mergedMapOutputs,
      Progress mergePhase) {
    this.reduceId = reduceId;
    this.events = new MarcoMergeEvents(reduceId, reporter, timeline);
    this.conf = conf;
    this.localFs = localFs;
    this.mapOutputFile = mapOutputFile;
    this.codec = codec;
    this.settings = settings;
    this.memory = new MarcoMemoryBudget(conf);
    this.ledger = new MarcoRunLedger<>(memory.maxInMemoryForReduce());
    this.fetchToDiskWhenFull =
        settings.isFetchToDiskWhenFull() && memory.maxInMemoryForReduce() == 0;
    this.heapHold =
        new MarcoHeapHold(
            MarcoHeapGuard.forThisJvm(settings.getPartialHeapLimit(), memory::stillToReserve),
            events);
    MarcoGroupedReducerRunner<K, V> partial =
        partialReducer == null || !settings.isPartialReduceEnabled()
            ? null
            : MarcoGroupedReducerRunner.forPartialReducer(
                conf, partialReducer.getReducerClass(), partialReducer.isNewApi(), reduceId);
    // An earlier attempt may have failed because of partial work (out of memory, a broken
    // partial reducer): a retry shuffles as stock Hadoop does, so that it can succeed.
    boolean partialWorkOff = reduceId.getId() > 0;
    if (partialWorkOff) {
      events.count(MarcoCounter.RETRIES_WITHOUT_PARTIAL_WORK, 1);
      LOG.info(
          "MaRCO: {} is attempt {} of its task; a retried attempt runs without partial invocations",
          reduceId,
          reduceId.getId());
    }
    this.mergedMapOutputs = mergedMapOutputs;
    MarcoRunMerger<K, V> runMerger =
        new MarcoRunMerger<>(conf, localFs, mapOutputFile, codec, reduceId, reporter);
    this.finalMerge =
        new MarcoFinalMerge<>(
            conf,
            localFs,
            codec,
            reduceId,
            reporter,
            runMerger,
            memory.maxInMemoryForReduce(),
            spilledRecords,
            mergePhase);
    MarcoAdaptiveControl adaptive = new MarcoAdaptiveControl(settings);
    this.forecast = new MarcoFinishForecast(conf.getNumMapTasks());
    // The partial threads are born in the shuffle cgroup (and move on from there into the
    // partial cgroup). Then this thread, which goes on to start Hadoop's event fetcher and
    // fetchers, leaves it, so that they are born at the container's share.
    this.shuffleCpuCgroup =
        MarcoShuffleCpuCgroup.join(settings.effectiveShuffleCpuCgroup(), reduceId);
    this.partialThreads =
        new MarcoPartialThreads<>(
            reduceId, settings, runMerger, heapHold::guard, this::handOff, events);
    shuffleCpuCgroup.keepCurrentThreadAtContainerShare();
    // The coordinator and the spill thread are born here, at the container's share.
    MarcoOutcomeHandler.Parts<K, V> parts = new MarcoOutcomeHandler.Parts<>();
    parts.lock = this;
    parts.ledger = ledger;
    parts.memory = memory;
    parts.events = events;
    parts.settings = settings;
    parts.adaptive = adaptive;
    parts.heapHold = heapHold;
    parts.forecast = forecast;
    parts.reporter = reporter;
    parts.exceptionReporter = exceptionReporter;
    parts.mergedMapOutputs = mergedMapOutputs;
    parts.spilledRecords = spilledRecords;
    parts.partialReducerName = partial == null ? "" : partial.reducerName();
    parts.spills = this::startSpill;
    parts.reschedule = this::schedule;
    parts.shuffleEndMillis = () -> shuffleEndMillis;
    this.outcomes = new MarcoOutcomeHandler<>(reduceId, parts);
    this.spiller =
        new MarcoSpiller<>(
            reduceId,
            this,
            outcomes::spillEnded,
            exceptionReporter,
            runMerger,
            combinerClass == null
                ? MarcoRecordReducer.copy()
                : MarcoGroupedReducerRunner.forCombiner(conf, combinerClass, reduceId),
            shuffleCpuCgroup);
    // No merge opens more runs at once than mapreduce.task.io.sort.factor.
    MarcoScheduler scheduler =
        new MarcoScheduler(
            new MarcoInvocationPolicy(settings, conf.getNumMapTasks()),
            settings.getPartialThreads(),
            Math.max(
                2, conf.getInt(MRJobConfig.IO_SORT_FACTOR, MRJobConfig.DEFAULT_IO_SORT_FACTOR)),
            settings.effectiveInvocationMaxBytes());
    this.starter =
        new MarcoWorkStarter<>(
            scheduler,
            ledger,
            memory,
            heapHold,
            forecast,
            partialThreads,
            this::startSpill,
            outcomes,
            adaptive,
            events,
            settings,
            conf.getNumMapTasks(),
            partial,
            partialWorkOff);
    LOG.info(
        "MaRCO merge manager for {}: {}, maps={}, partial reducer={}",
        reduceId,
        memory,
        conf.getNumMapTasks(),
        (partial == null
            ? "none (partial sort only)"
            : partialReducer.getReducerClass().getName()));
    boolean lowShare =
        settings.effectivePartialNice() > 0 || !settings.effectivePartialCpuCgroup().isEmpty();
    String safepoints = lowShare ? MarcoSafepointCheck.problem() : null;
    if (safepoints != null) {
      LOG.warn("MaRCO: {}", safepoints);
    }
  }

  /**
   * Blocks while memory is over the limit and a memory spill is running, which frees some.
   * Partial invocations are not waited for: with their pins held to the headroom above the merge
   * threshold, memory over the limit with no spill running is held by fetches in flight, and the
   * fetcher retries, as with Hadoop's MergeManagerImpl when no merge is running. With {@code
   * mapreduce.marco.fetch.to.disk.when.full} a fetch never waits: {@link #reserve} sends it to
   * disk instead.
   */
  @Override
  public void waitForResource() throws InterruptedException {
    long asked = System.nanoTime();
    synchronized (this) {
      fetcherEntered(asked);
      if (fetchToDiskWhenFull || !fetchWaitsForSpill()) {
        return;
      }
      long start = System.currentTimeMillis();
      try {
        do {
          wait(WAIT_CHECK_MILLIS);
        } while (fetchWaitsForSpill() && outcomes.fatalFailure() == null);
      } finally {
        events.count(MarcoCounter.FETCH_WAIT_MILLIS, System.currentTimeMillis() - start);
      }
    }
  }

  /**
   * Adds the time a fetcher waited to enter this manager, since {@code askedNanos}, to
   * MERGE_MANAGER_WAIT_MILLIS; called first thing inside the lock. Only threads at the
   * container's share take the lock (fetchers, the event fetcher, the spill thread, the
   * coordinator and the reduce thread), so this time is never spent waiting for partial work.
   */
  private void fetcherEntered(long askedNanos) {
    fetcherWaitNanos += System.nanoTime() - askedNanos;
    long millis = fetcherWaitNanos / 1_000_000;
    if (millis > 0) {
      events.count(MarcoCounter.MERGE_MANAGER_WAIT_MILLIS, millis);
      fetcherWaitNanos -= millis * 1_000_000;
    }
  }

  private boolean fetchWaitsForSpill() {
    return memory.overLimit() && spiller.running() > 0;
  }

  @Override
  public MapOutput<K, V> reserve(TaskAttemptID mapId, long requestedSize, int fetcher)
      throws IOException {
    long asked = System.nanoTime();
    synchronized (this) {
      fetcherEntered(asked);
      return reserveEntered(mapId, requestedSize, fetcher);
    }
  }

  private MapOutput<K, V> reserveEntered(TaskAttemptID mapId, long requestedSize, int fetcher)
      throws IOException {
    if (memory.tooLargeForMemory(requestedSize)) {
      LOG.info(
          "{}: shuffling to disk since {} bytes is more than the single-shuffle limit",
          mapId,
          requestedSize);
      return toDisk(mapId, requestedSize, fetcher);
    }
    if (!memory.tryReserve(requestedSize)) {
      if (fetchToDiskWhenFull) {
        // While the maps run, a spill waits for CPU behind them, and a fetcher waiting for it
        // leaves the throttled link idle: that time comes back as exposed shuffle at the end.
        // Writing to the page cache costs the fetch little, and the run on disk is an input for
        // partial invocations like any other.
        events.count(MarcoCounter.FETCHES_TO_DISK, 1);
        LOG.debug(
            "{}: shuffling to disk since used memory {} is above the limit {}",
            mapId,
            memory.used(),
            memory.limit());
        return toDisk(mapId, requestedSize, fetcher);
      }
      events.count(MarcoCounter.FETCH_STALLS, 1);
      LOG.debug(
          "{}: stalling shuffle since used memory {} ({} pinned by partial invocations) is above"
              + " the limit {}",
          mapId,
          memory.used(),
          memory.pinned(),
          memory.limit());
      return null;
    }
    return new MarcoInMemoryMapOutput<>(mapId, (int) requestedSize, this, conf, codec);
  }

  private MapOutput<K, V> toDisk(TaskAttemptID mapId, long size, int fetcher) throws IOException {
    return new MarcoOnDiskMapOutput<>(
        mapId,
        size,
        this,
        conf,
        localFs,
        mapOutputFile.getInputFileForWrite(mapId.getTaskID(), size),
        fetcher);
  }

  void commitInMemory(TaskAttemptID mapId, byte[] data) {
    long asked = System.nanoTime();
    synchronized (this) {
      fetcherEntered(asked);
      arrive(new MarcoInMemoryRun<>(mapId.toString(), conf, data, memory));
    }
  }

  void commitOnDisk(TaskAttemptID mapId, Path path, long rawLength) {
    long asked = System.nanoTime();
    synchronized (this) {
      fetcherEntered(asked);
      arrive(
          new MarcoOnDiskRun<>(mapId.toString(), 1, true, conf, localFs, path, codec, rawLength));
    }
  }

  void abortInMemory(long size) {
    long asked = System.nanoTime();
    synchronized (this) {
      fetcherEntered(asked);
      memory.release(size);
      notifyAll();
    }
  }

  private void arrive(MarcoShuffledRun<K, V> run) {
    ledger.arrive(run);
    arrivals++;
    events.arrival(run, arrivals);
    forecast.arrived(arrivals, System.currentTimeMillis());
    if (arrivals == conf.getNumMapTasks()) {
      // The shuffle's work is done: what follows (the fetchers' shutdown, the status update to the
      // AM, the final merge) waits on threads that must not run at the shuffle cgroup's low share.
      leaveShuffleCpuCgroup();
    }
    schedule();
  }

  /**
   * Every map of the job has completed ({@code true}), or one whose output was lost runs again:
   * from the map-completion events (see {@link MarcoMapCompletionWatch}).
   */
  synchronized void mapsCompleted(boolean complete) {
    if (complete == mapsComplete || shuffleEndMillis != 0) {
      return;
    }
    mapsComplete = complete;
    events.mapsCompleted(
        complete, arrivals, conf.getNumMapTasks(), settings.effectiveStartWhenMapsComplete());
    schedule();
  }

  /**
   * A partial thread's hand-off of its outcome; takes no lock ({@link MarcoOutcomeHandler}). The
   * partial threads are made before the outcome handler, whose coordinator thread must be born
   * outside the shuffle cgroup, so they reach it through this method.
   */
  private void handOff(MarcoInvocation<K, V> invocation) {
    outcomes.handOff(invocation);
  }

  /** Starts what the scheduler decides now; called with the lock held after every change. */
  private void schedule() {
    starter.schedule(arrivals, mapsComplete, shuffleEndMillis != 0);
  }

  /**
   * Spills in-memory runs to one disk run ({@link MarcoSpiller}).
   *
   * @param toFinalMerge the spilled run skips partial invocations (inputs of a failed one)
   */
  private void startSpill(List<MarcoShuffledRun<K, V>> inputs, boolean toFinalMerge) {
    int number;
    try {
      number = spiller.start(inputs, toFinalMerge);
    } catch (RuntimeException | Error e) {
      ledger.giveBack(inputs);
      throw e;
    }
    events.spillStarted(number, inputs);
  }

  @Override
  public RawKeyValueIterator close() throws Throwable {
    long shuffleEnd = System.currentTimeMillis();
    leaveShuffleCpuCgroup();
    List<MarcoShuffledRun<K, V>> runs = new ArrayList<>();
    int partialRunCount;
    boolean finishRunning;
    synchronized (this) {
      shuffleEndMillis = shuffleEnd;
      boolean abandonAll = settings.effectiveAbandonAtShuffleEnd() && outcomes.running() > 0;
      events.shuffleEnded(arrivals, outcomes.running(), abandonAll);
      outcomes.detachRunning(abandonAll);
      finishRunning = outcomes.running() > 0;
    }
    if (finishRunning) {
      // No invocation starts from now on, and the final merge waits for those running: they
      // finish at the container's share, not at the one that let the maps go first.
      int raised = partialThreads.raiseToContainerShare();
      if (raised > 0) {
        events.partialThreadsRaised(raised);
      }
    }
    try {
      synchronized (this) {
        awaitIdle();
        partialRunCount = ledger.partialRunCount();
        runs.addAll(ledger.takeAll());
      }
    } catch (Throwable t) {
      releaseAfterFailure();
      throw t;
    } finally {
      shutdownThreads();
      // Invocations detached at shuffle end still ask it; its last reading stands.
      heapHold.close();
    }
    for (MarcoShuffledRun<K, V> run : runs) {
      if (run.fetched()) {
        mergedMapOutputs.increment(1);
      }
    }
    long mergeStart = System.currentTimeMillis();
    events.finalMergeStarted(runs.size(), partialRunCount);
    RawKeyValueIterator merged =
        new MarcoReducerInput(finalMerge.merge(runs), partialThreads.detachedFailure());
    long end = System.currentTimeMillis();
    events.finalMergeEnded(
        arrivals,
        starter.invocationsStarted(),
        starter.remergesStarted(),
        spiller.started(),
        mergeStart - shuffleEnd,
        end - mergeStart);
    timeline.write(conf, reduceId, settings.getTimelineDir());
    return merged;
  }

  /**
   * A shuffle that fails at its end leaves nothing behind: running invocations are detached (each
   * removes what it wrote and ends its reads), the spill thread and the coordinator get a bounded
   * time to finish what they hold, and every run left is released, its file removed once no merge
   * reads it. Called without the lock.
   */
  private void releaseAfterFailure() throws InterruptedException {
    synchronized (this) {
      outcomes.detachRunning(true);
    }
    shutdownThreads();
    spiller.awaitTermination(FAILURE_CLEANUP_WAIT_MILLIS);
    outcomes.awaitTermination(FAILURE_CLEANUP_WAIT_MILLIS);
    List<MarcoShuffledRun<K, V>> left;
    synchronized (this) {
      left = ledger.takeEveryLiveRun();
    }
    for (MarcoShuffledRun<K, V> run : left) {
      try {
        run.release();
      } catch (IOException e) {
        LOG.warn("MaRCO: could not remove run {}; YARN removes it with the container", run, e);
      }
    }
  }

  /**
   * Called once the reducer has read its input: the final merge lets go of the runs it kept for
   * a detached invocation that was still reading them (the last holder removes each).
   */
  void afterReduce() {
    finalMerge.releaseKeptRuns();
  }

  /**
   * Waits, at most {@code millis}, for the timeline copy that {@link #close} started (see {@link
   * MarcoTimeline#awaitCopy}).
   */
  void awaitTimelineCopy(long millis) throws InterruptedException {
    timeline.awaitCopy(millis);
  }

  /**
   * Blocks until no partial invocation or memory spill is running.
   *
   * @throws IOException at once if a merge failed the attempt (the shuffle reports it too)
   */
  synchronized void awaitIdle() throws IOException, InterruptedException {
    while (true) {
      outcomes.applyFinishedOnes();
      if (outcomes.fatalFailure() != null) {
        throw new IOException("MaRCO: a merge of " + reduceId + " failed", outcomes.fatalFailure());
      }
      if (shuffleEndMillis != 0) {
        // The final merge waits: what is no longer worth the wait goes to it now.
        outcomes.detachRunning(false);
      }
      if (mergesRunning() == 0) {
        return;
      }
      wait(WAIT_CHECK_MILLIS);
    }
  }

  /**
   * Lets the partial threads, the spill thread and the coordinator finish what they were handed;
   * none starts new work after.
   */
  private void shutdownThreads() {
    partialThreads.shutdown();
    spiller.shutdown();
    outcomes.shutdown();
  }

  /**
   * Stops the engine's threads and waits, at most {@code millis} for each, for them to end;
   * returns whether they all have. For tests, which remove the local directories after a
   * shuffle, where an invocation detached at shuffle end (it stops on its own, see {@link
   * MarcoOutcomeHandler#detachRunning}) could otherwise still write. A task needs none of it: YARN
   * removes the container's directories once its JVM has exited.
   */
  @VisibleForTesting
  boolean stopThreads(long millis) throws InterruptedException {
    shutdownThreads();
    boolean partialEnded = partialThreads.awaitTermination(millis);
    boolean spillEnded = spiller.awaitTermination(millis);
    boolean coordinatorEnded = outcomes.awaitTermination(millis);
    return partialEnded && spillEnded && coordinatorEnded && timeline.awaitCopy(millis);
  }

  /** Merges (invocations and spills) running now; never negative. */
  @VisibleForTesting
  synchronized int mergesRunning() {
    return outcomes.running() + spiller.running();
  }

  /** Lets a test say when the heap has room for partial work. */
  @VisibleForTesting
  synchronized void setHeapGuard(MarcoHeapGuard guard) {
    heapHold.replace(guard);
  }

  /** Lets a test make a bookkeeping step throw. */
  @VisibleForTesting
  void setMergeSteps(MarcoMergeSteps steps) {
    outcomes.setMergeSteps(steps);
  }

  /**
   * Moves the JVM back to its own cpu cgroup (a no-op the second time): when the last map output
   * arrives, at shuffle end, and from {@link MarcoShuffle#run} when the shuffle fails before
   * {@link #close}.
   */
  void leaveShuffleCpuCgroup() {
    shuffleCpuCgroup.leave();
  }

  /** In-memory bytes pinned by running invocations (for tests and diagnostics). */
  long pinnedMemory() {
    return memory.pinned();
  }

  /** Shuffle memory reserved or held, pins included (for tests and diagnostics). */
  synchronized long usedMemory() {
    return memory.used();
  }

  /**
   * The events recorded so far (for tests and diagnostics). Synchronized because a partial
   * thread can start its reducer before the scheduler, still holding this lock, records the
   * invocation's start: a reader that saw the reducer start then sees that event too.
   */
  synchronized List<String> timelineEvents() {
    return events.timelineEvents();
  }
}
