/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.util.VersionInfo;
import org.junit.Test;

/**
 * The Hadoop versions hadoop-marco starts on, and the version it reports, read from the
 * marco-version.properties the build filled in.
 */
public class TestMarcoVersion {
  private static final List<String> SUPPORTED = List.of("3.3.6", "3.4.3", "3.5.0");

  @Test
  public void theTestedReleasesAndLaterPatchReleasesOfTheirLinesAreSupported() {
    for (String version : List.of("3.3.6", "3.3.7", "3.4.3", "3.4.10", "3.5.0", "3.5.1-SNAPSHOT")) {
      assertNull(version, MarcoVersion.hadoopProblem(version, SUPPORTED));
    }
  }

  @Test
  public void olderReleasesOtherLinesAndUnparsableVersionsAreRefusedNamingBoth() {
    for (String version : List.of("3.3.5", "3.4.2", "3.2.4", "3.6.0", "4.0.0", "2.10.2", "trunk")) {
      String problem = MarcoVersion.hadoopProblem(version, SUPPORTED);
      assertNotNull(version + " must be refused", problem);
      assertTrue(problem, problem.contains("does not run on Hadoop " + version + ":"));
      assertTrue(
          problem,
          problem.contains(
              "3.3.6 or a later 3.3.x, 3.4.3 or a later 3.4.x, 3.5.0 or a later 3.5.x"));
      assertTrue(problem, problem.contains("hadoop-marco " + MarcoVersion.version() + " "));
    }
  }

  @Test
  public void theBuildFilledInTheVersionsAndTheHadoopOfTheTestsIsSupported() {
    assertTrue(MarcoVersion.version(), MarcoVersion.version().matches("\\d+\\.\\d+\\.\\d+.*"));
    // The build filters the resource with the hadoop.version the tests run against.
    assertEquals(VersionInfo.getVersion(), MarcoVersion.builtAgainstHadoop());
    assertTrue(
        MarcoVersion.supportedHadoop().toString(),
        MarcoVersion.supportedHadoop().contains(MarcoVersion.builtAgainstHadoop()));
    MarcoVersion.checkRunningHadoop();
  }

  @Test
  public void versionCommandPrintsHadoopsLinesFirstThenHadoopMarcos() {
    PrintStream out = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      MarcoVersion.main(new String[0]);
    } finally {
      System.setOut(out);
    }
    String[] lines = captured.toString(StandardCharsets.UTF_8).split("\n");
    assertEquals("Hadoop " + VersionInfo.getVersion(), lines[0]);
    String last = lines[lines.length - 1];
    assertTrue(
        last,
        last.startsWith(
            "hadoop-marco "
                + MarcoVersion.version()
                + " (the MaRCO shuffle consumer; built against Hadoop "
                + MarcoVersion.builtAgainstHadoop()
                + ", runs on Hadoop "));
  }
}
