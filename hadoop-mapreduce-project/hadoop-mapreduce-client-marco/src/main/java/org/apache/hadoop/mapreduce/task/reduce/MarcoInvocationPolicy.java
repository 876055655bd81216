/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoSettings;

/**
 * The paper's control of partial invocations (section 3.2): start one when enough unprocessed
 * map outputs wait ({@link MarcoConfig#START_THRESHOLD_INITIAL} for the first {@link
 * MarcoConfig#START_THRESHOLD_INITIAL_INVOCATIONS}, then {@link MarcoConfig#START_THRESHOLD}),
 * never once {@link MarcoConfig#STOP_FRACTION} of all map outputs has arrived. With {@link
 * MarcoConfig#INVOCATION_MAX_BYTES} an invocation takes at most that many bytes, so a backlog of
 * that size is a full invocation's worth and starts one whatever the threshold. With {@link
 * MarcoConfig#START_WHEN_THRESHOLD_UNREACHABLE} a backlog that the map outputs still to come
 * before the stop point cannot bring to the threshold starts one too: waiting would only leave it
 * to the final merge. With {@link MarcoConfig#START_WHEN_THRESHOLD_LATE} so does a backlog whose
 * threshold batch the finish forecast says would end after the shuffle, were it waited for (the
 * caller reads the forecast). With {@link MarcoConfig#START_WHEN_MAPS_COMPLETE}, once every map has
 * completed, any waiting map output starts one: the rest of the shuffle only waits for the network.
 */
final class MarcoInvocationPolicy {
  private final MarcoSettings settings;

  /** The stop point: the first arrival count at the stop fraction of all map outputs. */
  private final int stopPoint;

  MarcoInvocationPolicy(MarcoSettings settings, int totalMaps) {
    this.settings = settings;
    // In decimal, as the user wrote it: 0.3f times 10 is 3.0000001 in binary, and 0.3 of 10 map
    // outputs is 3, not 4.
    this.stopPoint =
        new BigDecimal(Float.toString(settings.effectiveStopFraction()))
            .multiply(BigDecimal.valueOf(totalMaps))
            .setScale(0, RoundingMode.CEILING)
            .intValueExact();
  }

  /** True once {@code arrivals} map outputs reach the stop fraction of all map outputs. */
  boolean stopReached(int arrivals) {
    return arrivals >= stopPoint;
  }

  /**
   * How many more map outputs can arrive, after {@code arrivals}, with an invocation still free
   * to start: those before the stop point.
   */
  int arrivalsLeftBeforeStop(int arrivals) {
    return Math.max(0, stopPoint - 1 - arrivals);
  }

  /**
   * May invocation number {@code invocationsStarted} (0-based) start now, with
   * {@code waitingMapOutputs} map outputs of {@code waitingBytes} raw bytes not yet processed,
   * {@code arrivals} arrived, every map of the job completed or not ({@code mapsComplete}), and
   * a batch of the start threshold forecast to end after the shuffle or not ({@code
   * thresholdLate})?
   */
  boolean mayStart(
      int invocationsStarted,
      int waitingMapOutputs,
      long waitingBytes,
      int arrivals,
      boolean mapsComplete,
      boolean thresholdLate) {
    if (waitingMapOutputs == 0 || stopReached(arrivals)) {
      return false;
    }
    if (mapsComplete && settings.effectiveStartWhenMapsComplete()) {
      return true;
    }
    int threshold = settings.startThreshold(invocationsStarted);
    return waitingMapOutputs >= threshold
        || waitingBytes >= settings.effectiveInvocationMaxBytes()
        || settings.effectiveStartWhenThresholdUnreachable()
            && waitingMapOutputs + arrivalsLeftBeforeStop(arrivals) < threshold
        || settings.effectiveStartWhenThresholdLate() && thresholdLate;
  }
}
