/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.advise;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * The model that predicts MaRCO's speedup from a stock run's breakdown (docs/model.md).
 *
 * <p>MaRCO saves what it moves from after the shuffle into the shuffle: the final merge and final
 * reduce, done as partial work while map outputs still arrive. The saving is the smallest of the
 * final work, the exposed shuffle (the time the network keeps the shuffle open after the last
 * map), and the share of the final work that the CPU the exposed shuffle leaves idle could do;
 * the smallest term names the regime. With the CPU unknown the third term drops out and the
 * saving is the paper's ideal. The harness's {@code benchmarks/harness/model.py} is the Python
 * twin; both are held to the cases of {@code tests/bench/data/model-cases.json}.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class SpeedupModel {
  /** The term that bounds the saving. Of equal terms the first listed names the regime. */
  public enum Bound {
    /** No more final merge and reduce to move into the shuffle. */
    FINAL_WORK("final-work-bound"),
    /** No more exposed shuffle to hide the final work behind. */
    NETWORK("network-bound"),
    /** No more idle CPU in the exposed shuffle for partial work at a low priority. */
    CPU("CPU-bound");

    private final String label;

    Bound(String label) {
      this.label = label;
    }

    /** The regime's name as the docs, the report and the advisor's output give it. */
    public String label() {
      return label;
    }
  }

  /**
   * What the model predicts.
   *
   * @param savingSeconds the seconds MaRCO can take off the stock run
   * @param speedup wall / (wall - saving), or NaN where the saving is the whole run
   * @param bound the term that bounds the saving
   */
  public record Prediction(double savingSeconds, double speedup, Bound bound) {}

  private SpeedupModel() {}

  /**
   * MaRCO's saving and speedup over a stock run.
   *
   * @param wall the run's wall time, seconds
   * @param exposedShuffle last map's end to the critical reduce's shuffle end, seconds
   * @param finalMerge the critical reduce's final merge, seconds
   * @param finalReduce its final reduce without the output write, seconds
   * @param idleCpu core-seconds the exposed shuffle left idle, or NaN if unknown
   * @param finalCpu core-seconds the final merge and reduce kept busy, or NaN if unknown; 0 drops
   *     the CPU term as unknown does
   * @throws IllegalArgumentException naming an input that is negative or not a number
   */
  public static Prediction predict(
      double wall,
      double exposedShuffle,
      double finalMerge,
      double finalReduce,
      double idleCpu,
      double finalCpu) {
    check("wall", wall, false);
    check("exposed shuffle", exposedShuffle, false);
    check("final merge", finalMerge, false);
    check("final reduce", finalReduce, false);
    check("idle CPU", idleCpu, true);
    check("final work's CPU", finalCpu, true);
    double finalWork = finalMerge + finalReduce;
    double[] terms = {
      finalWork,
      exposedShuffle,
      Double.isNaN(idleCpu) || Double.isNaN(finalCpu) || finalCpu == 0
          ? Double.POSITIVE_INFINITY
          : finalWork * idleCpu / finalCpu
    };
    int least = 0;
    for (int i = 1; i < terms.length; i++) {
      if (terms[i] < terms[least]) {
        least = i;
      }
    }
    double saving = terms[least];
    double speedup = wall > saving ? wall / (wall - saving) : Double.NaN;
    return new Prediction(saving, speedup, Bound.values()[least]);
  }

  private static void check(String name, double value, boolean unknownAllowed) {
    if ((Double.isNaN(value) && !unknownAllowed) || value < 0 || Double.isInfinite(value)) {
      throw new IllegalArgumentException(
          "the model's " + name + " must be a number >= 0 seconds, not " + value);
    }
  }
}
