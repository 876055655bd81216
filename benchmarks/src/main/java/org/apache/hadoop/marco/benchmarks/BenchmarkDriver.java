/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks;

import org.apache.hadoop.marco.benchmarks.engine.MergeThroughput;
import org.apache.hadoop.marco.benchmarks.faults.KillRunningReduce;
import org.apache.hadoop.marco.benchmarks.gen.BinaryModel;
import org.apache.hadoop.marco.benchmarks.gen.GraphModel;
import org.apache.hadoop.marco.benchmarks.gen.InvertedIndexModel;
import org.apache.hadoop.marco.benchmarks.gen.RatingsModel;
import org.apache.hadoop.marco.benchmarks.gen.SelfJoinModel;
import org.apache.hadoop.marco.benchmarks.gen.TextModel;
import org.apache.hadoop.util.ProgramDriver;

/**
 * {@code hadoop jar hadoop-marco-benchmarks.jar <program> [args]}: the paper's MapReductions
 * and their data generators, listed the way Hadoop's examples jar lists its programs.
 */
public final class BenchmarkDriver {
  private BenchmarkDriver() {}

  public static void main(String[] args) {
    ProgramDriver driver = new ProgramDriver();
    int exitCode = -1;
    try {
      driver.addClass(
          "binary-sort",
          BinarySort.class,
          "Shuffle-heavy: sorts 100-byte records on 10-byte keys (input: gen-binary).");
      driver.addClass(
          "term-vector",
          TermVector.class,
          "Shuffle-heavy: frequent words per host with counts (input: gen-text).");
      driver.addClass(
          "inverted-index",
          InvertedIndex.class,
          "Shuffle-heavy: posting lists by decreasing count (input: gen-inverted-index).");
      driver.addClass(
          "self-join",
          SelfJoin.class,
          "Shuffle-heavy: k+1 candidates from k-candidate lists (input: gen-self-join).");
      driver.addClass(
          "adjacency-list",
          AdjacencyList.class,
          "Shuffle-heavy: from- and to-lists of every node (input: gen-graph).");
      driver.addClass(
          "k-means",
          KMeans.class,
          "Shuffle-heavy: k-means clustering of movies, iterated (input: gen-ratings).");
      driver.addClass(
          "word-count",
          WordCount.class,
          "Shuffle-light: counts the words of the input (input: gen-text).");
      driver.addClass("wordcount", WordCount.class, "Alias of word-count.");
      driver.addClass(
          "classification",
          Classification.class,
          "Shuffle-light: movies by nearest fixed centroid (input: gen-ratings).");
      driver.addClass(
          "grep",
          Grep.class,
          "Shuffle-light: lines matching a regular expression (input: gen-text).");
      driver.addClass(
          "histogram-movies",
          HistogramMovies.class,
          "Shuffle-light: movies by average rating in 8 bins (input: gen-ratings).");
      driver.addClass(
          "histogram-ratings",
          HistogramRatings.class,
          "Shuffle-light: ratings 1-5 counted (input: gen-ratings).");
      driver.addClass(
          "gen-binary", BinaryModel.class, "Generates 100-byte records with random 10-byte keys.");
      driver.addClass(
          "gen-text",
          TextModel.class,
          "Generates Zipf-distributed English text in documents and hosts.");
      driver.addClass(
          "gen-inverted-index",
          InvertedIndexModel.class,
          "Generates word:file<TAB>n lines from gen-text's documents.");
      driver.addClass(
          "gen-ratings",
          RatingsModel.class,
          "Generates Netflix-style movie_id:rater_rating,... lines.");
      driver.addClass(
          "gen-self-join",
          SelfJoinModel.class,
          "Generates k=5 sorted candidate lists with shared prefixes.");
      driver.addClass(
          "gen-graph",
          GraphModel.class,
          "Generates a power-law directed graph (mean out-degree 7.2) as edge lines.");
      driver.addClass(
          "merge-throughput",
          MergeThroughput.class,
          "Reduce-side merge throughput: Hadoop's MergeManagerImpl vs MaRCO, side by side.");
      driver.addClass(
          "kill-running-reduce",
          KillRunningReduce.class,
          "Fault injection: kills a running reduce attempt of a job after a delay.");
      exitCode = driver.run(args);
    } catch (Throwable e) {
      e.printStackTrace();
    }
    System.exit(exitCode);
  }
}
