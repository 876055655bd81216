/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.advise;

import java.util.Map;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;

/**
 * What partial reducer MaRCO would run for a job, from its configuration (docs/partial-reducer.md):
 * a declared one, the combiner through {@code mapreduce.marco.partial.reducer.use-combiner}, a
 * combiner that could serve once that is on, or none (MaRCO then sorts partially and the final
 * reduce stays after the shuffle).
 *
 * @param className the partial reducer's or the combiner's class, or null
 */
@InterfaceAudience.Private
record PartialReducer(Kind kind, String className) {
  enum Kind {
    DECLARED("declared"),
    COMBINER("the combiner, through " + MarcoConfig.PARTIAL_REDUCER_USE_COMBINER),
    COMBINER_COULD_SERVE("none declared; the combiner could serve"),
    NONE("none"),
    UNKNOWN("unknown: the job's configuration was not found");

    final String text;

    Kind(String text) {
      this.text = text;
    }
  }

  static PartialReducer of(Map<String, String> conf) {
    if (conf == null) {
      return new PartialReducer(Kind.UNKNOWN, null);
    }
    String declared = conf.get(MarcoConfig.PARTIAL_REDUCER_CLASS);
    if (declared != null && !declared.isBlank()) {
      return new PartialReducer(Kind.DECLARED, declared.trim());
    }
    String combiner = conf.get(MRJobConfig.COMBINE_CLASS_ATTR);
    if (combiner == null || combiner.isBlank()) {
      combiner = conf.get(JobConfKeys.OLD_API_COMBINER);
    }
    if (combiner == null || combiner.isBlank()) {
      return new PartialReducer(Kind.NONE, null);
    }
    boolean useCombiner =
        Boolean.parseBoolean(
            conf.getOrDefault(
                    MarcoConfig.PARTIAL_REDUCER_USE_COMBINER,
                    String.valueOf(MarcoConfig.DEFAULT_PARTIAL_REDUCER_USE_COMBINER))
                .trim());
    return new PartialReducer(
        useCombiner ? Kind.COMBINER : Kind.COMBINER_COULD_SERVE, combiner.trim());
  }

  /** True when MaRCO would run a partial reducer as the job is configured now. */
  boolean active() {
    return kind == Kind.DECLARED || kind == Kind.COMBINER;
  }

  String describe() {
    return className == null ? kind.text : kind.text + ": " + className;
  }
}
