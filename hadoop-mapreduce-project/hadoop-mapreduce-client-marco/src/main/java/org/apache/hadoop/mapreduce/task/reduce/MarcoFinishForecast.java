/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.util.Locale;

/**
 * Forecasts whether a partial invocation would end before the shuffle does, from what this
 * reduce has seen: its input bytes at the rate the finished invocations worked through theirs,
 * against the map outputs still to come at the mean interval between the arrivals so far.
 *
 * <p>An invocation that ends after the shuffle either keeps the final merge waiting or is
 * abandoned with its work lost; its inputs reach the final merge late or as they were. Left
 * unstarted, they reach it as they are, and the CPU goes to the fetchers. Until two map outputs
 * have arrived and an invocation has finished there is no forecast, and every invocation may
 * start. The rate is measured in wall time at the partial threads' priority, so it already holds
 * the CPU they were left.
 *
 * <p>Called with the merge manager's lock held.
 */
final class MarcoFinishForecast {
  private final int maps;
  private int arrivals;
  private long firstArrivalMillis;
  private long workedBytes;
  private long workedMillis;

  /** @param maps the map outputs the shuffle fetches in all */
  MarcoFinishForecast(int maps) {
    this.maps = maps;
  }

  /** The {@code arrivals}-th map output has arrived, at {@code nowMillis}. */
  void arrived(int arrivals, long nowMillis) {
    if (this.arrivals == 0) {
      firstArrivalMillis = nowMillis;
    }
    this.arrivals = arrivals;
  }

  /** A partial invocation over {@code inputBytes} raw bytes finished in {@code workMillis}. */
  void invocationFinished(long inputBytes, long workMillis) {
    workedBytes += inputBytes;
    workedMillis += Math.max(1, workMillis);
  }

  /**
   * Milliseconds until the last map output arrives, at the mean interval between arrivals so far
   * (measured up to {@code nowMillis}, so a stall counts); -1 before two have arrived.
   */
  long shuffleLeftMillis(long nowMillis) {
    if (arrivals < 2) {
      return -1;
    }
    double interval = (double) (nowMillis - firstArrivalMillis) / (arrivals - 1);
    return Math.round(interval * Math.max(0, maps - arrivals));
  }

  /** Milliseconds an invocation over {@code inputBytes} takes; -1 before one has finished. */
  long workMillis(long inputBytes) {
    return workedBytes == 0 ? -1 : Math.round((double) inputBytes * workedMillis / workedBytes);
  }

  /** Whether an invocation over {@code inputBytes}, started now, is forecast to end last. */
  boolean endsAfterShuffle(long inputBytes, long nowMillis) {
    long left = shuffleLeftMillis(nowMillis);
    long work = workMillis(inputBytes);
    return left >= 0 && work >= 0 && work > left;
  }

  /** For the log: the two sides of the forecast for an invocation over {@code inputBytes}. */
  String describe(long inputBytes, long nowMillis) {
    return String.format(
        Locale.ROOT,
        "%d bytes of partial work take about %.1f s at %.2f MB/s, the %d map outputs still to come"
            + " about %.1f s",
        inputBytes,
        workMillis(inputBytes) / 1000.0,
        workedMillis == 0 ? 0.0 : workedBytes / 1000.0 / workedMillis,
        Math.max(0, maps - arrivals),
        shuffleLeftMillis(nowMillis) / 1000.0);
  }
}
