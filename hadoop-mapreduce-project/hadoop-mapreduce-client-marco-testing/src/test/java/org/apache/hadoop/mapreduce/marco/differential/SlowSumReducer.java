/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.differential;

import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;

/**
 * The word sum, slowed to 40 ms per word: as a partial reducer, an invocation of a few hundred
 * words is surely still running when the last map output arrives, so abandonment at shuffle end
 * has something to abandon.
 */
public class SlowSumReducer extends WordSum.SumReducer {
  @Override
  protected void reduce(Text word, Iterable<LongWritable> counts, Context context)
      throws IOException, InterruptedException {
    Thread.sleep(40);
    super.reduce(word, counts, context);
  }
}
