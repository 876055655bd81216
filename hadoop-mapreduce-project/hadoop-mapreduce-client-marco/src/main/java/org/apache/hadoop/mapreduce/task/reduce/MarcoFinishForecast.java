/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.util.Locale;

/**
 * Forecasts whether a partial invocation would end before the shuffle does, from what this
 * reduce has seen: its input bytes at the rate the finished invocations worked through theirs,
 * against the map outputs still to come at the mean interval between the latest arrivals.
 *
 * <p>An invocation that ends after the shuffle either keeps the final merge waiting or is
 * abandoned with its work lost; its inputs reach the final merge late or as they were. Left
 * unstarted, they reach it as they are, and the CPU goes to the fetchers. Until two map outputs
 * have arrived and an invocation has finished there is no forecast, and every invocation may
 * start.
 *
 * <p>The rate is measured in the partial threads' CPU time, not in wall time. An invocation that
 * ran while the maps held the CPU took long in wall time only because its low-priority thread
 * waited; that wait ends with the maps, and a wall-time rate would hold back every later
 * invocation on its evidence, with no finished invocation left to correct it. So the forecast
 * assumes the work gets a CPU of its own: it holds back only an invocation late even then. A
 * held invocation hides none of the final work; one started in vain costs low-priority CPU, and
 * the final merge waits for it only where the shuffle end's rule expects the wait to pay.
 *
 * <p>The interval is taken over the latest {@value #WINDOW} arrivals, not all of them. Map
 * outputs arrive fastest while maps are still finishing, each fetched as soon as it is written;
 * once the maps are done, the rest come at the throttled links' pace, several times slower. A
 * mean over the whole shuffle keeps the early pace and forecasts the shuffle ending much sooner
 * than it does, holding back invocations that would have finished in time.
 *
 * <p>Called with the merge manager's lock held.
 */
final class MarcoFinishForecast {
  /** Arrivals the interval is measured over: enough to smooth the fetchers' bursts. */
  static final int WINDOW = 8;

  private final int maps;
  private int arrivals;

  /** The latest arrivals' times, the {@code n}-th at index {@code (n - 1) % WINDOW}. */
  private final long[] arrivalMillis = new long[WINDOW];

  private long workedBytes;
  private long workedCpuMillis;

  /** @param maps the map outputs the shuffle fetches in all */
  MarcoFinishForecast(int maps) {
    this.maps = maps;
  }

  /** The {@code arrivals}-th map output has arrived, at {@code nowMillis}. */
  void arrived(int arrivals, long nowMillis) {
    this.arrivals = arrivals;
    arrivalMillis[(arrivals - 1) % WINDOW] = nowMillis;
  }

  /**
   * A partial invocation over {@code inputBytes} raw bytes finished with {@code cpuMillis} of its
   * thread's CPU time.
   */
  void invocationFinished(long inputBytes, long cpuMillis) {
    workedBytes += inputBytes;
    workedCpuMillis += Math.max(1, cpuMillis);
  }

  /**
   * Milliseconds until the last map output arrives, at the mean interval between the latest
   * arrivals (measured up to {@code nowMillis}, so a stall counts); -1 before two have arrived.
   */
  long shuffleLeftMillis(long nowMillis) {
    if (arrivals < 2) {
      return -1;
    }
    int measured = Math.min(arrivals, WINDOW);
    long oldest = arrivalMillis[(arrivals - measured) % WINDOW];
    double interval = (double) (nowMillis - oldest) / (measured - 1);
    return Math.round(interval * Math.max(0, maps - arrivals));
  }

  /** CPU milliseconds an invocation over {@code inputBytes} takes; -1 before one has finished. */
  long workMillis(long inputBytes) {
    return workedBytes == 0 ? -1 : Math.round((double) inputBytes * workedCpuMillis / workedBytes);
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
        "%d bytes of partial work take about %.1f s at %.2f MB per CPU second, the %d map outputs"
            + " still to come about %.1f s",
        inputBytes,
        workMillis(inputBytes) / 1000.0,
        workedCpuMillis == 0 ? 0.0 : workedBytes / 1000.0 / workedCpuMillis,
        Math.max(0, maps - arrivals),
        shuffleLeftMillis(nowMillis) / 1000.0);
  }
}
