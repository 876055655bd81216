/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import java.io.IOException;
import java.util.Arrays;
import java.util.TreeSet;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * The paper's light combiner for self-join and adjacency-list: drops duplicate values of a key
 * within one map output and forwards the rest unchanged. Values are compared by their serialized
 * bytes, so any Writable with a deterministic encoding works.
 */
public class DistinctValuesCombiner<K, V extends Writable> extends Reducer<K, V, K, V> {
  private final DataOutputBuffer buffer = new DataOutputBuffer();
  private final DataInputBuffer input = new DataInputBuffer();

  @Override
  protected void reduce(K key, Iterable<V> values, Context context)
      throws IOException, InterruptedException {
    TreeSet<BytesWritable> distinct = new TreeSet<>();
    V copy = null;
    for (V v : values) {
      if (copy == null) {
        @SuppressWarnings("unchecked")
        V fresh = (V) ReflectionUtils.newInstance(v.getClass(), context.getConfiguration());
        copy = fresh;
      }
      buffer.reset();
      v.write(buffer);
      distinct.add(new BytesWritable(Arrays.copyOf(buffer.getData(), buffer.getLength())));
    }
    for (BytesWritable bytes : distinct) {
      input.reset(bytes.getBytes(), bytes.getLength());
      copy.readFields(input);
      context.write(key, copy);
    }
  }
}
