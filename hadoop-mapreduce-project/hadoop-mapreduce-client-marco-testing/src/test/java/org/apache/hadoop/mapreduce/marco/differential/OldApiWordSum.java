/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.differential;

import java.io.IOException;
import java.util.Iterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.Mapper;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.marco.MarcoJob;
import org.apache.hadoop.mapreduce.marco.testing.OldApiJobs;

/** Old-API ({@code org.apache.hadoop.mapred}) word count, the twin of {@link WordSum}. */
public final class OldApiWordSum {
  private OldApiWordSum() {}

  /** Emits (word, 1) for every whitespace-separated word. */
  public static class TokenMapper extends MapReduceBase
      implements Mapper<LongWritable, Text, Text, LongWritable> {
    private static final LongWritable ONE = new LongWritable(1);
    private final Text word = new Text();

    @Override
    public void map(
        LongWritable offset, Text line, OutputCollector<Text, LongWritable> out, Reporter reporter)
        throws IOException {
      for (String token : line.toString().split("\\s+")) {
        if (!token.isEmpty()) {
          word.set(token);
          out.collect(word, ONE);
        }
      }
    }
  }

  /** Sums the counts of a word. */
  public static class SumReducer extends MapReduceBase
      implements Reducer<Text, LongWritable, Text, LongWritable> {
    @Override
    public void reduce(
        Text word,
        Iterator<LongWritable> counts,
        OutputCollector<Text, LongWritable> out,
        Reporter reporter)
        throws IOException {
      long total = 0;
      while (counts.hasNext()) {
        total += counts.next().get();
      }
      out.collect(word, new LongWritable(total));
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
    JobConf job = new JobConf(conf);
    job.setJobName("old-api-word-sum");
    job.setMapperClass(TokenMapper.class);
    job.setReducerClass(SumReducer.class);
    if (combiner) {
      job.setCombinerClass(SumReducer.class);
    }
    if (partialReducer) {
      MarcoJob.setPartialReducerClass(job, SumReducer.class);
    }
    return WordSum.withInputOutput(OldApiJobs.asJob(job), input, output, reducers);
  }
}
