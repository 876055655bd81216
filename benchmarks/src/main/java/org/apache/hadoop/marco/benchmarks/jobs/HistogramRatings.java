/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import java.io.IOException;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.marco.benchmarks.BenchmarkJob;
import org.apache.hadoop.marco.benchmarks.io.MovieRatings;
import org.apache.hadoop.util.ToolRunner;

/**
 * histogram-ratings (shuffle-light): counts the ratings 1..5 (5 bins); the map emits (rating, 1)
 * per rating, combiner, partial reducer and reducer sum. The paper uses 5 reducers.
 */
public class HistogramRatings extends BenchmarkJob {

  /** Emits (rating, 1) for every rating of a movie. */
  public static class RatingMapper extends Mapper<Object, Text, IntWritable, LongWritable> {
    private static final LongWritable ONE = new LongWritable(1);
    private final IntWritable rating = new IntWritable();

    @Override
    protected void map(Object key, Text value, Context context)
        throws IOException, InterruptedException {
      MovieRatings movie = MovieRatings.parse(value);
      for (int i = 0; i < movie.size(); i++) {
        rating.set(movie.rating(i));
        context.write(rating, ONE);
      }
    }
  }

  /** Sums ratings per bin: combiner, partial reducer and final reducer. */
  public static class SumReducer extends LongSumReducer<IntWritable> {}

  @Override
  public String programName() {
    return "histogram-ratings";
  }

  @Override
  protected void configure(Job job, String[] extraArgs) {
    job.setMapperClass(RatingMapper.class);
    LongSumReducer.sumEverywhere(job, SumReducer.class, IntWritable.class);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new HistogramRatings(), args));
  }
}
