/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/**
 * The rule for the final merge's wait at shuffle end: a running merge is worth waiting for only
 * when it has read more of its input than it keeps of it (remaining work below the work saved).
 */
public class TestMarcoMergeProgress {
  private static MarcoMergeProgress at(float read, long written) {
    MarcoMergeProgress progress = new MarcoMergeProgress();
    progress.publish(read, written);
    return progress;
  }

  @Test
  public void aMergeThatHasReadNothingIsNotWorthWaitingFor() {
    assertFalse(new MarcoMergeProgress().worthWaitingFor(1000));
    assertEquals(1.0, new MarcoMergeProgress().outputRatio(1000), 0.0);
  }

  @Test
  public void worthWaitingForExactlyWhenItHasReadMoreThanItKeeps() {
    // Half read, 100 of the 500 bytes read kept: 0.5 of the work left saves 0.8 of it.
    assertEquals(0.2, at(0.5f, 100).outputRatio(1000), 1e-9);
    assertTrue(at(0.5f, 100).worthWaitingFor(1000));
    // Half read, 300 of 500 kept: 0.5 left saves only 0.4.
    assertFalse(at(0.5f, 300).worthWaitingFor(1000));
    // A tenth read of a merge that keeps a fifth: the wait would cost more than it saves.
    assertFalse(at(0.1f, 20).worthWaitingFor(1000));
  }

  @Test
  public void aMergeThatKeepsItsInputWholeIsNeverWorthWaitingForBeforeItsEnd() {
    assertFalse(at(0.9f, 900).worthWaitingFor(1000));
    assertFalse(at(0.99f, 1000).worthWaitingFor(1000));
    // Done reading: only its commit is left, which costs the final merge nothing to wait for.
    assertTrue(at(1f, 990).worthWaitingFor(1000));
  }

  @Test
  public void theLogSaysHowFarItGot() {
    assertEquals(
        "read 50% of its 1000 input bytes, kept 20% of what it read", at(0.5f, 100).describe(1000));
  }
}
