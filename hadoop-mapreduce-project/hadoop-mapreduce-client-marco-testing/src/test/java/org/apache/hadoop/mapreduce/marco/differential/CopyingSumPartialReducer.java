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
 * keeps a record of about 4 KB for every value in a list first, as a reducer that builds wide
 * records per value would. Its working memory grows with the group, which the job's streaming
 * final reducer never needs; with a few huge groups it is the partial reducer that would run a
 * reduce out of memory next to the shuffle's buffers.
 */
public class CopyingSumPartialReducer extends Reducer<Text, LongWritable, Text, LongWritable> {
  /** What is kept per value: enough that a few hundred values fill a megabyte. */
  private static final int BYTES_KEPT_PER_VALUE = 4096;

  @Override
  protected void reduce(Text key, Iterable<LongWritable> values, Context context)
      throws IOException, InterruptedException {
    List<long[]> copies = new ArrayList<>();
    for (LongWritable v : values) {
      long[] copy = new long[BYTES_KEPT_PER_VALUE / Long.BYTES];
      copy[0] = v.get();
      copies.add(copy);
    }
    long sum = 0;
    for (long[] copy : copies) {
      sum += copy[0];
    }
    context.write(key, new LongWritable(sum));
  }
}
