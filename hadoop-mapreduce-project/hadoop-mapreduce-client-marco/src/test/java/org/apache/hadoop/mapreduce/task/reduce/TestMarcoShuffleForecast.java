/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** The bytes still to come: unknown before the first arrival, then the mean times those left. */
public class TestMarcoShuffleForecast {
  @Test
  public void theMeanArrivalTimesTheMapsNotArrivedYet() {
    MarcoShuffleForecast forecast = new MarcoShuffleForecast(10);
    assertEquals(Long.MAX_VALUE, forecast.bytesToCome());
    forecast.arrived(100);
    forecast.arrived(300);
    assertEquals(8 * 200, forecast.bytesToCome());
    for (int i = 0; i < 8; i++) {
      forecast.arrived(200);
    }
    assertEquals("all arrived: nothing is to come", 0, forecast.bytesToCome());
    forecast.arrived(200); // a map that ran again: never negative
    assertEquals(0, forecast.bytesToCome());
  }
}
