/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.util.Locale;

/**
 * How far a running merge has got, published by its thread once per batch of records and read by
 * others without a lock: a low-priority merge thread must never hold what a normal-priority one
 * waits for, so the merge's own progress object (which Hadoop synchronizes) is not shared.
 */
final class MarcoMergeProgress {
  /** Publish once per this many records read. */
  static final int RECORDS_PER_PUBLISH = 256;

  private volatile double readFraction;
  private volatile long bytesWritten;

  void publish(float readFraction, long bytesWritten) {
    this.readFraction = readFraction;
    this.bytesWritten = bytesWritten;
  }

  /** The share of its input the merge has read, in [0, 1]. */
  double readFraction() {
    return readFraction;
  }

  /** Raw bytes of output for each raw byte of input read so far (1 before anything is read). */
  double outputRatio(long inputBytes) {
    double read = readFraction * inputBytes;
    return read <= 0 ? 1.0 : bytesWritten / read;
  }

  /**
   * Whether a merge still running when the shuffle ends is worth the final merge's wait. Were it
   * abandoned, the final merge and reduce would redo its whole input, a cost of about C, the
   * merge's own cost at the same share; finished, they have only its output, about r * C for the
   * output ratio r, after waiting its remaining (1 - f) * C for the read fraction f. Waiting pays
   * exactly when (1 - f) * C + r * C < C, that is f > r: it has read more of its input than it
   * keeps of it. A merge that keeps its input whole (partial sort, or a reducer that only
   * concatenates) is never worth waiting for; one that has hardly started is not either.
   */
  boolean worthWaitingFor(long inputBytes) {
    double f = readFraction;
    return f > 0 && f > outputRatio(inputBytes);
  }

  /** For the log: how far it got, of {@code inputBytes}. */
  String describe(long inputBytes) {
    return String.format(
        Locale.ROOT,
        "read %.0f%% of its %d input bytes, kept %.0f%% of what it read",
        100 * readFraction,
        inputBytes,
        100 * outputRatio(inputBytes));
  }
}
