/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.advise;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.EnumSet;
import java.util.Set;
import org.junit.Test;

/**
 * The model's arithmetic and regimes, on the cases it shares with the harness's model.py
 * (tests/bench/data/model-cases.json, read by tests/bench/test_model.py too).
 */
public class TestSpeedupModel {
  private static JsonNode cases() throws IOException {
    try (InputStream in = TestSpeedupModel.class.getResourceAsStream("/model-cases.json")) {
      assertTrue("model-cases.json on the test classpath", in != null);
      return new ObjectMapper().readTree(in);
    }
  }

  private static double opt(JsonNode inputs, String key) {
    return inputs.hasNonNull(key) ? inputs.get(key).asDouble() : Double.NaN;
  }

  private static SpeedupModel.Prediction run(JsonNode in) {
    return SpeedupModel.predict(
        in.get("wall_s").asDouble(),
        in.get("exposed_shuffle_s").asDouble(),
        in.get("final_merge_s").asDouble(),
        in.get("final_reduce_s").asDouble(),
        opt(in, "idle_cpu_s"),
        opt(in, "final_cpu_s"));
  }

  @Test
  public void theSharedCasesGiveTheSavingSpeedupAndBoundThePythonModelGives() throws IOException {
    JsonNode all = cases();
    double tolerance = all.get("tolerance").asDouble();
    Set<SpeedupModel.Bound> seen = EnumSet.noneOf(SpeedupModel.Bound.class);
    for (JsonNode c : all.get("cases")) {
      String name = c.get("name").asText();
      JsonNode expect = c.get("expect");
      SpeedupModel.Prediction p = run(c.get("inputs"));
      assertEquals(name, expect.get("bound").asText(), p.bound().label());
      assertEquals(name, expect.get("saving_s").asDouble(), p.savingSeconds(), tolerance);
      if (expect.get("speedup").isNull()) {
        assertTrue(name + ": no speedup", Double.isNaN(p.speedup()));
      } else {
        assertEquals(name, expect.get("speedup").asDouble(), p.speedup(), tolerance);
      }
      seen.add(p.bound());
    }
    assertEquals("every regime has a case", EnumSet.allOf(SpeedupModel.Bound.class), seen);
  }

  @Test
  public void badInputsAreNamed() throws IOException {
    for (JsonNode c : cases().get("errors")) {
      try {
        run(c.get("inputs"));
        fail(c.get("name").asText() + " was accepted");
      } catch (IllegalArgumentException e) {
        assertTrue(e.getMessage(), e.getMessage().contains(c.get("error").asText()));
      }
    }
  }

  @Test
  public void theCpuTermScalesTheFinalWorkByTheIdleShareOfItsCpu() {
    // 30 s of final work that kept 3 cores busy for 20 s each: 60 core-s; 15 idle do a quarter.
    SpeedupModel.Prediction p = SpeedupModel.predict(100, 50, 10, 20, 15, 60);
    assertEquals(7.5, p.savingSeconds(), 1e-12);
    assertEquals(SpeedupModel.Bound.CPU, p.bound());
    assertEquals(100 / 92.5, p.speedup(), 1e-12);
  }
}
