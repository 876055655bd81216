/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoSettings;

/**
 * The paper's control of partial invocations (section 3.2): start one when enough unprocessed
 * map outputs wait ({@link MarcoConfig#START_THRESHOLD_INITIAL} for the first {@link
 * MarcoConfig#START_THRESHOLD_INITIAL_INVOCATIONS}, then {@link MarcoConfig#START_THRESHOLD}),
 * never once {@link MarcoConfig#STOP_FRACTION} of all map outputs has arrived. With {@link
 * MarcoConfig#INVOCATION_MAX_BYTES} an invocation takes at most that many bytes, so a backlog of
 * that size is a full invocation's worth and starts one whatever the threshold.
 */
final class MarcoInvocationPolicy {
  private final MarcoSettings settings;
  private final int totalMaps;

  MarcoInvocationPolicy(MarcoSettings settings, int totalMaps) {
    this.settings = settings;
    this.totalMaps = totalMaps;
  }

  /** True once {@code arrivals} map outputs reach the stop fraction of all map outputs. */
  boolean stopReached(int arrivals) {
    return arrivals >= (double) settings.effectiveStopFraction() * totalMaps;
  }

  /**
   * May invocation number {@code invocationsStarted} (0-based) start now, with
   * {@code waitingMapOutputs} map outputs of {@code waitingBytes} raw bytes not yet processed and
   * {@code arrivals} arrived?
   */
  boolean mayStart(int invocationsStarted, int waitingMapOutputs, long waitingBytes, int arrivals) {
    return waitingMapOutputs > 0
        && !stopReached(arrivals)
        && (waitingMapOutputs >= settings.startThreshold(invocationsStarted)
            || waitingBytes >= settings.effectiveInvocationMaxBytes());
  }
}
