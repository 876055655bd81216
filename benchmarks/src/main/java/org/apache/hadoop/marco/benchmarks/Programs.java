/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The programs of the benchmarks jar, read from {@code programs.tsv} next to this class: the one
 * list that {@link BenchmarkDriver} and the benchmark harness (benchmarks/harness/catalog.py)
 * both read, so a job is added in one place.
 */
final class Programs {
  private static final String RESOURCE = "programs.tsv";

  /**
   * One program: a benchmark (kind heavy or light: the paper's eleven; extra: shuffle-heavy,
   * outside them), an alias, a generator or a tool.
   */
  record Program(String name, String className, String kind, String dataSet, String description) {
    boolean isBenchmark() {
      return "heavy".equals(kind) || "light".equals(kind) || "extra".equals(kind);
    }

    /** What {@code hadoop jar} prints beside the name. */
    String summary(List<Program> all) {
      String text = Character.toUpperCase(description.charAt(0)) + description.substring(1);
      if (!isBenchmark()) {
        return text + ".";
      }
      String input =
          all.stream()
              .filter(p -> "generator".equals(p.kind) && p.dataSet.equals(dataSet))
              .map(Program::name)
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          name
                              + " reads data set "
                              + dataSet
                              + ", which no generator in "
                              + RESOURCE
                              + " makes"));
      String shuffle = "extra".equals(kind) ? "heavy, beyond the paper's jobs" : kind;
      return "Shuffle-" + shuffle + ": " + description + " (input: " + input + ").";
    }
  }

  private Programs() {}

  /** Every program, in the file's order. */
  static List<Program> all() {
    try (InputStream in = Programs.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the benchmarks jar");
      }
      List<Program> programs = new ArrayList<>();
      BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.split("\t", -1);
        if (f.length != 5) {
          throw new IllegalStateException(
              RESOURCE + ": 5 tab-separated columns expected in: " + line);
        }
        programs.add(new Program(f[0], f[1], f[2], f[3], f[4]));
      }
      return programs;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
