/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.gen;

import java.util.SplittableRandom;

/**
 * Draws ranks 1..n with P(k) proportional to 1/k^s in constant time and memory, by rejection
 * inversion (Hoermann and Derflinger, "Rejection-inversion to generate variates from monotone
 * discrete distributions", 1996): invert the integral of the continuous density x^-s and accept
 * when the point falls under the step of the discrete one.
 */
public final class ZipfSampler {
  private final long n;
  private final double exponent;
  private final double integralAtOneHalf;
  private final double integralAtN;
  private final double acceptShortcut;

  public ZipfSampler(long n, double exponent) {
    if (n < 1 || !(exponent > 0)) {
      throw new IllegalArgumentException(
          "Zipf needs n >= 1 and exponent > 0, got n=" + n + ", exponent=" + exponent);
    }
    this.n = n;
    this.exponent = exponent;
    this.integralAtOneHalf = integral(1.5) - 1.0;
    this.integralAtN = integral(n + 0.5);
    this.acceptShortcut = 2.0 - inverseIntegral(integral(2.5) - density(2));
  }

  public long n() {
    return n;
  }

  /** A rank in 1..n. */
  public long sample(SplittableRandom random) {
    while (true) {
      double u = integralAtN + random.nextDouble() * (integralAtOneHalf - integralAtN);
      double x = inverseIntegral(u);
      long k = Math.max(1, Math.min(n, (long) (x + 0.5)));
      if (k - x <= acceptShortcut || u >= integral(k + 0.5) - density(k)) {
        return k;
      }
    }
  }

  private double density(double x) {
    return Math.exp(-exponent * Math.log(x));
  }

  /** Antiderivative of x^-s, written so it stays exact near s = 1. */
  private double integral(double x) {
    double logX = Math.log(x);
    return expm1OverX((1.0 - exponent) * logX) * logX;
  }

  private double inverseIntegral(double x) {
    double t = Math.max(-1.0, x * (1.0 - exponent));
    return Math.exp(log1pOverX(t) * x);
  }

  private static double expm1OverX(double x) {
    return Math.abs(x) > 1e-8 ? Math.expm1(x) / x : 1.0 + x / 2.0 * (1.0 + x / 3.0);
  }

  private static double log1pOverX(double x) {
    return Math.abs(x) > 1e-8 ? Math.log1p(x) / x : 1.0 - x * (0.5 - x / 3.0);
  }
}
