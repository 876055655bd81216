/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.gen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Where a model writes its records; it counts bytes and records against the task's share of the
 * budget, and models stop at a record boundary once {@link #full()}.
 */
public abstract class RecordSink {
  private final Budget.Unit unit;
  private final long share;
  private long bytes;
  private long records;

  protected RecordSink(Budget.Unit unit, long share) {
    this.unit = unit;
    this.share = share;
  }

  /** Writes one record's bytes (text records include their newline). */
  public final void emit(byte[] record, int length) throws IOException {
    write(record, length);
    bytes += length;
    records++;
  }

  public final void emitLine(CharSequence line) throws IOException {
    byte[] b = (line + "\n").getBytes(StandardCharsets.UTF_8);
    emit(b, b.length);
  }

  public final boolean full() {
    return (unit == Budget.Unit.BYTES ? bytes : records) >= share;
  }

  public long bytes() {
    return bytes;
  }

  public long records() {
    return records;
  }

  protected abstract void write(byte[] record, int length) throws IOException;
}
