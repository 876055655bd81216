/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import java.io.IOException;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.marco.benchmarks.io.MovieRatings;

/**
 * The map of k-means and classification: finds a movie's nearest centroid by cosine similarity
 * (the centroids come from the job configuration) and lets the job decide what to emit for it.
 */
public abstract class NearestCentroidMapper<V> extends Mapper<Object, Text, IntWritable, V> {
  private Centroids centroids;
  private final double[] similarity = new double[1];
  private final IntWritable cluster = new IntWritable();

  @Override
  protected void setup(Context context) {
    centroids = Centroids.load(context.getConfiguration());
  }

  @Override
  protected void map(Object key, Text value, Context context)
      throws IOException, InterruptedException {
    MovieRatings movie = MovieRatings.parse(value);
    cluster.set(centroids.nearest(movie, similarity));
    context.write(cluster, valueFor(movie, similarity[0], value));
  }

  /** The map-output value for {@code movie}, read from {@code line}, at this similarity. */
  protected abstract V valueFor(MovieRatings movie, double similarity, Text line);
}
