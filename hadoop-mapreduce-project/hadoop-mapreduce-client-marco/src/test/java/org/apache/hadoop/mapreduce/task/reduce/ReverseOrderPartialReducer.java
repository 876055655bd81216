/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * A partial reducer that breaks the contract at run time: it sums each word's counts correctly
 * but emits all its sums at the end, in reverse key order. Unchecked, its runs would be unsorted
 * and the final merge would split groups; MaRCO must catch it and keep stock's output.
 */
public class ReverseOrderPartialReducer extends Reducer<Text, LongWritable, Text, LongWritable> {
  private final Deque<Text> words = new ArrayDeque<>();
  private final Deque<Long> sums = new ArrayDeque<>();

  @Override
  protected void reduce(Text word, Iterable<LongWritable> counts, Context context) {
    long total = 0;
    for (LongWritable count : counts) {
      total += count.get();
    }
    words.push(new Text(word));
    sums.push(total);
  }

  @Override
  protected void cleanup(Context context) throws IOException, InterruptedException {
    while (!words.isEmpty()) {
      context.write(words.pop(), new LongWritable(sums.pop()));
    }
  }
}
