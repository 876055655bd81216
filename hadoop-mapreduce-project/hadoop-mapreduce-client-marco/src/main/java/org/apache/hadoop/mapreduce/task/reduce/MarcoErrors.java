/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;

/**
 * The engine's error policy, in one place. Partial work is optional, so a merge that fails with
 * a recoverable exception only falls back: its inputs, which it never changed, go on as they
 * were. An {@link Error} is not recoverable ({@link VirtualMachineError} above all: the JVM is
 * out of memory or broken) and fails the attempt, as it would under stock Hadoop, whose retry
 * then runs without partial work. An interrupt is never swallowed: a thread that catches one
 * sets its interrupt flag again before it goes on.
 */
final class MarcoErrors {
  private MarcoErrors() {}

  /** Whether {@code failure} fails the attempt rather than letting partial work fall back. */
  static boolean failsAttempt(Throwable failure) {
    return failure instanceof Error;
  }

  /**
   * Restores the interrupt flag if {@code failure} is, or stands for, an interrupt of the
   * current thread, and returns {@code failure}.
   */
  static <T extends Throwable> T keepInterrupt(T failure) {
    if (failure instanceof InterruptedException
        || failure instanceof InterruptedIOException
        || failure instanceof ClosedByInterruptException) {
      Thread.currentThread().interrupt();
    }
    return failure;
  }
}
