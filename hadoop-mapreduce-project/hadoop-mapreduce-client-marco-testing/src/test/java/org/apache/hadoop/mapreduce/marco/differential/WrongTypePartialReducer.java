/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.differential;

import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * A partial reducer that breaks the contract: it reads the word-count map output (Text,
 * LongWritable) but writes Text values. MaRCO must refuse it before any invocation.
 */
public class WrongTypePartialReducer extends Reducer<Text, LongWritable, Text, Text> {
  @Override
  protected void reduce(Text key, Iterable<LongWritable> values, Context context)
      throws IOException, InterruptedException {
    long total = 0;
    for (LongWritable value : values) {
      total += value.get();
    }
    context.write(key, new Text(Long.toString(total)));
  }
}
