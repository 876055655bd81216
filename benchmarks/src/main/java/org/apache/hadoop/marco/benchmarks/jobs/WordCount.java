/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import java.io.IOException;
import java.util.StringTokenizer;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.marco.benchmarks.BenchmarkJob;
import org.apache.hadoop.marco.benchmarks.io.DocumentLine;
import org.apache.hadoop.util.ToolRunner;

/** word-count (shuffle-light): the combiner, the partial reducer and the reducer all sum. */
public class WordCount extends BenchmarkJob {

  /** Emits (word, 1) for every whitespace-separated token of a line's text. */
  public static class TokenMapper extends Mapper<Object, Text, Text, LongWritable> {
    private static final LongWritable ONE = new LongWritable(1);
    private final Text word = new Text();

    @Override
    protected void map(Object key, Text value, Context context)
        throws IOException, InterruptedException {
      StringTokenizer tokens = new StringTokenizer(DocumentLine.words(value));
      while (tokens.hasMoreTokens()) {
        word.set(tokens.nextToken());
        context.write(word, ONE);
      }
    }
  }

  /** Sums the counts of one word: combiner, partial reducer and final reducer. */
  public static class SumReducer extends LongSumReducer<Text> {}

  @Override
  public String programName() {
    return "word-count";
  }

  @Override
  protected void configure(Job job, String[] extraArgs) {
    job.setMapperClass(TokenMapper.class);
    LongSumReducer.sumEverywhere(job, SumReducer.class, Text.class);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new WordCount(), args));
  }
}
