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

/** The finish forecast's arithmetic, on a shuffle of 10 map outputs and explicit clocks. */
public class TestMarcoFinishForecast {
  private final MarcoFinishForecast forecast = new MarcoFinishForecast(10);

  /** Map outputs 1 to {@code n} arrive {@code interval} ms apart from time 0. */
  private void arrive(int n, long interval) {
    for (int i = 1; i <= n; i++) {
      forecast.arrived(i, (i - 1) * interval);
    }
  }

  @Test
  public void noForecastBeforeTwoArrivalsAndAFinishedInvocation() {
    assertEquals(-1, forecast.shuffleLeftMillis(0));
    assertEquals(-1, forecast.workMillis(100));
    forecast.arrived(1, 0);
    forecast.invocationFinished(1000, 1000);
    assertEquals("one arrival gives no interval", -1, forecast.shuffleLeftMillis(5000));
    assertEquals("no bound", Long.MAX_VALUE, forecast.bytesWithinShuffle(5000));
    MarcoFinishForecast noRate = new MarcoFinishForecast(10);
    noRate.arrived(1, 0);
    noRate.arrived(2, 100);
    assertEquals(Long.MAX_VALUE, noRate.bytesWithinShuffle(100));
  }

  @Test
  public void theShuffleLeftIsTheMapOutputsToComeAtTheMeanIntervalAStallIncluded() {
    arrive(4, 1000);
    assertEquals("6 to come, 1 s apart", 6000, forecast.shuffleLeftMillis(3000));
    assertEquals("no arrival for 3 s more: 2 s apart", 12000, forecast.shuffleLeftMillis(6000));
    arrive(10, 1000);
    assertEquals("all arrived", 0, forecast.shuffleLeftMillis(9000));
  }

  @Test
  public void theIntervalFollowsTheLatestArrivalsOnceTheEarlyOnesCameFaster() {
    MarcoFinishForecast longer = new MarcoFinishForecast(40);
    int n = 0;
    long at = 0;
    // While the maps finish, 24 map outputs come 0.1 s apart; then 8 more at the links' pace, 1 s
    // apart. The mean over all 32 is 0.33 s, which would forecast 8 more in under 3 s.
    for (; n < 24; n++, at += 100) {
      longer.arrived(n + 1, at);
    }
    for (at += 900; n < 32; n++, at += 1000) {
      longer.arrived(n + 1, at);
    }
    long lastArrival = at - 1000;
    assertEquals(
        "the latest " + MarcoFinishForecast.WINDOW + " arrivals are 1 s apart; 8 to come",
        8000,
        longer.shuffleLeftMillis(lastArrival));
  }

  @Test
  public void theWorkIsTheInputAtTheRateOfEveryFinishedInvocationTogether() {
    forecast.invocationFinished(1000, 1000);
    forecast.invocationFinished(3000, 1000);
    assertEquals("4000 bytes in 2000 ms", 500, forecast.workMillis(1000));
    forecast.invocationFinished(10, 0);
    assertTrue("a finish within the millisecond counts one", forecast.workMillis(4010) > 2000);
  }

  @Test
  public void theBytesWithinTheShuffleAreItsTimeLeftAtTheRate() {
    arrive(8, 1000);
    forecast.invocationFinished(1000, 1000);
    // At 7 s two map outputs are to come, 1 s apart: 2000 ms left, at 1 byte per CPU ms.
    assertEquals(2000, forecast.bytesWithinShuffle(7000));
    forecast.invocationFinished(3000, 1000);
    assertEquals("4000 bytes in 2000 ms", 4000, forecast.bytesWithinShuffle(7000));
    assertTrue(forecast.describe(4001, 7000).contains("the 2 map outputs still to come"));
    arrive(10, 1000);
    assertEquals("the shuffle is over", 0, forecast.bytesWithinShuffle(9000));
  }

  @Test
  public void aThresholdBatchIsLateWhenItsArrivalsAndThenItsWorkOutlastTheShuffleLeft() {
    // 4 map outputs arrived 1 s apart, 6 to come; 1000 bytes take 1000 ms of CPU.
    arrive(4, 1000);
    forecast.invocationFinished(1000, 1000);
    // At 3 s, 2 of 100 bytes each wait for a threshold of 4: the other 2 arrive at 5 s, leaving
    // 4 s of the shuffle, and a batch of 4 (400 bytes) takes 0.4 s.
    assertFalse(forecast.batchEndsAfterShuffle(4, 2, 200, 3000));
    // A batch of 4 of 1500 bytes each takes 6 s: it would end 2 s after the shuffle.
    assertTrue(forecast.batchEndsAfterShuffle(4, 2, 3000, 3000));
    assertTrue(
        forecast
            .describeBatch(4, 2, 3000, 3000)
            .contains("the rest would arrive with about 4.0 s of the shuffle left"));
    // A threshold of 7 needs all 6 to come: 0 s left after them, and any work ends late.
    assertTrue(forecast.batchEndsAfterShuffle(7, 1, 1, 3000));
    // Not counted on: a threshold the map outputs to come cannot reach, a batch already
    // complete, none waiting.
    assertFalse(forecast.batchEndsAfterShuffle(8, 1, 3000, 3000));
    assertFalse(forecast.batchEndsAfterShuffle(4, 4, 1_000_000, 3000));
    assertFalse(forecast.batchEndsAfterShuffle(4, 0, 0, 3000));
  }

  @Test
  public void noBatchIsLateBeforeAnInvocationHasFinished() {
    arrive(4, 1000);
    assertFalse(forecast.batchEndsAfterShuffle(4, 2, 1_000_000, 3000));
  }

  @Test
  public void theSettingIsOnByDefaultAndOffWithoutControlOrWhereAllWorkFinishes() {
    Configuration conf = new Configuration(false);
    assertTrue(MarcoSettings.from(conf).effectiveStartOnlyWithinShuffle());
    conf.setBoolean(MarcoConfig.START_ONLY_WITHIN_SHUFFLE, false);
    assertFalse(MarcoSettings.from(conf).effectiveStartOnlyWithinShuffle());
    conf.setBoolean(MarcoConfig.START_ONLY_WITHIN_SHUFFLE, true);
    conf.setBoolean(MarcoConfig.FINISH_ALL_AT_SHUFFLE_END, true);
    assertFalse(MarcoSettings.from(conf).effectiveStartOnlyWithinShuffle());
    conf.setBoolean(MarcoConfig.FINISH_ALL_AT_SHUFFLE_END, false);
    conf.setBoolean(MarcoConfig.CONTROL_ENABLED, false);
    assertFalse(MarcoSettings.from(conf).effectiveStartOnlyWithinShuffle());
  }
}
