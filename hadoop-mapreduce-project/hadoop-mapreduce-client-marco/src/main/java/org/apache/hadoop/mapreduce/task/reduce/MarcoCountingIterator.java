/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.Progress;

/**
 * Counts the records a merge reads, for the partial-input counters and adaptive control, stops
 * the merge between two records once it is asked to be abandoned, and publishes how far the
 * merge has got once per batch of records and when its input ends.
 */
final class MarcoCountingIterator implements RawKeyValueIterator {
  private final RawKeyValueIterator in;
  private final BooleanSupplier abandonRequested;
  private final MarcoMergeProgress progress;
  private final LongSupplier bytesWritten;
  private long records;
  private boolean abandoned;

  /**
   * @param progress where to publish the share of the input read and {@code bytesWritten}
   * @param bytesWritten the merge's raw output bytes so far
   */
  MarcoCountingIterator(
      RawKeyValueIterator in,
      BooleanSupplier abandonRequested,
      MarcoMergeProgress progress,
      LongSupplier bytesWritten) {
    this.in = in;
    this.abandonRequested = abandonRequested;
    this.progress = progress;
    this.bytesWritten = bytesWritten;
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
    if (!more || records % MarcoMergeProgress.RECORDS_PER_PUBLISH == 0) {
      progress.publish(more ? in.getProgress().getProgress() : 1f, bytesWritten.getAsLong());
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
