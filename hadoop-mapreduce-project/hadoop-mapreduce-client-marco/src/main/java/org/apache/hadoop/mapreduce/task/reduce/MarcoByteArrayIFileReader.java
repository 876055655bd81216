/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.mapred.IFile;

/**
 * Reads IFile records (no checksum, no compression) straight out of a byte array, without
 * copying. Closing it releases nothing: the owning {@link MarcoInMemoryRun} frees the memory only
 * once its records are safely merged into a committed run.
 */
class MarcoByteArrayIFileReader<K, V> extends IFile.Reader<K, V> {
  private final DataInputBuffer in = new DataInputBuffer();
  private final byte[] data;

  /**
   * @param conf the job's configuration: with none, Hadoop's reader would load a fresh
   *     {@code Configuration} (XML parsing) for every segment opened
   */
  MarcoByteArrayIFileReader(Configuration conf, byte[] data) throws IOException {
    super(conf, null, data.length, null, null);
    this.data = data;
    in.reset(data, 0, data.length);
  }

  @Override
  public long getPosition() {
    return bytesRead;
  }

  @Override
  public long getLength() {
    return fileLength;
  }

  @Override
  public void reset(int offset) {
    in.reset(data, offset, data.length - offset);
    bytesRead = offset;
    eof = false;
  }

  @Override
  public boolean nextRawKey(DataInputBuffer key) throws IOException {
    if (!positionToNextRecord(in)) {
      return false;
    }
    key.reset(data, in.getPosition(), currentKeyLength);
    skip(currentKeyLength, "key");
    bytesRead += currentKeyLength;
    return true;
  }

  @Override
  public void nextRawValue(DataInputBuffer value) throws IOException {
    value.reset(data, in.getPosition(), currentValueLength);
    skip(currentValueLength, "value");
    bytesRead += currentValueLength;
    ++recNo;
  }

  private void skip(int length, String what) throws IOException {
    if (in.skip(length) != length) {
      throw new IOException(
          "Corrupt in-memory map output: record "
              + recNo
              + " "
              + what
              + " of "
              + length
              + " bytes runs past the end of the "
              + data.length
              + "-byte buffer");
    }
  }

  @Override
  public void close() {
    dataIn = null;
  }
}
