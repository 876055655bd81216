/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoSettings;
import org.junit.Test;

/** The start and stop rules of partial invocations, on counts alone. */
public class TestMarcoInvocationPolicy {
  private static final long NO_BYTES = 0;
  private static final boolean MAPS_RUNNING = false;
  private static final boolean MAPS_COMPLETE = true;
  private static final boolean BATCH_IN_TIME = false;
  private static final boolean BATCH_LATE = true;

  private static MarcoInvocationPolicy policy(int maps, float stopFraction, boolean tailStart) {
    Configuration conf = new Configuration(false);
    conf.setFloat(MarcoConfig.STOP_FRACTION, stopFraction);
    conf.setBoolean(MarcoConfig.START_WHEN_THRESHOLD_UNREACHABLE, tailStart);
    return new MarcoInvocationPolicy(MarcoSettings.from(conf), maps);
  }

  @Test
  public void theStopPointIsTheFirstArrivalAtTheStopFraction() {
    // As written in decimal: the float 0.3 is a little above 0.3, and 0.9 a little below 0.9.
    MarcoInvocationPolicy p = policy(10, 0.3f, true);
    assertFalse(p.stopReached(2));
    assertTrue(p.stopReached(3));
    assertEquals(2, p.arrivalsLeftBeforeStop(0));
    p = policy(10, 0.9f, true);
    assertFalse(p.stopReached(8));
    assertTrue(p.stopReached(9));
    assertEquals(0, p.arrivalsLeftBeforeStop(8));
    // A fraction of an arrival rounds up: 0.5 of 7 stops at the fourth.
    p = policy(7, 0.5f, true);
    assertFalse(p.stopReached(3));
    assertTrue(p.stopReached(4));
    p = policy(24, 0.75f, true);
    assertFalse(p.stopReached(17));
    assertTrue(p.stopReached(18));
    assertEquals(17, p.arrivalsLeftBeforeStop(0));
    assertEquals(1, p.arrivalsLeftBeforeStop(16));
    assertEquals(0, p.arrivalsLeftBeforeStop(17));
    p = policy(24, 1.0f, true);
    assertEquals(1, p.arrivalsLeftBeforeStop(22));
    assertEquals(0, p.arrivalsLeftBeforeStop(23));
    assertEquals(0, p.arrivalsLeftBeforeStop(24));
  }

  @Test
  public void aReachableThresholdHoldsTheBacklogBack() {
    // The third invocation needs 8 (the default steady threshold); 4 wait and 6 more can come.
    MarcoInvocationPolicy p = policy(24, 1.0f, true);
    assertFalse(p.mayStart(2, 4, NO_BYTES, 17, MAPS_RUNNING, BATCH_IN_TIME));
    assertTrue(p.mayStart(2, 8, NO_BYTES, 17, MAPS_RUNNING, BATCH_IN_TIME));
  }

  @Test
  public void anUnreachableThresholdNoLongerHoldsTheBacklogBack() {
    // 4 wait and only 1 more (arrival 23) can come before the stop point at 24.
    MarcoInvocationPolicy p = policy(24, 1.0f, true);
    assertTrue(p.mayStart(2, 4, NO_BYTES, 22, MAPS_RUNNING, BATCH_IN_TIME));
    assertTrue(p.mayStart(2, 1, NO_BYTES, 23, MAPS_RUNNING, BATCH_IN_TIME));
    // 3 wait, 4 can come: 7 stays short of 8.
    assertTrue(p.mayStart(2, 3, NO_BYTES, 19, MAPS_RUNNING, BATCH_IN_TIME));
    assertFalse(p.mayStart(2, 3, NO_BYTES, 18, MAPS_RUNNING, BATCH_IN_TIME));
    // Nothing starts at or after the stop point, nor with nothing waiting.
    assertFalse(p.mayStart(2, 4, NO_BYTES, 24, MAPS_RUNNING, BATCH_IN_TIME));
    assertFalse(p.mayStart(2, 0, NO_BYTES, 23, MAPS_RUNNING, BATCH_IN_TIME));
    // Switched off, the paper's threshold holds whatever is left to come.
    assertFalse(policy(24, 1.0f, false).mayStart(2, 4, NO_BYTES, 22, MAPS_RUNNING, BATCH_IN_TIME));
  }

  @Test
  public void aThresholdBatchForecastToEndAfterTheShuffleNoLongerHoldsTheBacklogBack() {
    // The third invocation needs 8; 1 waits and 7 more can come: reachable, so it waits, unless
    // the forecast says the batch would end after the shuffle.
    MarcoInvocationPolicy p = policy(24, 1.0f, true);
    assertFalse(p.mayStart(2, 1, NO_BYTES, 16, MAPS_RUNNING, BATCH_IN_TIME));
    assertTrue(p.mayStart(2, 1, NO_BYTES, 16, MAPS_RUNNING, BATCH_LATE));
    // Not with nothing waiting, nor from the stop point on.
    assertFalse(p.mayStart(2, 0, NO_BYTES, 16, MAPS_RUNNING, BATCH_LATE));
    assertFalse(p.mayStart(2, 1, NO_BYTES, 24, MAPS_RUNNING, BATCH_LATE));
    // Switched off, the threshold holds whatever the forecast says.
    Configuration off = new Configuration(false);
    off.setBoolean(MarcoConfig.START_WHEN_THRESHOLD_LATE, false);
    MarcoSettings settings = MarcoSettings.from(off);
    assertFalse(settings.effectiveStartWhenThresholdLate());
    assertFalse(
        new MarcoInvocationPolicy(settings, 24)
            .mayStart(2, 1, NO_BYTES, 16, MAPS_RUNNING, BATCH_LATE));
    assertTrue(MarcoSettings.from(new Configuration(false)).effectiveStartWhenThresholdLate());
  }

  @Test
  public void onceTheMapsHaveCompletedAnyWaitingMapOutputStartsOne() {
    // The third invocation needs 8, and 7 more could still come: with maps running 1 waits.
    Configuration on = new Configuration(false);
    on.setBoolean(MarcoConfig.START_WHEN_MAPS_COMPLETE, true);
    MarcoInvocationPolicy p = new MarcoInvocationPolicy(MarcoSettings.from(on), 24);
    assertFalse(p.mayStart(2, 1, NO_BYTES, 16, MAPS_RUNNING, BATCH_IN_TIME));
    assertTrue(p.mayStart(2, 1, NO_BYTES, 16, MAPS_COMPLETE, BATCH_IN_TIME));
    // Not with nothing waiting, nor from the stop point on.
    assertFalse(p.mayStart(2, 0, NO_BYTES, 16, MAPS_COMPLETE, BATCH_IN_TIME));
    assertFalse(p.mayStart(2, 1, NO_BYTES, 24, MAPS_COMPLETE, BATCH_IN_TIME));
    // Off, the default, the threshold holds after the maps as before.
    MarcoSettings settings = MarcoSettings.from(new Configuration(false));
    assertFalse(settings.effectiveStartWhenMapsComplete());
    assertFalse(
        new MarcoInvocationPolicy(settings, 24)
            .mayStart(2, 1, NO_BYTES, 16, MAPS_COMPLETE, BATCH_IN_TIME));
  }

  @Test
  public void withoutControlTheThresholdIsOneAndTheTailRuleIsOff() {
    Configuration conf = new Configuration(false);
    conf.setBoolean(MarcoConfig.CONTROL_ENABLED, false);
    MarcoSettings settings = MarcoSettings.from(conf);
    assertFalse(settings.effectiveStartWhenThresholdUnreachable());
    assertFalse(settings.effectiveStartWhenMapsComplete());
    assertFalse(settings.effectiveStartWhenThresholdLate());
    MarcoInvocationPolicy p = new MarcoInvocationPolicy(settings, 24);
    assertTrue(p.mayStart(5, 1, NO_BYTES, 3, MAPS_RUNNING, BATCH_IN_TIME));
  }
}
