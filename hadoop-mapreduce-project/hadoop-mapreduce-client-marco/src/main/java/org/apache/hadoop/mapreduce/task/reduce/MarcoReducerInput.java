/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.Progress;

/**
 * The reducer's input: the final merge, which fails as soon as an invocation detached at shuffle
 * end has failed with an {@link Error}. Such an invocation goes on beside the reducer, and the
 * reducer is the one reader left to pass its failure on to the attempt.
 */
final class MarcoReducerInput implements RawKeyValueIterator {
  private final RawKeyValueIterator merged;
  private final AtomicReference<Throwable> detachedFailure;

  MarcoReducerInput(RawKeyValueIterator merged, AtomicReference<Throwable> detachedFailure) {
    this.merged = merged;
    this.detachedFailure = detachedFailure;
  }

  @Override
  public boolean next() throws IOException {
    Throwable failure = detachedFailure.get();
    if (failure != null) {
      throw new IOException("MaRCO: a partial invocation abandoned at shuffle end failed", failure);
    }
    return merged.next();
  }

  @Override
  public DataInputBuffer getKey() throws IOException {
    return merged.getKey();
  }

  @Override
  public DataInputBuffer getValue() throws IOException {
    return merged.getValue();
  }

  @Override
  public void close() throws IOException {
    merged.close();
  }

  @Override
  public Progress getProgress() {
    return merged.getProgress();
  }
}
