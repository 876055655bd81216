/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

/**
 * Whether partial work is held back for the heap, in episodes: the guard in force ({@link
 * MarcoHeapGuard}), and whether the last answer was "no room". Holding back, and coming back, is
 * logged once per episode, and each episode counts once in HEAP_BACKOFFS. The episode flag is
 * guarded by the merge manager's lock; the guard itself is read lock-free by running merges.
 */
final class MarcoHeapHold {
  private final MarcoMergeEvents events;

  /** Replaced only by tests; running merges read it without the lock. */
  private volatile MarcoHeapGuard guard;

  private boolean heldBack;

  MarcoHeapHold(MarcoHeapGuard guard, MarcoMergeEvents events) {
    this.guard = guard;
    this.events = events;
  }

  /** The guard in force now. */
  MarcoHeapGuard guard() {
    return guard;
  }

  /**
   * Whether the heap has room for partial work that could start now; called with the lock held.
   *
   * @param arrivals map outputs arrived so far, for the log and the timeline
   */
  boolean hasRoom(int arrivals) {
    boolean over = guard.overLimit();
    if (over && !heldBack) {
      events.heapHold(arrivals, guard);
    } else if (!over && heldBack) {
      events.heapRoom(arrivals, guard);
    }
    heldBack = over;
    return !over;
  }

  /**
   * A running merge stopped for the heap: the episode it opened was counted with its back-off,
   * so the next "no room" does not count again. Called with the lock held.
   */
  void heldBackByMerge() {
    heldBack = true;
  }

  /** Puts {@code replacement} in force, closing the guard it replaces. */
  void replace(MarcoHeapGuard replacement) {
    guard.close();
    guard = replacement;
  }

  /** Stops the guard's listening; merges still asking get its last reading. */
  void close() {
    guard.close();
  }
}
