/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.RawKeyValueIterator;

/**
 * Presents a merged iterator as one more segment, so the final merge can feed the result of the
 * on-disk merge into one pass together with the runs kept in memory (as stock Hadoop does).
 */
class MarcoIteratorIFileReader<K, V> extends IFile.Reader<K, V> {
  private final RawKeyValueIterator iterator;

  MarcoIteratorIFileReader(RawKeyValueIterator iterator, long length) throws IOException {
    super(null, null, length, null, null);
    this.iterator = iterator;
  }

  @Override
  public boolean nextRawKey(DataInputBuffer key) throws IOException {
    if (!iterator.next()) {
      return false;
    }
    DataInputBuffer k = iterator.getKey();
    int length = k.getLength() - k.getPosition();
    key.reset(k.getData(), k.getPosition(), length);
    bytesRead += length;
    return true;
  }

  @Override
  public void nextRawValue(DataInputBuffer value) throws IOException {
    DataInputBuffer v = iterator.getValue();
    int length = v.getLength() - v.getPosition();
    value.reset(v.getData(), v.getPosition(), length);
    bytesRead += length;
  }

  @Override
  public long getPosition() {
    return bytesRead;
  }

  @Override
  public void close() throws IOException {
    iterator.close();
  }
}
