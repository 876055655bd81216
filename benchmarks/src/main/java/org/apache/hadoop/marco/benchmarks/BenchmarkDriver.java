package org.apache.hadoop.marco.benchmarks;

import org.apache.hadoop.util.ProgramDriver;

/**
 * {@code hadoop jar hadoop-marco-benchmarks.jar <program> [args]}: the paper's MapReductions
 * and their data generators, listed the way Hadoop's examples jar lists its programs.
 */
public final class BenchmarkDriver {
  private BenchmarkDriver() {
  }

  public static void main(String[] args) {
    ProgramDriver driver = new ProgramDriver();
    int exitCode = -1;
    try {
      driver.addClass("wordcount", WordCount.class,
          "Counts the words in the input files (combiner and partial reducer sum).");
      exitCode = driver.run(args);
    } catch (Throwable e) {
      e.printStackTrace();
    }
    System.exit(exitCode);
  }
}
