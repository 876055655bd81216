/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.stagger;

import org.apache.hadoop.classification.InterfaceAudience;

/**
 * Tells, from the allocator's heartbeats, when a job's first map wave holds all the room the
 * cluster gives it: maps still wait for containers, and no map has got one for a settle time
 * long enough for every NodeManager to have reported its free room (two of their heartbeats).
 * From then on, room for a task appears only where a running task ends. Once placed, it stays
 * placed: the allocator's decision to ask for the early reduces is not taken back.
 */
@InterfaceAudience.Private
public final class FirstMapWave {
  private final long settleMs;
  private int assignedMaps = -1;
  private long assignedSinceMs;
  private boolean placed;

  /** @param settleMs how long no map may get a container before the wave counts as placed */
  public FirstMapWave(long settleMs) {
    if (settleMs < 0) {
      throw new IllegalArgumentException("settle time must be 0 or more ms, got " + settleMs);
    }
    this.settleMs = settleMs;
  }

  /**
   * One heartbeat's view.
   *
   * @param assignedMaps maps holding containers now
   * @param scheduledMaps maps waiting for a container now
   * @param nowMs the AppMaster's clock
   */
  public boolean isPlaced(int assignedMaps, int scheduledMaps, long nowMs) {
    if (!placed) {
      if (assignedMaps != this.assignedMaps) {
        this.assignedMaps = assignedMaps;
        assignedSinceMs = nowMs;
      }
      placed = assignedMaps > 0 && scheduledMaps > 0 && nowMs - assignedSinceMs >= settleMs;
    }
    return placed;
  }
}
