/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.differential;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.marco.MarcoJob;

/**
 * New-API word count: the sum is commutative and associative, so the same reducer serves as
 * combiner, partial reducer and final reducer, and the output does not depend on value order.
 */
public final class WordSum {
  private WordSum() {}

  /** Emits (word, 1) for every whitespace-separated word. */
  public static class TokenMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    private static final LongWritable ONE = new LongWritable(1);
    private final Text word = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      for (String token : line.toString().split("\\s+")) {
        if (!token.isEmpty()) {
          word.set(token);
          context.write(word, ONE);
        }
      }
    }
  }

  /** Sums the counts of a word. */
  public static class SumReducer extends Reducer<Text, LongWritable, Text, LongWritable> {
    private final LongWritable sum = new LongWritable();

    @Override
    protected void reduce(Text word, Iterable<LongWritable> counts, Context context)
        throws IOException, InterruptedException {
      long total = 0;
      for (LongWritable count : counts) {
        total += count.get();
      }
      sum.set(total);
      context.write(word, sum);
    }
  }

  /** The job; {@code combiner} and {@code partialReducer} both use {@link SumReducer}. */
  public static Job create(
      Configuration conf,
      Path input,
      Path output,
      int reducers,
      boolean combiner,
      boolean partialReducer)
      throws IOException {
    Job job = Job.getInstance(conf, "word-sum");
    job.setMapperClass(TokenMapper.class);
    job.setReducerClass(SumReducer.class);
    if (combiner) {
      job.setCombinerClass(SumReducer.class);
    }
    if (partialReducer) {
      MarcoJob.setPartialReducerClass(job, SumReducer.class);
    }
    return withInputOutput(job, input, output, reducers);
  }

  /**
   * The settings both APIs' word sums share: (Text, LongWritable) output, reducer count and paths
   * (the same configuration keys whichever API sets them).
   */
  static Job withInputOutput(Job job, Path input, Path output, int reducers) throws IOException {
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(LongWritable.class);
    job.setNumReduceTasks(reducers);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }
}
