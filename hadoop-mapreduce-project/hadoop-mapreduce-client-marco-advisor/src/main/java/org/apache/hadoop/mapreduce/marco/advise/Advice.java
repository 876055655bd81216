/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.advise;

import org.apache.hadoop.classification.InterfaceAudience;

/**
 * The advice on one job: its breakdown, the model's prediction and its bound, the partial
 * reducer MaRCO would run, and a one-line recommendation; or why the model does not apply.
 *
 * @param notApplicable why the job cannot gain from MaRCO at all, or null
 * @param breakdown null where not applicable
 * @param prediction with a partial reducer; null where not applicable
 * @param sortOnly with partial sort alone (no partial reducer); null where not applicable
 */
@InterfaceAudience.Private
record Advice(
    JobRun job,
    String notApplicable,
    Breakdown breakdown,
    SpeedupModel.Prediction prediction,
    SpeedupModel.Prediction sortOnly,
    PartialReducer partialReducer,
    String recommendation) {

  /** A predicted speedup at least this is worth deploying for. */
  static final double WORTH = 1.05;

  /** Below this a gain is within the run-to-run noise of most clusters. */
  static final double NOTICEABLE = 1.02;

  static Advice of(JobRun job) {
    PartialReducer partial = PartialReducer.of(job.conf());
    String reason = notApplicable(job);
    if (reason != null) {
      return new Advice(job, reason, null, null, null, partial, "not applicable: " + reason);
    }
    Breakdown b = Breakdown.of(job);
    SpeedupModel.Prediction p = b.predict();
    SpeedupModel.Prediction sortOnly = b.predictSortOnly();
    return new Advice(job, null, b, p, sortOnly, partial, recommend(b, p, sortOnly, partial));
  }

  private static String notApplicable(JobRun job) {
    if (!"SUCCEEDED".equals(job.state())) {
      return "the job did not succeed (" + job.state() + "), so its history is not a full run";
    }
    if (job.uberized()) {
      return "an uber job: its tasks ran one after another in the AppMaster's JVM, with no"
          + " shuffle between machines to overlap";
    }
    if (job.reduces().isEmpty()) {
      return "a map-only job: no reduce, so no shuffle and no final merge or reduce";
    }
    return null;
  }

  private static String recommend(
      Breakdown b,
      SpeedupModel.Prediction p,
      SpeedupModel.Prediction sortOnly,
      PartialReducer partial) {
    String gain = gain(p);
    if (Double.isNaN(p.speedup()) || p.speedup() < NOTICEABLE) {
      return "no gain to expect (" + gain + "): " + why(b, p);
    }
    String size = p.speedup() >= WORTH ? "worth it" : "a small gain, near run-to-run noise";
    switch (partial.kind()) {
      case DECLARED:
      case COMBINER:
        return "run it with MaRCO, " + size + ": " + gain;
      case COMBINER_COULD_SERVE:
        return "run it with MaRCO and "
            + org.apache.hadoop.mapreduce.marco.MarcoConfig.PARTIAL_REDUCER_USE_COMBINER
            + "=true if its combiner is exact on partial groups, "
            + size
            + ": "
            + gain;
      case NONE:
        return "give it a partial reducer, "
            + size
            + ": "
            + gain
            + "; with partial sort alone "
            + gain(sortOnly);
      default:
        return size + " with a partial reducer (" + gain + "); check the job's configuration";
    }
  }

  private static String gain(SpeedupModel.Prediction p) {
    return Double.isNaN(p.speedup())
        ? "the whole job"
        : String.format(
            "%.2fx, %.1f s saved (%.0f%%)",
            p.speedup(), p.savingSeconds(), 100 * (1 - 1 / p.speedup()));
  }

  private static String why(Breakdown b, SpeedupModel.Prediction p) {
    switch (p.bound()) {
      case FINAL_WORK:
        return String.format(
            "its final merge and reduce take %.1f s of %.1f s, too little to hide",
            b.finalMerge() + b.finalReduce(), b.wall());
      case NETWORK:
        return String.format(
            "its shuffle ends %.1f s after the last map, too little to hide work behind",
            b.exposedShuffle());
      default:
        return String.format(
            "its reduce had %.1f core-s idle in the exposed shuffle, too little for partial work",
            b.idleCpu());
    }
  }
}
