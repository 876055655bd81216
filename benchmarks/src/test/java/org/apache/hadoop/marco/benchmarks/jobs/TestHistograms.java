/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import static org.junit.Assert.assertEquals;

import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.marco.testing.JobFunctions;
import org.apache.hadoop.mapreduce.marco.testing.PartialReducerChecker;
import org.apache.hadoop.marco.benchmarks.GeneratedData;
import org.apache.hadoop.marco.benchmarks.gen.Budget;
import org.apache.hadoop.marco.benchmarks.gen.RatingsModel;
import org.junit.Test;

public class TestHistograms {
  private static final List<Writable[]> MOVIES =
      GeneratedData.textInput(
          List.of(
              "1:10_5,11_5,12_4", // average 4.67 -> 4.5-5.0
              "2:10_1,13_2", // average 1.5 -> 1.5-2.0
              "3:11_5", // average 5.0 -> last bin
              "4:")); // no ratings: no average, not binned

  static List<Writable[]> generatedRatings(long seed) throws Exception {
    Configuration conf = new Configuration();
    conf.setInt(RatingsModel.RATERS, 2000);
    conf.setInt(RatingsModel.MAX_RATINGS, 200);
    return GeneratedData.textInput(
        GeneratedData.lines(
            GeneratedData.generate(
                new RatingsModel(), conf, seed, 2, new Budget(Budget.Unit.RECORDS, 150))));
  }

  @Test
  public void binsCoverOneToFiveInHalves() {
    assertEquals("1.0-1.5", HistogramMovies.binLabel(1.0));
    assertEquals("3.5-4.0", HistogramMovies.binLabel(3.99));
    assertEquals("4.5-5.0", HistogramMovies.binLabel(5.0));
  }

  @Test
  public void histogramMoviesBinsByAverageAndSums() throws Exception {
    JobFunctions job = BenchmarkFunctions.of(new HistogramMovies(), new Configuration());
    var mapped = job.map(MOVIES);
    assertEquals(List.of("4.5-5.0\t1", "1.5-2.0\t1", "4.5-5.0\t1"), job.show(mapped));
    assertEquals(List.of("1.5-2.0\t1", "4.5-5.0\t2"), job.show(job.combine(mapped, new Random())));
    assertEquals(List.of("1.5-2.0\t1", "4.5-5.0\t2"), job.reduce(mapped, new Random()));
  }

  @Test
  public void histogramRatingsCountsEveryRating() throws Exception {
    JobFunctions job = BenchmarkFunctions.of(new HistogramRatings(), new Configuration());
    var mapped = job.map(MOVIES);
    assertEquals(6, mapped.size());
    assertEquals(
        List.of("1\t1", "2\t1", "4\t1", "5\t3"), job.show(job.partialReduce(mapped, new Random())));
    assertEquals(List.of("1\t1", "2\t1", "4\t1", "5\t3"), job.reduce(mapped, new Random()));
  }

  @Test
  public void partialReduceAlgebraHoldsForBothHistograms() throws Exception {
    List<Writable[]> ratings = generatedRatings(4);
    PartialReducerChecker.of(BenchmarkFunctions.of(new HistogramMovies(), new Configuration()))
        .mapInput(ratings)
        .maps(3)
        .trials(10)
        .seed(1)
        .check();
    List<String> out =
        PartialReducerChecker.of(BenchmarkFunctions.of(new HistogramRatings(), new Configuration()))
            .mapInput(ratings)
            .maps(3)
            .trials(10)
            .seed(2)
            .check();
    assertEquals(5, out.size());
  }
}
