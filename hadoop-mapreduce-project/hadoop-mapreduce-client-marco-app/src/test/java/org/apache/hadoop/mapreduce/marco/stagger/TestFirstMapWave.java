/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.stagger;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** {@link FirstMapWave} fed heartbeats as the allocator sees them, with a 2000 ms settle time. */
public class TestFirstMapWave {
  private final FirstMapWave wave = new FirstMapWave(2000);

  @Test
  public void placedOnceNoMapHasGotAContainerForTheSettleTimeWhileMapsWait() {
    assertFalse(wave.isPlaced(12, 12, 10_000));
    assertFalse(wave.isPlaced(12, 12, 11_999));
    assertTrue(wave.isPlaced(12, 12, 12_000));
  }

  @Test
  public void aMapThatGetsAContainerStartsTheSettleTimeAgain() {
    assertFalse(wave.isPlaced(10, 14, 0));
    assertFalse("room appeared for two more maps", wave.isPlaced(12, 12, 1_500));
    assertFalse(wave.isPlaced(12, 12, 3_000));
    assertTrue(wave.isPlaced(12, 12, 3_500));
  }

  @Test
  public void notPlacedWhileNoMapHoldsAContainerOrNoneWaits() {
    assertFalse("no room yet", wave.isPlaced(0, 24, 0));
    assertFalse(wave.isPlaced(0, 24, 60_000));
    FirstMapWave allPlaced = new FirstMapWave(2000);
    assertFalse("every map has room: there is no wave to wait for", allPlaced.isPlaced(8, 0, 0));
    assertFalse(allPlaced.isPlaced(8, 0, 60_000));
  }

  @Test
  public void oncePlacedItStaysPlaced() {
    wave.isPlaced(12, 12, 0);
    assertTrue(wave.isPlaced(12, 12, 2_000));
    assertTrue("a map ended and another took its room", wave.isPlaced(12, 11, 2_100));
    assertTrue(wave.isPlaced(0, 0, 2_200));
  }

  @Test
  public void aNegativeSettleTimeIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new FirstMapWave(-1));
  }
}
