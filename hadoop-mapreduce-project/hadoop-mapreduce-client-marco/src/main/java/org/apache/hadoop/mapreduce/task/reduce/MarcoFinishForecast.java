/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.util.Locale;

/**
 * Forecasts how much partial work would end before the shuffle does, from what this reduce has
 * seen: input bytes at the rate the finished invocations worked through theirs, against the map
 * outputs still to come at the mean interval between the latest arrivals.
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
 * <p>The same two measures say when waiting for a start threshold no longer pays: a batch whose
 * last map output comes too close to the shuffle's end to be worked through before it.
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
    double interval = intervalMillis(nowMillis);
    return interval < 0 ? -1 : Math.round(interval * Math.max(0, maps - arrivals));
  }

  /** The mean interval between the latest arrivals, up to {@code nowMillis}; -1 before two. */
  private double intervalMillis(long nowMillis) {
    if (arrivals < 2) {
      return -1;
    }
    int measured = Math.min(arrivals, WINDOW);
    long oldest = arrivalMillis[(arrivals - measured) % WINDOW];
    return (double) (nowMillis - oldest) / (measured - 1);
  }

  /** CPU milliseconds an invocation over {@code inputBytes} takes; -1 before one has finished. */
  long workMillis(long inputBytes) {
    return workedBytes == 0 ? -1 : Math.round((double) inputBytes * workedCpuMillis / workedBytes);
  }

  /**
   * The most raw bytes an invocation started now is forecast to work through before the shuffle
   * ends; {@link Long#MAX_VALUE} without a forecast.
   */
  long bytesWithinShuffle(long nowMillis) {
    long left = shuffleLeftMillis(nowMillis);
    if (left < 0 || workedBytes == 0) {
      return Long.MAX_VALUE;
    }
    return (long) ((double) left * workedBytes / workedCpuMillis);
  }

  /**
   * Whether a batch of {@code threshold} map outputs, of which {@code waiting} over {@code
   * waitingBytes} raw bytes are here, would end after the shuffle if it waited for the rest: the
   * arrivals it still needs, at the mean interval of the latest ones, and then its work, at the
   * mean size of those waiting. False without a forecast, with none waiting, with the batch
   * complete, or with too few map outputs to come to complete it (the count alone decides then).
   */
  boolean batchEndsAfterShuffle(int threshold, int waiting, long waitingBytes, long nowMillis) {
    int needed = threshold - waiting;
    int toCome = maps - arrivals;
    double interval = intervalMillis(nowMillis);
    if (waiting <= 0 || needed <= 0 || needed > toCome || interval < 0 || workedBytes == 0) {
      return false;
    }
    return needed * interval + batchWorkMillis(threshold, waiting, waitingBytes)
        > toCome * interval;
  }

  private long batchWorkMillis(int threshold, int waiting, long waitingBytes) {
    return workMillis(Math.round((double) waitingBytes / waiting * threshold));
  }

  /** For the log: the two sides of {@link #batchEndsAfterShuffle}. */
  String describeBatch(int threshold, int waiting, long waitingBytes, long nowMillis) {
    double interval = intervalMillis(nowMillis);
    return String.format(
        Locale.ROOT,
        "%d of the start threshold's %d map outputs wait; the rest would arrive with about %.1f s"
            + " of the shuffle left, and a batch of %d takes about %.1f s",
        waiting,
        threshold,
        (maps - arrivals - (threshold - waiting)) * interval / 1000.0,
        threshold,
        batchWorkMillis(threshold, waiting, waitingBytes) / 1000.0);
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
