package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;

import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.Progress;

/** Counts the records a merge reads, for the partial-input counters and adaptive control. */
final class CountingIterator implements RawKeyValueIterator {
  private final RawKeyValueIterator in;
  private long records;

  CountingIterator(RawKeyValueIterator in) {
    this.in = in;
  }

  long records() {
    return records;
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
