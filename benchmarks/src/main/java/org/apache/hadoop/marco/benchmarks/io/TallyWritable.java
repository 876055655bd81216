/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.io;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;

/**
 * The parametric job's value: either one raw record payload as the map emits it, or a tally of
 * values already reduced (their count and the sum of their digests), as a partial reducer emits
 * it. A tally sums, so partial tallies of any split of a key's values add up to the same tally.
 */
public class TallyWritable implements Writable {
  private byte[] payload = new byte[0];
  private long count;
  private long digest;

  /** A raw value: the payload still to be digested. */
  public void setPayload(byte[] bytes, int offset, int length) {
    payload = Arrays.copyOfRange(bytes, offset, offset + length);
    count = 0;
    digest = 0;
  }

  /** A reduced value: {@code count} values whose digests sum to {@code digest}. */
  public void setTally(long count, long digest) {
    payload = new byte[0];
    this.count = count;
    this.digest = digest;
  }

  public boolean isRaw() {
    return payload.length > 0;
  }

  public byte[] payload() {
    return payload;
  }

  public long count() {
    return count;
  }

  public long digest() {
    return digest;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    WritableUtils.writeVInt(out, payload.length);
    if (payload.length > 0) {
      out.write(payload);
    } else {
      WritableUtils.writeVLong(out, count);
      out.writeLong(digest);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    int length = WritableUtils.readVInt(in);
    payload = new byte[length];
    if (length > 0) {
      in.readFully(payload);
      count = 0;
      digest = 0;
    } else {
      count = WritableUtils.readVLong(in);
      digest = in.readLong();
    }
  }
}
