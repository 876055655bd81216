/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
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
 * MaRCO's reduce-side merge manager. Every committed map output is an arrival. While fetches go
 * on, partial invocations merge the map outputs that arrived since the last one (at most {@code
 * mapreduce.marco.invocation.max.bytes} of them) into one sorted run and stream it through the
 * partial reducer, on low-priority threads (paper sections 3.1 and
 * 3.2). Hadoop's memory rules stay, but for one: above the shuffle memory limit a fetch goes to
 * disk instead of WAITing for a spill ({@code mapreduce.marco.fetch.to.disk.when.full}); committed
 * in-memory outputs above the merge threshold are spilled to disk (with the old-API combiner, as
 * stock Hadoop does) on a normal-priority thread. An invocation opens at most
 * {@code mapreduce.task.io.sort.factor} runs; once that many partial runs exist, a re-merge merges
 * and partially reduces them again (multi-level partial reduce, the paper's future work), so the
 * final merge gets fewer partial runs than the sort factor. Invocations take in-memory outputs only within
 * the headroom above the merge threshold ({@link MarcoMemoryBudget#tryPin}), so a fetch waits for a
 * spill, never for partial work. Partial work also backs off while the heap has no room for it
 * ({@link MarcoHeapGuard}): nothing starts, and a running merge hands its inputs back unchanged.
 * {@link #close} feeds every run to the reducer.
 *
 * <p>Errors: an invocation that fails with an exception, or whose partial reducer breaks its
 * contract, hands its untouched inputs to the final merge; a contract violation also switches
 * partial reduce off for the rest of the attempt. An {@link Error} (out of memory, a linkage
 * error) fails the attempt, as it would under stock Hadoop, and so does a memory spill that
 * fails. A retried attempt runs without partial work. Every counter of running merges is
 * changed exactly once whatever throws, and waiters are always woken.
 *
 * <p>All state below is guarded by {@code this}.
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
  private final Reporter reporter;
  private final ExceptionReporter exceptionReporter;
  private final MarcoSettings settings;
  private final MarcoMemoryBudget memory;
  private final MarcoScheduler scheduler;
  private final MarcoAdaptiveControl adaptive;
  private final MarcoGroupedReducerRunner<K, V> partialReducer;
  private final MarcoRunMerger<K, V> runMerger;
  private final MarcoFinalMerge<K, V> finalMerge;
  private final MarcoTimeline timeline = new MarcoTimeline();

  /** Counters, timeline and log lines of the events below; guarded by this. */
  private final MarcoMergeEvents events;

  private final Counters.Counter mergedMapOutputs;

  /** SPILLED_RECORDS: records read from local disk by the reduce side's merges, as Hadoop's. */
  private final Counters.Counter spilledRecords;

  private final MarcoPartialThreads<K, V> partialThreads;
  private final MarcoSpiller<K, V> spiller;
  private final MarcoShuffleCpuCgroup shuffleCpuCgroup;

  /** Where every waiting run is; guarded by this. */
  private final MarcoRunLedger<K, V> ledger;

  /**
   * Partial invocations and re-merges whose thread has not yet ended and that were not detached
   * at shuffle end; its size is the number running.
   */
  private final List<MarcoInvocation<K, V>> running = new ArrayList<>();

  /**
   * {@code mapreduce.marco.fetch.to.disk.when.full}, where the job keeps no map output in memory
   * for the reducer ({@code mapreduce.reduce.input.buffer.percent} 0, Hadoop's default). A job
   * that keeps some asks for map outputs to reach the reducer without a disk write and read:
   * there a fetch that finds memory full waits for the spill, as in Hadoop, and its map output
   * may then stay in memory.
   */
  private final boolean fetchToDiskWhenFull;

  private int remergesStarted;
  private int arrivals;
  private int invocationsStarted;
  private boolean stopPointRecorded;

  /** Every map of the job has completed: the rest of the shuffle only waits for the network. */
  private boolean mapsComplete;

  private long shuffleEndMillis;

  /** Whether partial work may have heap to work in; replaced by tests. */
  private volatile MarcoHeapGuard heapGuard;

  /** Partial work is held back for the heap (an episode is counted once). */
  private boolean heapHeldBack;

  /** A retried attempt, or a partial reducer that broke its contract: why work is off. */
  private final boolean partialWorkOff;

  private boolean contractBroken;

  /** The first error that fails the attempt; {@link #close} reports it instead of waiting. */
  private Throwable fatalFailure;

  /** What fetchers waited to enter this manager, below the millisecond counted so far. */
  private long fetcherWaitNanos;

  private MarcoMergeSteps steps = MarcoMergeSteps.NONE;

  /** Applies the outcomes that partial threads post, at normal priority. */
  private final MarcoCoordinator coordinator;

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
    this.reporter = reporter;
    this.exceptionReporter = exceptionReporter;
    this.settings = settings;
    this.memory = new MarcoMemoryBudget(conf);
    this.ledger = new MarcoRunLedger<>(memory.maxInMemoryForReduce());
    this.fetchToDiskWhenFull =
        settings.isFetchToDiskWhenFull() && memory.maxInMemoryForReduce() == 0;
    // No merge opens more runs at once than mapreduce.task.io.sort.factor.
    this.scheduler =
        new MarcoScheduler(
            new MarcoInvocationPolicy(settings, conf.getNumMapTasks()),
            settings.getPartialThreads(),
            Math.max(
                2, conf.getInt(MRJobConfig.IO_SORT_FACTOR, MRJobConfig.DEFAULT_IO_SORT_FACTOR)),
            settings.effectiveInvocationMaxBytes());
    this.adaptive = new MarcoAdaptiveControl(settings);
    this.heapGuard =
        MarcoHeapGuard.forThisJvm(settings.getPartialHeapLimit(), memory::stillToReserve);
    this.partialReducer =
        partialReducer == null || !settings.isPartialReduceEnabled()
            ? null
            : MarcoGroupedReducerRunner.forPartialReducer(
                conf, partialReducer.getReducerClass(), partialReducer.isNewApi(), reduceId);
    // An earlier attempt may have failed because of partial work (out of memory, a broken
    // partial reducer): a retry shuffles as stock Hadoop does, so that it can succeed.
    this.partialWorkOff = reduceId.getId() > 0;
    if (partialWorkOff) {
      events.count(MarcoCounter.RETRIES_WITHOUT_PARTIAL_WORK, 1);
      LOG.info(
          "MaRCO: {} is attempt {} of its task; a retried attempt runs without partial invocations",
          reduceId,
          reduceId.getId());
    }
    this.mergedMapOutputs = mergedMapOutputs;
    this.spilledRecords = spilledRecords;
    this.runMerger = new MarcoRunMerger<>(conf, localFs, mapOutputFile, codec, reduceId, reporter);
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
    // The partial threads are born in the shuffle cgroup (and move on from there into the
    // partial cgroup). Then this thread, which goes on to start Hadoop's event fetcher and
    // fetchers, leaves it, so that they are born at the container's share.
    this.shuffleCpuCgroup =
        MarcoShuffleCpuCgroup.join(settings.effectiveShuffleCpuCgroup(), reduceId);
    this.partialThreads =
        new MarcoPartialThreads<>(
            reduceId, settings, runMerger, () -> heapGuard, this::handOff, events);
    shuffleCpuCgroup.keepCurrentThreadAtContainerShare();
    this.spiller =
        new MarcoSpiller<>(
            reduceId,
            this,
            this::spillEnded,
            exceptionReporter,
            runMerger,
            combinerClass == null
                ? MarcoRecordReducer.copy()
                : MarcoGroupedReducerRunner.forCombiner(conf, combinerClass, reduceId),
            shuffleCpuCgroup);
    this.coordinator =
        new MarcoCoordinator(
            new MarcoCpuShareThreadFactory("MaRCO coordinator " + reduceId, 0, ""),
            this::coordinatorFailed);
    LOG.info(
        "MaRCO merge manager for {}: {}, maps={}, partial reducer={}",
        reduceId,
        memory,
        conf.getNumMapTasks(),
        (this.partialReducer == null
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
        } while (fetchWaitsForSpill() && fatalFailure == null);
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
   * Starts what {@link MarcoScheduler} decides, one action at a time, asking again after each;
   * called with the lock held after every state change.
   */
  private void schedule() {
    boolean unprocessedHeld = false;
    MarcoScheduler.Heap heap = MarcoScheduler.Heap.UNREAD;
    while (true) {
      MarcoScheduler.Action action = scheduler.next(snapshot(unprocessedHeld, heap));
      switch (action.kind) {
        case RECORD_STOP_POINT:
          stopPointRecorded = true;
          events.stopPoint(arrivals, conf.getNumMapTasks());
          break;
        case READ_HEAP:
          heap = heapHasRoom() ? MarcoScheduler.Heap.ROOM : MarcoScheduler.Heap.NO_ROOM;
          break;
        case START_INVOCATION:
          // Pinned memory comes back only when this low-priority invocation ends: runs in memory
          // are taken only as far as tryPin allows, the others wait for the spill; runs on disk
          // always. So the take may come back with nothing to start.
          List<MarcoShuffledRun<K, V>> inputs =
              ledger.takeUnprocessed(
                  run -> !run.inMemory() || memory.tryPin(run.rawLength()),
                  action.runs,
                  action.bytes);
          if (action.startsInvocation(
              inputs.size(), inputs.size() == 1 && !inputs.get(0).inMemory())) {
            startInvocation(newInvocation(inputs));
            heap = MarcoScheduler.Heap.UNREAD;
          } else {
            memory.unpin(MarcoShuffledRun.memoryBytesOf(inputs));
            ledger.putBack(inputs);
            unprocessedHeld = true;
          }
          break;
        case START_REMERGE:
          startInvocation(newRemerge(ledger.takeSmallestPartialRuns(action.runs)));
          heap = MarcoScheduler.Heap.UNREAD;
          break;
        case START_SPILL:
          startSpill(ledger.takeForSpill(), false);
          return;
        case NONE:
          return;
      }
    }
  }

  /** What the scheduler decides from, at one step of a pass; called with the lock held. */
  private MarcoScheduler.Snapshot snapshot(boolean unprocessedHeld, MarcoScheduler.Heap heap) {
    MarcoScheduler.Snapshot s = new MarcoScheduler.Snapshot();
    s.failed = fatalFailure != null;
    s.shuffleOver = shuffleEndMillis != 0;
    s.partialWorkOff = partialWorkOff;
    s.partialReduceOn = partialFunction() != null;
    s.arrivals = arrivals;
    s.mapsComplete = mapsComplete;
    s.stopPointRecorded = stopPointRecorded;
    s.invocationsStarted = invocationsStarted;
    s.running = running.size();
    s.unprocessedMapOutputs = ledger.unprocessedMapOutputs();
    s.unprocessedBytes = ledger.unprocessedBytes();
    s.unprocessedHeld = unprocessedHeld;
    s.partialRuns = ledger.partialRunCount();
    s.committedInMemoryBytes = ledger.committedInMemoryBytes();
    s.pinnedBytes = memory.pinned();
    s.mergeThreshold = memory.mergeThreshold();
    s.heap = heap;
    return s;
  }

  /**
   * Whether the heap has room for partial work that could start now. Holding back, and coming
   * back, is logged once per episode; each episode counts once in HEAP_BACKOFFS.
   */
  private boolean heapHasRoom() {
    boolean over = heapGuard.overLimit();
    if (over && !heapHeldBack) {
      events.heapHold(arrivals, heapGuard);
    } else if (!over && heapHeldBack) {
      events.heapRoom(arrivals, heapGuard);
    }
    heapHeldBack = over;
    return !over;
  }

  /** The partial reducer while partial reduce is on, else null (partial sort). */
  private MarcoRecordReducer<K, V> partialFunction() {
    return partialReducer != null && !contractBroken && adaptive.partialReduceActive()
        ? partialReducer
        : null;
  }

  private MarcoInvocation<K, V> newInvocation(List<MarcoShuffledRun<K, V>> mapOutputs) {
    int number = invocationsStarted + 1;
    return new MarcoInvocation<>(
        number,
        1,
        mapOutputs,
        new ArrayList<>(),
        partialFunction(),
        number == settings.getFailInvocation());
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

  private void startInvocation(MarcoInvocation<K, V> invocation) {
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
    // The invocation cannot end before these: it needs this lock to say so.
    invocation.startMillis = System.currentTimeMillis();
    running.add(invocation);
    if (invocation.isRemerge()) {
      remergesStarted++;
    } else {
      invocationsStarted++;
    }
    events.started(invocation, arrivals);
  }

  /**
   * Hands a finished invocation's outcome to the coordinator, which applies it at normal
   * priority; on its partial thread, with no lock. A thread that stops here delays neither the
   * coordinator nor a waiting final merge, which applies a finished outcome itself.
   */
  private void handOff(MarcoInvocation<K, V> invocation) {
    steps.at(MarcoMergeSteps.Step.OUTCOME_HANDOFF);
    coordinator.post(() -> applyOutcome(invocation));
  }

  /** Applies the outcome of a finished invocation, on the coordinator thread. */
  private void applyOutcome(MarcoInvocation<K, V> invocation) {
    Throwable fatal;
    synchronized (this) {
      fatal = applyFinished(invocation);
    }
    if (fatal != null) {
      exceptionReporter.reportException(fatal);
    }
  }

  /**
   * Applies a finished invocation's outcome unless it was applied already (by the coordinator,
   * or by a final merge that would not wait for the coordinator); called with the lock held.
   *
   * @return what fails the attempt, or null
   */
  private Throwable applyFinished(MarcoInvocation<K, V> invocation) {
    if (!invocation.claimOutcome()) {
      return null;
    }
    running.remove(invocation);
    if (invocation.result() != null) {
      ledger.made(invocation.result().run);
    }
    long millis = invocation.workMillis();
    Throwable failure = invocation.failure();
    Throwable fatal = null;
    try {
      // Before anything that may throw: a pin left behind would shrink the headroom for good.
      memory.unpin(MarcoShuffledRun.memoryBytesOf(invocation.inputs));
      long overlapped =
          shuffleEndMillis == 0
              ? millis
              : Math.max(0, shuffleEndMillis - invocation.workStartMillis());
      events.count(MarcoCounter.OVERLAPPED_MILLIS, overlapped);
      if (failure == null) {
        commit(invocation, invocation.result(), millis);
      } else if (failure instanceof MarcoAbandonedMergeException) {
        backOffForHeap(invocation, millis);
      } else {
        fatal = failInvocation(invocation, failure);
      }
      schedule();
    } catch (RuntimeException | Error e) {
      fatal = fatal == null ? e : fatal;
    } finally {
      if (fatal != null) {
        fatalFailure = fatalFailure == null ? fatal : fatalFailure;
      }
      notifyAll();
    }
    return fatal;
  }

  /**
   * Abandons, at shuffle end, each running invocation not worth waiting for ({@link
   * MarcoMergeProgress#worthWaitingFor}; none with {@code finish.all.at.shuffle.end}), or every
   * one with {@code all}, without waiting for it.
   * The final merge waits only for work that saves more than the wait costs: a partial reducer
   * too expensive for what it keeps (or that has hardly started) would otherwise make the job
   * slower than stock. A partial thread runs at low priority, and on a node busy with other
   * reduces it may take seconds to reach the next record and see that it is abandoned: the final
   * merge does not wait for that either. Its inputs are only read, so the final merge takes them
   * now while the detached thread stops on its own and removes what it wrote ({@link
   * MarcoPartialThreads}). Called with the lock held, at shuffle end and again while the final merge
   * waits, as the invocations' progress changes the answer.
   */
  private void detachRunning(boolean all) {
    if (!all && settings.effectiveFinishAllAtShuffleEnd()) {
      return;
    }
    long now = System.currentTimeMillis();
    long overlapEnd = shuffleEndMillis == 0 ? now : shuffleEndMillis;
    for (Iterator<MarcoInvocation<K, V>> it = running.iterator(); it.hasNext(); ) {
      MarcoInvocation<K, V> invocation = it.next();
      boolean worthWaitingFor = invocation.progress.worthWaitingFor(invocation.inputBytes());
      if (!all && worthWaitingFor || !invocation.detach()) {
        continue; // waited for; or it has finished: its outcome is posted, and is applied now
      }
      it.remove();
      memory.unpin(MarcoShuffledRun.memoryBytesOf(invocation.inputs));
      events.count(
          MarcoCounter.OVERLAPPED_MILLIS, Math.max(0, overlapEnd - invocation.startMillis));
      abandonInvocation(invocation, now - invocation.startMillis, all);
    }
  }

  private void abandonInvocation(MarcoInvocation<K, V> invocation, long millis, boolean asked) {
    // The shuffle is over: the final merge takes the inputs as they are, memory included.
    ledger.toFinalMerge(invocation.inputs);
    events.abandoned(invocation, millis, asked);
  }

  /**
   * An invocation stopped because the heap had no room: its inputs (only read, never changed)
   * wait again, map outputs for a later invocation or a memory spill, partial runs for a later
   * re-merge, and partial work is held back until the heap has room again.
   */
  private void backOffForHeap(MarcoInvocation<K, V> invocation, long millis) {
    if (invocation.isRemerge()) {
      ledger.givePartialRunsBack(invocation.partialInputs);
    } else {
      ledger.giveBack(invocation.inputs);
    }
    heapHeldBack = true;
    events.backedOff(invocation, millis, heapGuard);
  }

  /**
   * Hands a failed invocation's inputs (only read, never changed) to the final merge.
   *
   * @return what must fail the attempt, or null: an {@link Error}, or a contract violation when
   *     {@code mapreduce.marco.partial.contract.strict} is set
   */
  private Throwable failInvocation(MarcoInvocation<K, V> invocation, Throwable failure) {
    List<MarcoShuffledRun<K, V>> inputs = invocation.inputs;
    boolean violation = failure instanceof MarcoContractViolationException;
    boolean failsAttempt =
        MarcoErrors.failsAttempt(failure) || violation && settings.isPartialContractStrict();
    // Those in memory are spilled first, or their memory would stay taken with no merge left to
    // free it; an attempt that fails anyway skips that, and so does a shuffle that is over.
    List<MarcoShuffledRun<K, V>> inMemory = new ArrayList<>();
    for (MarcoShuffledRun<K, V> run : inputs) {
      if (run.inMemory() && !failsAttempt && shuffleEndMillis == 0) {
        inMemory.add(run);
      } else {
        ledger.toFinalMerge(run);
      }
    }
    if (!inMemory.isEmpty()) {
      startSpill(inMemory, true);
    }
    boolean firstViolation = violation && !failsAttempt && !contractBroken;
    contractBroken |= firstViolation;
    events.failed(
        invocation,
        failure,
        failsAttempt,
        firstViolation,
        partialReducer == null ? "" : partialReducer.reducerName());
    return failsAttempt ? failure : null;
  }

  /** Commits a merge of partial work: its run becomes a partial run, then its inputs go. */
  private void commit(
      MarcoInvocation<K, V> invocation, MarcoRunMerger.Result<K, V> result, long millis) {
    steps.at(MarcoMergeSteps.Step.INVOCATION_COMMIT);
    ledger.addPartialRun(new MarcoPartialRun<>(result.run, invocation.level));
    releaseAll(invocation.inputs);
    result.userCounters.addTo(reporter);
    spilledRecords.increment(result.diskRecordsRead);
    events.committed(invocation, result, millis);
    if (invocation.function != null
        && !invocation.isRemerge()
        && adaptive.record(result.inputRecords, result.outputRecords)) {
      events.adaptiveDisabled(invocation.number, settings.getAdaptiveRatioThreshold());
    }
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

  /** Applies a memory spill's end ({@link MarcoSpiller.Committer}); called with the lock held. */
  private Throwable spillEnded(
      int number,
      List<MarcoShuffledRun<K, V>> inputs,
      boolean toFinalMerge,
      MarcoRunMerger.Result<K, V> result,
      Throwable failure) {
    try {
      if (result != null) {
        ledger.made(result.run);
      }
      if (failure == null) {
        steps.at(MarcoMergeSteps.Step.SPILL_COMMIT);
        releaseAll(inputs);
        result.userCounters.addTo(reporter);
        if (toFinalMerge) {
          ledger.toFinalMerge(result.run);
        } else {
          ledger.giveBack(List.of(result.run));
        }
        events.spillCommitted(number, inputs, result);
        schedule();
      }
    } catch (RuntimeException | Error e) {
      failure = e;
    } finally {
      if (failure != null) {
        fatalFailure = fatalFailure == null ? failure : fatalFailure;
      }
      notifyAll();
    }
    return failure;
  }

  /** What an outcome threw past its own handling: it fails the attempt. */
  private void coordinatorFailed(Throwable failure) {
    synchronized (this) {
      fatalFailure = fatalFailure == null ? failure : fatalFailure;
      notifyAll();
    }
    exceptionReporter.reportException(failure);
  }

  private void releaseAll(List<MarcoShuffledRun<K, V>> runs) {
    steps.at(MarcoMergeSteps.Step.RELEASE);
    for (MarcoShuffledRun<K, V> run : runs) {
      if (run.fetched()) {
        mergedMapOutputs.increment(1);
      }
      ledger.released(run);
      try {
        run.release();
      } catch (IOException e) {
        LOG.warn(
            "MaRCO: could not remove merged run {}; YARN removes it with the container", run, e);
      }
    }
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
      boolean abandonAll = settings.effectiveAbandonAtShuffleEnd() && !running.isEmpty();
      events.shuffleEnded(arrivals, running.size(), abandonAll);
      detachRunning(abandonAll);
      finishRunning = !running.isEmpty();
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
      partialThreads.shutdown();
      spiller.shutdown();
      coordinator.shutdown();
      // Invocations detached at shuffle end still ask it; its last reading stands.
      heapGuard.close();
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
        invocationsStarted,
        remergesStarted,
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
      detachRunning(true);
    }
    partialThreads.shutdown();
    spiller.shutdown();
    coordinator.shutdown();
    spiller.awaitTermination(FAILURE_CLEANUP_WAIT_MILLIS);
    coordinator.awaitTermination(FAILURE_CLEANUP_WAIT_MILLIS);
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
      // An invocation whose thread finished but has not handed its outcome over yet (a thread
      // at nice 19 may wait long for the CPU) is applied here: its hand-off is not waited for.
      for (MarcoInvocation<K, V> invocation : new ArrayList<>(running)) {
        if (invocation.finished()) {
          applyFinished(invocation);
        }
      }
      if (fatalFailure != null) {
        throw new IOException("MaRCO: a merge of " + reduceId + " failed", fatalFailure);
      }
      if (shuffleEndMillis != 0) {
        // The final merge waits: what is no longer worth the wait goes to it now.
        detachRunning(false);
      }
      if (running.size() + spiller.running() == 0) {
        return;
      }
      wait(WAIT_CHECK_MILLIS);
    }
  }

  /** Merges (invocations and spills) running now; never negative. */
  @VisibleForTesting
  synchronized int mergesRunning() {
    return running.size() + spiller.running();
  }

  /** Lets a test say when the heap has room for partial work. */
  @VisibleForTesting
  synchronized void setHeapGuard(MarcoHeapGuard guard) {
    heapGuard.close();
    this.heapGuard = guard;
  }

  /** Lets a test make a bookkeeping step throw. */
  @VisibleForTesting
  void setMergeSteps(MarcoMergeSteps steps) {
    this.steps = steps;
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
