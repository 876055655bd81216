/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.marco.testing.JobFunctions;
import org.apache.hadoop.mapreduce.marco.testing.PartialReducerChecker;
import org.apache.hadoop.marco.benchmarks.GeneratedData;
import org.apache.hadoop.marco.benchmarks.io.ClusterMembersWritable;
import org.apache.hadoop.marco.benchmarks.io.MovieRatings;
import org.junit.Test;

public class TestClassificationAndKMeans {
  private static final List<String> CENTROIDS = List.of("100:1_5,2_5", "200:3_5,4_5");
  private static final List<Writable[]> MOVIES =
      GeneratedData.textInput(
          List.of(
              "7:1_4,2_5", // like centroid 0
              "8:3_1,4_2,5_5", // like centroid 1
              "9:1_3", // like centroid 0, less so
              "6:9_5")); // like neither: ties go to cluster 0

  private static Configuration withCentroids() {
    Configuration conf = new Configuration();
    new Centroids(CENTROIDS).store(conf);
    return conf;
  }

  @Test
  public void cosineSimilarityOfRatingVectors() {
    MovieRatings a = MovieRatings.parse("1:1_3,2_4");
    MovieRatings b = MovieRatings.parse("2:2_4,1_3");
    assertEquals(1.0, a.cosine(b), 1e-12);
    assertEquals(0.0, a.cosine(MovieRatings.parse("3:5_5")), 0);
    assertEquals(16.0 / (5 * 4), a.cosine(MovieRatings.parse("4:2_4")), 1e-12);
  }

  @Test
  public void classificationEmitsNearestCentroidAndSortedMovies() throws Exception {
    JobFunctions job = BenchmarkFunctions.of(new Classification(), withCentroids());
    var mapped = job.map(MOVIES);
    assertEquals(List.of("0\t7", "1\t8", "0\t9", "0\t6"), job.show(mapped));
    assertEquals(4, job.partialReduce(mapped, new Random(3)).size());
    assertEquals(List.of("0\t6", "0\t7", "0\t9", "1\t8"), job.reduce(mapped, new Random(4)));
  }

  @Test
  public void kmeansReducerPicksTheMovieClosestToTheAverageSimilarity() throws Exception {
    JobFunctions job = BenchmarkFunctions.of(new KMeans(), withCentroids());
    var mapped = job.map(MOVIES);
    var partial = job.partialReduce(mapped, new Random(5));
    assertEquals("one partial value per cluster", 2, partial.size());
    List<String> out = job.reduce(partial, new Random(6));
    assertEquals(List.of("0\t6:9_5", "0\t7:1_4,2_5", "0\t9:1_3", "1\t8:3_1,4_2,5_5"), out);
  }

  @Test
  public void newCentroidIsTheMovieClosestToTheAverageSimilarity() {
    ClusterMembersWritable cluster = new ClusterMembersWritable();
    // similarities 0.994 (7), 0.707 (9), 0 (6): average 0.567, closest is movie 9.
    cluster.addMember(7, ClusterMembersWritable.toFixed(0.994), new byte[0]);
    cluster.addMember(9, ClusterMembersWritable.toFixed(0.707), new byte[0]);
    cluster.addMember(6, 0, new byte[0]);
    assertEquals(9, KMeans.closestToAverage(cluster).movieId());
    ClusterMembersWritable tie = new ClusterMembersWritable();
    tie.addMember(5, ClusterMembersWritable.toFixed(0.5), new byte[0]);
    tie.addMember(3, ClusterMembersWritable.toFixed(0.5), new byte[0]);
    assertEquals("ties go to the lowest movie id", 3, KMeans.closestToAverage(tie).movieId());
  }

  @Test
  public void centroidsMoveByOneMinusCosine() {
    Centroids previous = new Centroids(CENTROIDS);
    assertEquals(0.0, previous.maxMovement(previous), 1e-12);
    Centroids next = new Centroids(List.of("100:1_5,2_5", "300:9_1"));
    assertEquals(1.0, next.maxMovement(previous), 1e-12);
  }

  @Test
  public void partialReduceAlgebraHoldsOnGeneratedRatings() throws Exception {
    List<Writable[]> ratings = TestHistograms.generatedRatings(9);
    List<String> firstSix = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      firstSix.add(ratings.get(i)[1].toString());
    }
    Configuration conf = new Configuration();
    new Centroids(firstSix).store(conf);
    List<String> classes =
        PartialReducerChecker.of(BenchmarkFunctions.of(new Classification(), conf))
            .mapInput(ratings)
            .maps(3)
            .trials(10)
            .seed(1)
            .check();
    List<String> clusters =
        PartialReducerChecker.of(BenchmarkFunctions.of(new KMeans(), conf))
            .mapInput(ratings)
            .maps(3)
            .trials(10)
            .seed(2)
            .check();
    assertEquals(ratings.size(), classes.size());
    assertEquals(ratings.size(), clusters.size());
    assertTrue(clusters.get(0).startsWith("0\t"));
  }
}
