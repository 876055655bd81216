/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.io;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.NavigableSet;
import java.util.TreeSet;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;

/** A sorted set of strings (self-join's candidate elements); union is the merge. */
public class StringSetWritable implements Writable {
  private final TreeSet<String> elements = new TreeSet<>();

  public void clear() {
    elements.clear();
  }

  public void add(String element) {
    elements.add(element);
  }

  public void addAll(StringSetWritable other) {
    elements.addAll(other.elements);
  }

  public NavigableSet<String> elements() {
    return elements;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    WritableUtils.writeVInt(out, elements.size());
    for (String e : elements) {
      Text.writeString(out, e);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    elements.clear();
    int n = WritableUtils.readVInt(in);
    for (int i = 0; i < n; i++) {
      elements.add(Text.readString(in));
    }
  }

  @Override
  public String toString() {
    return String.join(" ", elements);
  }
}
