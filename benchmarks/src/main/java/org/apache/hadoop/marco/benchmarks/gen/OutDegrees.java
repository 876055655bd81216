/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.gen;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The paper's out-degree law, P(i) proportional to 1/i^2. Without a cutoff the mean diverges;
 * {@link #CUTOFF} is the smallest largest degree D with sum(1/i)/sum(1/i^2) over 1..D reaching
 * 7.2 (D = 78137), so the distribution's mean is the paper's 7.2.
 */
public final class OutDegrees {
  public static final double MEAN = 7.2;
  public static final int CUTOFF;
  private static final double[] CDF;

  static {
    double harmonic = 0;
    double squares = 0;
    int d = 0;
    while (harmonic / Math.max(squares, 1e-300) < MEAN) {
      d++;
      harmonic += 1.0 / d;
      squares += 1.0 / ((double) d * d);
    }
    CUTOFF = d;
    CDF = new double[d];
    double cumulative = 0;
    for (int i = 1; i <= d; i++) {
      cumulative += 1.0 / ((double) i * i) / squares;
      CDF[i - 1] = cumulative;
    }
    CDF[d - 1] = 1.0;
  }

  private OutDegrees() {}

  /** The exact mean of the distribution (sum of i * P(i)). */
  public static double exactMean() {
    double mean = 0;
    double previous = 0;
    for (int i = 1; i <= CUTOFF; i++) {
      mean += i * (CDF[i - 1] - previous);
      previous = CDF[i - 1];
    }
    return mean;
  }

  /** An out-degree in 1..CUTOFF. */
  public static int sample(SplittableRandom random) {
    return inverse(random.nextDouble());
  }

  /** The out-degree at cumulative probability {@code u} in [0, 1). */
  public static int inverse(double u) {
    int index = Arrays.binarySearch(CDF, u);
    return Math.min(CUTOFF, (index >= 0 ? index : -index - 1) + 1);
  }
}
