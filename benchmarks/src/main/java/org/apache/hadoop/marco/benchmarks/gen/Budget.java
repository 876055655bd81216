/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.gen;

/**
 * How much a generator writes: a number of bytes or of records, in total and per map task (the
 * total split evenly, the remainder going to the first tasks).
 */
public record Budget(Unit unit, long total) {
  /** What the budget counts. */
  public enum Unit {
    BYTES,
    RECORDS
  }

  public Budget {
    if (total < 1) {
      throw new IllegalArgumentException("A generator needs a positive size, got " + total);
    }
  }

  /** This task's share of the total. */
  public long share(int taskIndex, int numTasks) {
    return total / numTasks + (taskIndex < total % numTasks ? 1 : 0);
  }

  /** The total in records, using the model's average record size for byte budgets. */
  public long estimatedRecords(double bytesPerRecord) {
    return unit == Unit.RECORDS ? total : Math.max(1, (long) (total / bytesPerRecord));
  }

  /** Parses "123", "64k", "10m" or "2g" (powers of 1024). */
  public static long parseSize(String text) {
    String s = text.trim().toLowerCase();
    long multiplier = 1;
    char last = s.isEmpty() ? ' ' : s.charAt(s.length() - 1);
    if (last == 'k' || last == 'm' || last == 'g' || last == 't') {
      multiplier = 1L << (10 * ("kmgt".indexOf(last) + 1));
      s = s.substring(0, s.length() - 1);
    }
    try {
      return Math.multiplyExact(Long.parseLong(s), multiplier);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException(
          "Not a size: '"
              + text
              + "'; use a whole number with an optional k, m, g or t suffix, e.g. 64m",
          e);
    }
  }
}
