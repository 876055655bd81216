/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks;

import java.util.List;
import org.apache.hadoop.util.ProgramDriver;

/**
 * {@code hadoop jar hadoop-marco-benchmarks.jar <program> [args]}: the paper's MapReductions
 * and their data generators ({@link Programs}), listed the way Hadoop's examples jar lists its
 * programs.
 */
public final class BenchmarkDriver {
  private BenchmarkDriver() {}

  public static void main(String[] args) {
    ProgramDriver driver = new ProgramDriver();
    int exitCode = -1;
    try {
      List<Programs.Program> programs = Programs.all();
      for (Programs.Program p : programs) {
        driver.addClass(p.name(), Class.forName(p.className()), p.summary(programs));
      }
      exitCode = driver.run(args);
    } catch (Throwable e) {
      e.printStackTrace();
    }
    System.exit(exitCode);
  }
}
