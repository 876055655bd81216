/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.marco.benchmarks.io.MovieRatings;

/**
 * The k cluster centroids of k-means and classification: each centroid is a movie (its ratings
 * line), cluster id = position. They travel in the job configuration under {@value #KEY} as
 * newline-separated ratings lines, so every map task sees the same centroids without side files.
 */
public final class Centroids {
  public static final String KEY = "marco.benchmarks.centroids";
  public static final String K = "marco.benchmarks.k";
  public static final int DEFAULT_K = 6;

  private final List<String> lines;
  private final MovieRatings[] movies;

  public Centroids(List<String> lines) {
    this.lines = List.copyOf(lines);
    this.movies = new MovieRatings[lines.size()];
    for (int i = 0; i < movies.length; i++) {
      movies[i] = MovieRatings.parse(lines.get(i));
    }
  }

  public int size() {
    return movies.length;
  }

  public MovieRatings centroid(int cluster) {
    return movies[cluster];
  }

  public String line(int cluster) {
    return lines.get(cluster);
  }

  /** The closest centroid by cosine similarity; ties go to the lowest cluster id. */
  public int nearest(MovieRatings movie, double[] similarityOut) {
    int best = 0;
    double bestSimilarity = Double.NEGATIVE_INFINITY;
    for (int c = 0; c < movies.length; c++) {
      double s = movie.cosine(movies[c]);
      if (s > bestSimilarity) {
        best = c;
        bestSimilarity = s;
      }
    }
    similarityOut[0] = bestSimilarity;
    return best;
  }

  /** The largest (1 - cosine) between a centroid here and the same cluster's centroid there. */
  public double maxMovement(Centroids previous) {
    double max = 0;
    for (int c = 0; c < movies.length; c++) {
      max = Math.max(max, 1.0 - movies[c].cosine(previous.movies[c]));
    }
    return max;
  }

  public void store(Configuration conf) {
    conf.set(KEY, String.join("\n", lines));
  }

  /** Unless the job already has centroids, gives it the first k movies of its first input. */
  public static void configure(Job job) throws IOException {
    Configuration conf = job.getConfiguration();
    if (conf.get(KEY) == null) {
      firstMovies(conf, FileInputFormat.getInputPaths(job)[0], conf.getInt(K, DEFAULT_K))
          .store(conf);
    }
  }

  /** The centroids a job was configured with; fails with the fix when there are none. */
  public static Centroids load(Configuration conf) {
    String value = conf.get(KEY);
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(
          "No centroids configured under "
              + KEY
              + ": run the job through its Tool (k-means or classification), which sets them.");
    }
    return new Centroids(Arrays.asList(value.split("\n")));
  }

  /**
   * The first k movies with at least one rating in the input (files in name order): the paper's
   * "random starting values", since the generator writes movies in random order.
   */
  public static Centroids firstMovies(Configuration conf, Path input, int k) throws IOException {
    if (k < 1) {
      throw new IllegalArgumentException(K + " must be at least 1, got " + k);
    }
    FileSystem fs = input.getFileSystem(conf);
    List<String> chosen = new ArrayList<>();
    for (Path file : dataFiles(fs, input)) {
      try (BufferedReader in =
          new BufferedReader(new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null && chosen.size() < k; line = in.readLine()) {
          String movieLine = line.substring(line.indexOf('\t') + 1);
          if (MovieRatings.parse(movieLine).size() > 0) {
            chosen.add(movieLine);
          }
        }
      }
      if (chosen.size() == k) {
        return new Centroids(chosen);
      }
    }
    throw new IllegalArgumentException(
        "The input "
            + input
            + " has only "
            + chosen.size()
            + " movies with ratings, fewer than k="
            + k
            + "; generate more data or lower -D "
            + K);
  }

  private static List<Path> dataFiles(FileSystem fs, Path input) throws IOException {
    List<Path> files = new ArrayList<>();
    FileStatus status = fs.getFileStatus(input);
    if (status.isFile()) {
      files.add(input);
      return files;
    }
    for (FileStatus child : fs.listStatus(input)) {
      String name = child.getPath().getName();
      if (child.isFile() && !name.startsWith("_") && !name.startsWith(".")) {
        files.add(child.getPath());
      }
    }
    files.sort(null);
    return files;
  }
}
