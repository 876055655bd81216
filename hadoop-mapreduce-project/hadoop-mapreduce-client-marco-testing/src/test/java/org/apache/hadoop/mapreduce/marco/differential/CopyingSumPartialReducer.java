/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.differential;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * Sums a word's counts as code that must hold all values at once does (to sort them, say): it
 * copies every value into a list first. Its working memory grows with the group, which the
 * job's streaming final reducer never needs; with a few huge groups it is the partial reducer
 * that would run a reduce out of memory next to the shuffle's buffers.
 */
public class CopyingSumPartialReducer extends Reducer<Text, LongWritable, Text, LongWritable> {
  @Override
  protected void reduce(Text key, Iterable<LongWritable> values, Context context)
      throws IOException, InterruptedException {
    List<LongWritable> copies = new ArrayList<>();
    for (LongWritable v : values) {
      copies.add(new LongWritable(v.get()));
    }
    long sum = 0;
    for (LongWritable v : copies) {
      sum += v.get();
    }
    context.write(key, new LongWritable(sum));
  }
}
