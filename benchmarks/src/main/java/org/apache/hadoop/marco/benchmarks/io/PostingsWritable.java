/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.io;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;

/**
 * A posting list {n1:file1, n2:file2, ...} of one word. {@link #sort()} puts it into the
 * inverted index's order, decreasing n and then file name, which fixes the output whatever order
 * the partial lists arrive in.
 */
public class PostingsWritable implements Writable {
  /** One file containing the word n times. */
  public record Posting(long count, String file) {}

  private static final Comparator<Posting> INDEX_ORDER =
      Comparator.comparingLong(Posting::count).reversed().thenComparing(Posting::file);

  private final List<Posting> postings = new ArrayList<>();

  public void clear() {
    postings.clear();
  }

  public void add(long count, String file) {
    postings.add(new Posting(count, file));
  }

  public void addAll(PostingsWritable other) {
    postings.addAll(other.postings);
  }

  public void sort() {
    postings.sort(INDEX_ORDER);
  }

  public List<Posting> postings() {
    return postings;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    WritableUtils.writeVInt(out, postings.size());
    for (Posting p : postings) {
      WritableUtils.writeVLong(out, p.count());
      Text.writeString(out, p.file());
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    postings.clear();
    int n = WritableUtils.readVInt(in);
    for (int i = 0; i < n; i++) {
      long count = WritableUtils.readVLong(in);
      postings.add(new Posting(count, Text.readString(in)));
    }
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder();
    for (Posting p : postings) {
      s.append(s.length() == 0 ? "" : ",").append(p.count()).append(':').append(p.file());
    }
    return s.toString();
  }
}
