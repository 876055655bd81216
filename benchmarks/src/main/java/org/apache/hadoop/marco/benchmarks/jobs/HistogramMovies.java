/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.marco.benchmarks.BenchmarkJob;
import org.apache.hadoop.marco.benchmarks.io.MovieRatings;
import org.apache.hadoop.util.ToolRunner;

/**
 * histogram-movies (shuffle-light): bins every movie by its average rating into 8 bins of width
 * 0.5 over [1, 5] (an average of exactly 5 falls into the last bin); combiner, partial reducer and
 * reducer sum. Output: {@code 3.5-4.0 <TAB> movies}. The paper uses 8 reducers.
 */
public class HistogramMovies extends BenchmarkJob {
  static final int BINS = 8;

  /** The label of the bin an average rating falls into. */
  public static String binLabel(double average) {
    int bin = Math.max(0, Math.min(BINS - 1, (int) Math.floor((average - 1.0) / 0.5)));
    double low = 1.0 + bin * 0.5;
    return String.format("%.1f-%.1f", low, low + 0.5);
  }

  /** Emits (bin of the movie's average rating, 1); movies without ratings have no average. */
  public static class BinMapper extends Mapper<Object, Text, Text, LongWritable> {
    private static final LongWritable ONE = new LongWritable(1);
    private final Text bin = new Text();

    @Override
    protected void map(Object key, Text value, Context context)
        throws IOException, InterruptedException {
      MovieRatings movie = MovieRatings.parse(value);
      if (movie.size() > 0) {
        bin.set(binLabel(movie.averageRating()));
        context.write(bin, ONE);
      }
    }
  }

  /** Sums movies per bin: combiner, partial reducer and final reducer. */
  public static class SumReducer extends LongSumReducer<Text> {}

  @Override
  public String programName() {
    return "histogram-movies";
  }

  @Override
  protected void configure(Job job, String[] extraArgs) {
    job.setMapperClass(BinMapper.class);
    LongSumReducer.sumEverywhere(job, SumReducer.class, Text.class);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new HistogramMovies(), args));
  }
}
