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
 * A node's from_list and to_list (sorted, duplicate-free node ids). Union keeps both sorted, so
 * the printed form {@code from{1,5}:to{2}} is the same whatever order partial lists merge in.
 */
public class AdjacencyWritable implements Writable {
  private long[] from = new long[0];
  private long[] to = new long[0];

  public void set(long[] sortedFrom, long[] sortedTo) {
    from = sortedFrom;
    to = sortedTo;
  }

  public long[] from() {
    return from;
  }

  public long[] to() {
    return to;
  }

  public void unionWith(AdjacencyWritable other) {
    from = union(from, other.from);
    to = union(to, other.to);
  }

  /** Sorted union of two sorted duplicate-free arrays. */
  static long[] union(long[] a, long[] b) {
    long[] out = new long[a.length + b.length];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < a.length || j < b.length) {
      long next;
      if (j == b.length || (i < a.length && a[i] < b[j])) {
        next = a[i++];
      } else if (i == a.length || b[j] < a[i]) {
        next = b[j++];
      } else {
        next = a[i++];
        j++;
      }
      out[n++] = next;
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }

  @Override
  public void write(DataOutput out) throws IOException {
    writeIds(out, from);
    writeIds(out, to);
  }

  private static void writeIds(DataOutput out, long[] ids) throws IOException {
    WritableUtils.writeVInt(out, ids.length);
    for (long id : ids) {
      WritableUtils.writeVLong(out, id);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    from = readIds(in);
    to = readIds(in);
  }

  private static long[] readIds(DataInput in) throws IOException {
    long[] ids = new long[WritableUtils.readVInt(in)];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = WritableUtils.readVLong(in);
    }
    return ids;
  }

  @Override
  public String toString() {
    return "from" + braces(from) + ":to" + braces(to);
  }

  private static String braces(long[] ids) {
    StringBuilder s = new StringBuilder("{");
    for (int i = 0; i < ids.length; i++) {
      s.append(i == 0 ? "" : ",").append(ids[i]);
    }
    return s.append('}').toString();
  }
}
