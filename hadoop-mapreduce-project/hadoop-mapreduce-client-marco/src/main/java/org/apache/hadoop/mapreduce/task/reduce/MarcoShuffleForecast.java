/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

/**
 * The map output bytes still to come to this reduce, forecast from those arrived so far: the
 * maps not yet arrived times the mean size of an arrived map output. The heap guard counts them
 * against partial work, up to the shuffle memory still free, so that it does not keep heap for
 * fetches that will never come (a reduce whose outputs have mostly arrived, or a job whose map
 * outputs are far smaller than the shuffle buffer). Written by the threads that record an
 * arrival and read without a lock by the partial threads.
 */
final class MarcoShuffleForecast {
  private final int totalMaps;
  private volatile int arrived;
  private volatile long bytesArrived;

  MarcoShuffleForecast(int totalMaps) {
    this.totalMaps = totalMaps;
  }

  /** One more map output, of {@code rawBytes}; called by one thread at a time. */
  void arrived(long rawBytes) {
    bytesArrived += rawBytes;
    arrived++;
  }

  /** The raw bytes still to come; {@code Long.MAX_VALUE} before the first arrival (unknown). */
  long bytesToCome() {
    int n = arrived;
    if (n == 0) {
      return Long.MAX_VALUE;
    }
    long mean = bytesArrived / n;
    return Math.max(0, totalMaps - n) * mean;
  }
}
