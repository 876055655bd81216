/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.engine;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The map outputs one stock reduce committed, in the order and at the time it committed them, in
 * the form of the arrival events of MaRCO's timeline ({@code {"ts":..,"event":"arrival",
 * "map":"attempt_..","bytes":..}}), so that the harness replays the busiest link of a stock run
 * as it replays a MaRCO run's. Written to the container log directory as {@value
 * #LOCAL_FILE_NAME}.
 */
final class StockArrivals {
  private static final Logger LOG = LoggerFactory.getLogger(StockArrivals.class);
  static final String LOCAL_FILE_NAME = "stock-arrivals.jsonl";

  private final List<String> lines = new ArrayList<>();

  /** Records that the map output of {@code map}, {@code bytes} long, was committed just now. */
  synchronized void arrived(TaskAttemptID map, long bytes, String where) {
    lines.add(
        String.format(
            "{\"ts\":%d,\"event\":\"arrival\",\"map\":\"%s\",\"bytes\":%d,\"where\":\"%s\","
                + "\"arrived\":%d}",
            System.currentTimeMillis(), map, bytes, where, lines.size() + 1));
  }

  /**
   * Writes the arrivals to {@code dir}; a failure is logged and never fails the task, whose
   * output does not depend on it.
   */
  synchronized void write(File dir) {
    try {
      Files.write(
          new File(dir, LOCAL_FILE_NAME).toPath(),
          (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      LOG.warn("could not write the stock shuffle's arrivals to {}", dir, e);
    }
  }
}
