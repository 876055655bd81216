/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.testing;

import java.util.Map;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;

/** What a {@link DifferentialRun} saw: the stock run's output and every run's job counters. */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class DifferentialResult {
  /** Name of the counter group only MaRCO's shuffle creates (every reduce counts its merge). */
  static final String MARCO_GROUP = MarcoCounter.class.getName();

  private final JobOutput stockOutput;
  private final Counters stockCounters;
  private final Map<String, Counters> variantCounters;

  DifferentialResult(
      JobOutput stockOutput, Counters stockCounters, Map<String, Counters> variantCounters) {
    this.stockOutput = stockOutput;
    this.stockCounters = stockCounters;
    this.variantCounters = variantCounters;
  }

  /** The stock run's output (every MaRCO variant's output is byte-equal to it). */
  public JobOutput output() {
    return stockOutput;
  }

  public Counters stockCounters() {
    return stockCounters;
  }

  /** Job counters of the named MaRCO variant. */
  public Counters counters(String variant) {
    Counters counters = variantCounters.get(variant);
    if (counters == null) {
      throw new IllegalArgumentException(
          "No MaRCO variant named " + variant + "; ran " + variantCounters.keySet());
    }
    return counters;
  }

  /** Whether a job's reduces ran MaRCO's shuffle: its counters hold the MaRCO group. */
  public static boolean ranMarcoShuffle(Counters counters) {
    for (String group : counters.getGroupNames()) {
      if (MARCO_GROUP.equals(group)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Why a finished job did not go through the shuffle {@code marco} names, or null when it did:
   * the stock shuffle never creates the MaRCO counter group, and MaRCO's creates it in every
   * reduce.
   *
   * @param what names the job in the message
   */
  static String wrongShuffle(String what, Counters counters, boolean marco) {
    boolean marcoRan = ranMarcoShuffle(counters);
    if (!marco && marcoRan) {
      return what
          + " has the MaRCO counter group, so its reduces ran MaRCO's shuffle, not Hadoop's";
    }
    if (marco && !marcoRan) {
      return what + " has no MaRCO counter group, so its reduces did not run MaRCO's shuffle";
    }
    return null;
  }

  /** A MaRCO counter of the named variant, summed over its reduce tasks. */
  public long marco(String variant, MarcoCounter counter) {
    return counters(variant).findCounter(counter).getValue();
  }
}
