/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.io;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;

/** A term vector {word1:count1, word2:count2, ...}; adding a word twice sums its counts. */
public class TermCountsWritable implements Writable {
  private final TreeMap<String, Long> counts = new TreeMap<>();

  public void clear() {
    counts.clear();
  }

  public void add(String word, long count) {
    counts.merge(word, count, Long::sum);
  }

  public void addAll(TermCountsWritable other) {
    for (Map.Entry<String, Long> e : other.counts.entrySet()) {
      add(e.getKey(), e.getValue());
    }
  }

  /** A new term vector holding the sums of all {@code vectors}. */
  public static TermCountsWritable sum(Iterable<TermCountsWritable> vectors) {
    TermCountsWritable sums = new TermCountsWritable();
    for (TermCountsWritable v : vectors) {
      sums.addAll(v);
    }
    return sums;
  }

  /** Words in alphabetical order with their counts (a live view). */
  public Map<String, Long> counts() {
    return counts;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    WritableUtils.writeVInt(out, counts.size());
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      Text.writeString(out, e.getKey());
      WritableUtils.writeVLong(out, e.getValue());
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    counts.clear();
    int n = WritableUtils.readVInt(in);
    for (int i = 0; i < n; i++) {
      String word = Text.readString(in);
      counts.put(word, WritableUtils.readVLong(in));
    }
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder();
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      s.append(s.length() == 0 ? "" : " ").append(e.getKey()).append(':').append(e.getValue());
    }
    return s.toString();
  }
}
