/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.marco.MarcoJob;
import org.apache.hadoop.marco.benchmarks.BenchmarkJob;
import org.apache.hadoop.marco.benchmarks.io.MovieRatings;
import org.apache.hadoop.util.ToolRunner;

/**
 * classification (shuffle-light): assigns every movie to the nearest of k fixed centroids by
 * cosine similarity and emits (centroid, movie_id); no combiner; partial reducer is identity; the
 * reducer lists a cluster's movies. Centroids: {@code -D marco.benchmarks.centroids} if set, else
 * the first k movies of the input ({@code -D marco.benchmarks.k}, default 6, the paper's k).
 */
public class Classification extends BenchmarkJob {

  /** Emits (nearest centroid, movie id). */
  public static class MovieIdMapper extends NearestCentroidMapper<LongWritable> {
    private final LongWritable movieId = new LongWritable();

    @Override
    protected LongWritable valueFor(MovieRatings movie, double similarity, Text line) {
      movieId.set(movie.movieId());
      return movieId;
    }
  }

  /** Identity partial reducer. */
  public static class MovieIdentity extends IdentityReducer<IntWritable, LongWritable> {}

  /**
   * Identity reduce whose output does not depend on the order the values arrive in: a cluster's
   * movie ids are emitted in ascending order.
   */
  public static class SortedMoviesReducer
      extends Reducer<IntWritable, LongWritable, IntWritable, LongWritable> {
    private final LongWritable out = new LongWritable();

    @Override
    protected void reduce(IntWritable key, Iterable<LongWritable> values, Context context)
        throws IOException, InterruptedException {
      long[] ids = new long[16];
      int n = 0;
      for (LongWritable v : values) {
        if (n == ids.length) {
          ids = Arrays.copyOf(ids, n * 2);
        }
        ids[n++] = v.get();
      }
      Arrays.sort(ids, 0, n);
      for (int i = 0; i < n; i++) {
        out.set(ids[i]);
        context.write(key, out);
      }
    }
  }

  @Override
  public String programName() {
    return "classification";
  }

  @Override
  protected void configure(Job job, String[] extraArgs) throws IOException {
    Centroids.configure(job);
    job.setMapperClass(MovieIdMapper.class);
    MarcoJob.setPartialReducerClass(job, MovieIdentity.class);
    job.setReducerClass(SortedMoviesReducer.class);
    job.setOutputKeyClass(IntWritable.class);
    job.setOutputValueClass(LongWritable.class);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Classification(), args));
  }
}
