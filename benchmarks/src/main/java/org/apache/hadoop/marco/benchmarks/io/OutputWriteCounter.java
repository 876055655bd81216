/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.io;

/**
 * Counters of {@link TimedOutputFormat}: how long a task spent in its output format, so that the
 * harness can split the output write (which no shuffle runtime can overlap) out of the final
 * reduce.
 */
public enum OutputWriteCounter {
  /** Wall milliseconds in the job's record writer: opening it, every write, and closing it. */
  OUTPUT_WRITE_MILLIS
}
