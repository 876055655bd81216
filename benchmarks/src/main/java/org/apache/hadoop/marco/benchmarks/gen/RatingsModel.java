/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.gen;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;

/**
 * gen-ratings: Netflix-style lines {@code movie_id:rater_rating,rater_rating,...}, raters in
 * ascending id order. A movie's number of ratings is Pareto (heavy-tailed popularity):
 * {@code min / U^(1/alpha)}, alpha {@value #ALPHA} (default 1.2), at least {@value #MIN_RATINGS}
 * (default 20), capped at {@value #MAX_RATINGS} (default 20000) and at half the raters. Raters
 * are drawn Zipf (exponent 0.9) among {@value #RATERS} (default 480189, as in the Netflix Prize
 * data), so a few raters are very active. Ratings follow the Netflix Prize skew (1: 4.6%, 2:
 * 10.1%, 3: 28.7%, 4: 33.6%, 5: 23.0%), moved one star up or down with a per-movie probability
 * (a movie's "quality"), so movie averages spread over the histogram bins. Movie ids are dense:
 * task t writes t+1, t+1+M, t+1+2M, ...
 */
public class RatingsModel implements DataModel {
  public static final String RATERS = "marco.gen.ratings.raters";
  public static final int DEFAULT_RATERS = 480189;
  public static final String MIN_RATINGS = "marco.gen.ratings.min";
  public static final int DEFAULT_MIN_RATINGS = 20;
  public static final String MAX_RATINGS = "marco.gen.ratings.max";
  public static final int DEFAULT_MAX_RATINGS = 20000;
  public static final String ALPHA = "marco.gen.ratings.alpha";
  public static final double DEFAULT_ALPHA = 1.2;
  static final double RATER_EXPONENT = 0.9;

  /** Cumulative Netflix Prize rating shares for 1..5 stars. */
  private static final double[] RATING_CDF = {0.046, 0.147, 0.434, 0.770, 1.0};

  @Override
  public void generate(TaskSpec task, RecordSink sink) throws IOException {
    Configuration conf = task.conf();
    int raters = conf.getInt(RATERS, DEFAULT_RATERS);
    int min = conf.getInt(MIN_RATINGS, DEFAULT_MIN_RATINGS);
    int max = Math.min(conf.getInt(MAX_RATINGS, DEFAULT_MAX_RATINGS), raters / 2);
    double alpha = conf.getDouble(ALPHA, DEFAULT_ALPHA);
    if (raters < 2 || min < 1 || max < min || !(alpha > 0)) {
      throw new IllegalArgumentException(
          "gen-ratings needs "
              + RATERS
              + " >= 2, 1 <= "
              + MIN_RATINGS
              + " <= "
              + MAX_RATINGS
              + " <= raters/2 and "
              + ALPHA
              + " > 0; got "
              + raters
              + ", "
              + min
              + ", "
              + max
              + ", "
              + alpha);
    }
    SplittableRandom random = task.random();
    ZipfSampler raterSampler = new ZipfSampler(raters, RATER_EXPONENT);
    StringBuilder line = new StringBuilder();
    for (long movie = task.taskIndex() + 1; !sink.full(); movie += task.numTasks()) {
      int count =
          (int) Math.min(max, Math.floor(min / Math.pow(1.0 - random.nextDouble(), 1.0 / alpha)));
      double quality = Math.max(-1, Math.min(1, random.nextGaussian() * 0.5));
      int[] chosen = distinctRaters(random, raterSampler, count);
      line.setLength(0);
      line.append(movie).append(':');
      for (int i = 0; i < chosen.length; i++) {
        line.append(i == 0 ? "" : ",")
            .append(chosen[i])
            .append('_')
            .append(rating(random, quality));
      }
      sink.emitLine(line);
    }
  }

  /** {@code count} distinct rater ids (Zipf ranks shifted to 0-based), sorted. */
  private static int[] distinctRaters(SplittableRandom random, ZipfSampler sampler, int count) {
    Set<Integer> seen = new HashSet<>();
    int[] ids = new int[count];
    int n = 0;
    while (n < count) {
      int id = (int) sampler.sample(random) - 1;
      if (seen.add(id)) {
        ids[n++] = id;
      }
    }
    Arrays.sort(ids);
    return ids;
  }

  /** A star rating from the skewed base distribution, shifted by the movie's quality. */
  static int rating(SplittableRandom random, double quality) {
    double u = random.nextDouble();
    int stars = 1;
    while (u > RATING_CDF[stars - 1]) {
      stars++;
    }
    if (random.nextDouble() < Math.abs(quality)) {
      stars += quality > 0 ? 1 : -1;
    }
    return Math.max(1, Math.min(5, stars));
  }

  public static void main(String[] args) throws Exception {
    GeneratorTool.main("gen-ratings", RatingsModel.class, args);
  }
}
