/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.junit.Test;

/** The warning a reduce logs where its JVM runs the cleanup safepoints low-share threads stall. */
public class TestMarcoSafepointCheck {
  @Test
  public void theLastIntervalOnTheCommandLineCountsAndHotSpotsDefaultIsASecond() {
    assertEquals(1000, MarcoSafepointCheck.intervalIn(List.of("-Xmx1g")));
    assertEquals(
        0,
        MarcoSafepointCheck.intervalIn(
            List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:GuaranteedSafepointInterval=0")));
    assertEquals(
        5000,
        MarcoSafepointCheck.intervalIn(
            List.of("-XX:GuaranteedSafepointInterval=0", "-XX:GuaranteedSafepointInterval=5000")));
  }

  @Test
  public void aJvmWithCleanupSafepointsIsToldTheFix() {
    assumeTrue(
        "this test JVM runs with HotSpot's default cleanup safepoints",
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .noneMatch(a -> a.contains(MarcoSafepointCheck.OPTION)));
    assertEquals(1000, MarcoSafepointCheck.cleanupSafepointIntervalMillis());
    String problem = MarcoSafepointCheck.problem();
    assertTrue(problem, problem.contains("every 1000 ms"));
    assertTrue(problem, problem.contains(MarcoConfig.REDUCE_JVM_OPTIONS));
    assertTrue(problem, problem.contains(MarcoConfig.DEFAULT_REDUCE_JVM_OPTIONS));
    assertTrue(problem, problem.contains("mapreduce.reduce.java.opts"));
  }
}
