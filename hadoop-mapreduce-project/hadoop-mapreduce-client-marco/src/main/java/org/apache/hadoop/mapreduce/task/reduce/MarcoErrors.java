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
 * were. An {@link Error} is not recoverable (a {@link LinkageError}, a {@link VirtualMachineError}
 * such as a full metaspace: the JVM is broken) and fails the attempt, as it would under stock
 * Hadoop, whose retry then runs without partial work. The one exception is the heap running out
 * in a merge of partial work ({@link #isHeapExhaustion}): stock Hadoop would not have run that
 * work next to the shuffle's buffers, and the memory it held is free once its thread has unwound,
 * so partial work backs off instead. An interrupt is never swallowed: a thread that catches one
 * sets its interrupt flag again before it goes on.
 */
final class MarcoErrors {
  private MarcoErrors() {}

  /** Whether {@code failure} fails the attempt rather than letting partial work fall back. */
  static boolean failsAttempt(Throwable failure) {
    return failure instanceof Error;
  }

  /**
   * Whether {@code failure} is the Java heap running out: the JVM's own message for an allocation
   * that a full collection could not make room for, or for collections that free next to nothing.
   * Not the other kinds of {@link OutOfMemoryError} (metaspace, direct buffers, native threads,
   * an array over the VM's limit), which more heap would not cure.
   */
  static boolean isHeapExhaustion(Throwable failure) {
    if (!(failure instanceof OutOfMemoryError)) {
      return false;
    }
    String message = failure.getMessage();
    return "Java heap space".equals(message) || "GC overhead limit exceeded".equals(message);
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
