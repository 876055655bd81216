/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.junit.Test;

/**
 * Holding partial work back for the heap is counted and logged per episode, not per reading: an
 * operator reads HEAP_BACKOFFS as how often the heap stopped partial work, and a scheduler that
 * asks at every arrival must not inflate it.
 */
public class TestMarcoHeapHold {
  /** Heap bytes in use after the latest collection, of 100; over 50 there is no room. */
  private final AtomicLong used = new AtomicLong();

  private final Counters counters = new Counters();
  private final MarcoMergeEvents events =
      new MarcoMergeEvents(
          new TaskAttemptID("jt", 1, TaskType.REDUCE, 0, 0),
          new SyntheticShuffle.CountingReporter(counters),
          new MarcoTimeline());
  private final MarcoHeapHold hold =
      new MarcoHeapHold(new MarcoHeapGuard(used::get, () -> 0L, 100, 0.5f), events);

  private long backoffs() {
    return counters.findCounter(MarcoCounter.HEAP_BACKOFFS).getValue();
  }

  @Test
  public void anEpisodeOfNoRoomCountsOnceHoweverOftenTheSchedulerAsks() {
    assertTrue(hold.hasRoom(1));
    used.set(80);
    assertFalse(hold.hasRoom(2));
    assertFalse(hold.hasRoom(3));
    assertFalse(hold.hasRoom(4));
    assertEquals(1, backoffs());
    used.set(10);
    assertTrue(hold.hasRoom(5));
    used.set(90);
    assertFalse(hold.hasRoom(6));
    assertEquals("a second episode", 2, backoffs());
    assertEquals(
        "held, room, held: one timeline event each",
        3,
        events.timelineEvents().stream().filter(e -> e.contains("heap-")).count());
  }

  @Test
  public void aMergeThatBackedOffOpenedTheEpisodeItself() {
    used.set(80);
    // The merge's back-off is counted with it (MarcoMergeEvents#backedOff); the hold that
    // follows is the same episode.
    hold.heldBackByMerge();
    assertFalse(hold.hasRoom(1));
    assertEquals(0, backoffs());
    used.set(0);
    assertTrue(hold.hasRoom(2));
  }

  @Test
  public void aReplacedGuardIsTheOneAsked() {
    used.set(80);
    assertFalse(hold.hasRoom(1));
    MarcoHeapGuard roomy = new MarcoHeapGuard(() -> 0L, () -> 0L, 100, 0.5f);
    hold.replace(roomy);
    assertSame(roomy, hold.guard());
    assertTrue(hold.hasRoom(2));
  }
}
