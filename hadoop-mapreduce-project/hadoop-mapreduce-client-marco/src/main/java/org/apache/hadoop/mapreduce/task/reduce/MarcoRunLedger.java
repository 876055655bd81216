/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Where every run of a reduce's shuffle is while it waits: each run is in exactly one place, or
 * out with the one merge that took it. The places are
 *
 * <ul>
 *   <li><b>unprocessed</b>: map outputs (and spilled runs of them) waiting for partial work;
 *   <li><b>kept for the reducer</b>: in-memory map outputs within {@code
 *       mapreduce.reduce.input.buffer.percent} of the shuffle memory, which stock Hadoop keeps in
 *       memory through the reduce: partial work leaves them alone, a memory spill takes them;
 *   <li><b>partial runs</b>: committed runs of partial work, with their level, which re-merges
 *       may merge again;
 *   <li><b>for the final merge</b>: runs taken as they are (empty map outputs, inputs of failed
 *       or abandoned merges).
 * </ul>
 *
 * Apart from the places, the ledger knows every run it is responsible for, wherever it is (also
 * one out with a merge), until it is released: a shuffle that fails releases them all. Not
 * thread-safe: the merge manager's lock guards it.
 */
final class MarcoRunLedger<K, V> {
  private final long maxInMemoryForReduce;
  private final List<MarcoShuffledRun<K, V>> unprocessed = new ArrayList<>();
  private final List<MarcoShuffledRun<K, V>> keptForReduce = new ArrayList<>();
  private final List<MarcoPartialRun<K, V>> partialRuns = new ArrayList<>();
  private final List<MarcoShuffledRun<K, V>> forFinalMerge = new ArrayList<>();
  private final Set<MarcoShuffledRun<K, V>> live =
      Collections.newSetFromMap(new IdentityHashMap<>());
  private long unprocessedMemoryBytes;
  private long keptForReduceBytes;

  /** @param maxInMemoryForReduce bytes of map outputs the reducer keeps in memory */
  MarcoRunLedger(long maxInMemoryForReduce) {
    this.maxInMemoryForReduce = maxInMemoryForReduce;
  }

  /** Places an arriving map output. */
  void arrive(MarcoShuffledRun<K, V> run) {
    live.add(run);
    if (run.holdsNoRecords()) {
      // A map that emitted nothing for this reduce gives partial work nothing to do. Counted
      // toward the start threshold, such outputs (fast maps, so often the first to arrive) start
      // an invocation over nothing that holds the partial thread while real outputs arrive.
      forFinalMerge.add(run);
    } else if (run.inMemory() && keptForReduceBytes + run.rawLength() <= maxInMemoryForReduce) {
      // The reducer reads these without a disk write and read; partial work would write them.
      keptForReduce.add(run);
      keptForReduceBytes += run.rawLength();
    } else {
      unprocessed.add(run);
      if (run.inMemory()) {
        unprocessedMemoryBytes += run.rawLength();
      }
    }
  }

  /** A run a merge made (a spill or partial run): the ledger is responsible for it from now. */
  void made(MarcoShuffledRun<K, V> run) {
    live.add(run);
  }

  /** A run released by its owner: no longer the ledger's. */
  void released(MarcoShuffledRun<K, V> run) {
    live.remove(run);
  }

  int unprocessedMapOutputs() {
    return MarcoShuffledRun.mapOutputsOf(unprocessed);
  }

  long unprocessedBytes() {
    return MarcoShuffledRun.bytesOf(unprocessed);
  }

  /** Raw bytes of the oldest unprocessed run, which an invocation takes first; 0 with none. */
  long oldestUnprocessedBytes() {
    return unprocessed.isEmpty() ? 0 : unprocessed.get(0).rawLength();
  }

  /** Committed in-memory map outputs no merge has taken: what a memory spill would write. */
  long committedInMemoryBytes() {
    return unprocessedMemoryBytes + keptForReduceBytes;
  }

  /**
   * Takes up to {@code limit} unprocessed runs, oldest first, that {@code take} accepts, and stops
   * before the first run that would take the total over {@code maxBytes} (the first run is always
   * taken). {@code take} is asked only about runs within the bounds, so it may reserve memory.
   */
  List<MarcoShuffledRun<K, V>> takeUnprocessed(
      Predicate<MarcoShuffledRun<K, V>> take, int limit, long maxBytes) {
    List<MarcoShuffledRun<K, V>> taken = new ArrayList<>();
    long takenBytes = 0;
    for (Iterator<MarcoShuffledRun<K, V>> it = unprocessed.iterator();
        it.hasNext() && taken.size() < limit; ) {
      MarcoShuffledRun<K, V> run = it.next();
      if (!taken.isEmpty() && run.rawLength() > maxBytes - takenBytes) {
        break;
      }
      if (take.test(run)) {
        taken.add(run);
        takenBytes += run.rawLength();
        it.remove();
        if (run.inMemory()) {
          unprocessedMemoryBytes -= run.rawLength();
        }
      }
    }
    return taken;
  }

  /** Takes every committed in-memory map output no merge has taken, for a memory spill. */
  List<MarcoShuffledRun<K, V>> takeForSpill() {
    List<MarcoShuffledRun<K, V>> taken = new ArrayList<>(keptForReduce);
    keptForReduce.clear();
    keptForReduceBytes = 0;
    taken.addAll(takeUnprocessed(MarcoShuffledRun::inMemory, Integer.MAX_VALUE, Long.MAX_VALUE));
    return taken;
  }

  /** Runs back to wait for partial work, unchanged (a back-off, or a merge that never started). */
  void giveBack(Collection<MarcoShuffledRun<K, V>> runs) {
    unprocessed.addAll(runs);
    unprocessedMemoryBytes += MarcoShuffledRun.memoryBytesOf(new ArrayList<>(runs));
  }

  /** Runs just taken, back first among the unprocessed ones, the oldest as they were. */
  void putBack(List<MarcoShuffledRun<K, V>> runs) {
    unprocessed.addAll(0, runs);
    unprocessedMemoryBytes += MarcoShuffledRun.memoryBytesOf(runs);
  }

  void addPartialRun(MarcoPartialRun<K, V> run) {
    partialRuns.add(run);
  }

  void givePartialRunsBack(Collection<MarcoPartialRun<K, V>> runs) {
    partialRuns.addAll(runs);
  }

  int partialRunCount() {
    return partialRuns.size();
  }

  /** Takes the {@code n} smallest partial runs, as Hadoop's merges take the smallest first. */
  List<MarcoPartialRun<K, V>> takeSmallestPartialRuns(int n) {
    partialRuns.sort((a, b) -> Long.compare(a.run.rawLength(), b.run.rawLength()));
    List<MarcoPartialRun<K, V>> taken = new ArrayList<>(partialRuns.subList(0, n));
    partialRuns.subList(0, n).clear();
    return taken;
  }

  void toFinalMerge(Collection<MarcoShuffledRun<K, V>> runs) {
    forFinalMerge.addAll(runs);
  }

  void toFinalMerge(MarcoShuffledRun<K, V> run) {
    forFinalMerge.add(run);
  }

  /** Takes every waiting run, for the final merge: those for it, kept, partial, unprocessed. */
  List<MarcoShuffledRun<K, V>> takeAll() {
    List<MarcoShuffledRun<K, V>> runs = new ArrayList<>(forFinalMerge);
    runs.addAll(keptForReduce);
    for (MarcoPartialRun<K, V> run : partialRuns) {
      runs.add(run.run);
    }
    runs.addAll(unprocessed);
    forFinalMerge.clear();
    keptForReduce.clear();
    partialRuns.clear();
    unprocessed.clear();
    unprocessedMemoryBytes = 0;
    keptForReduceBytes = 0;
    return runs;
  }

  /** Empties the ledger and returns every run it was responsible for, for a failed shuffle. */
  List<MarcoShuffledRun<K, V>> takeEveryLiveRun() {
    takeAll();
    List<MarcoShuffledRun<K, V>> runs = new ArrayList<>(live);
    live.clear();
    return runs;
  }
}
