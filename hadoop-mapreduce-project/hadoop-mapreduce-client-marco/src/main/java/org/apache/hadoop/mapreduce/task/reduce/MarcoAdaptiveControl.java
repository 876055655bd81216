/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import org.apache.hadoop.mapreduce.marco.MarcoSettings;

/**
 * Beyond the paper: switches partial reduce off for the rest of the task when it keeps not
 * reducing (output/input records at or above the threshold for N invocations in a row), as a
 * partial reducer that only copies records is pure overhead. Partial sort goes on.
 */
final class MarcoAdaptiveControl {
  private final boolean enabled;
  private final double ratioThreshold;
  private final int minInvocations;
  private int nonReducingInARow;
  private boolean partialReduceOff;

  MarcoAdaptiveControl(MarcoSettings settings) {
    this.enabled = settings.isAdaptiveEnabled();
    this.ratioThreshold = settings.getAdaptiveRatioThreshold();
    this.minInvocations = settings.getAdaptiveMinInvocations();
  }

  synchronized boolean partialReduceActive() {
    return !partialReduceOff;
  }

  /**
   * Records one partial-reduce invocation; returns true when this one switched partial reduce
   * off.
   */
  synchronized boolean record(long inputRecords, long outputRecords) {
    if (!enabled || partialReduceOff || inputRecords == 0) {
      return false;
    }
    if ((double) outputRecords / inputRecords >= ratioThreshold) {
      nonReducingInARow++;
    } else {
      nonReducingInARow = 0;
    }
    partialReduceOff = nonReducingInARow >= minInvocations;
    return partialReduceOff;
  }
}
