/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.Progress;

/**
 * Counts the records a merge reads, for the partial-input counters and adaptive control, and
 * stops the merge between two records once it is asked to be abandoned.
 */
final class MarcoCountingIterator implements RawKeyValueIterator {
  private final RawKeyValueIterator in;
  private final BooleanSupplier abandonRequested;
  private long records;
  private boolean abandoned;

  MarcoCountingIterator(RawKeyValueIterator in, BooleanSupplier abandonRequested) {
    this.in = in;
    this.abandonRequested = abandonRequested;
  }

  long records() {
    return records;
  }

  /** True once {@link #next} refused to go on: what was read so far is not the whole merge. */
  boolean abandoned() {
    return abandoned;
  }

  @Override
  public DataInputBuffer getKey() throws IOException {
    return in.getKey();
  }

  @Override
  public DataInputBuffer getValue() throws IOException {
    return in.getValue();
  }

  @Override
  public boolean next() throws IOException {
    if (abandonRequested.getAsBoolean()) {
      abandoned = true;
      throw new MarcoAbandonedMergeException(records);
    }
    boolean more = in.next();
    if (more) {
      records++;
    }
    return more;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  @Override
  public Progress getProgress() {
    return in.getProgress();
  }
}
