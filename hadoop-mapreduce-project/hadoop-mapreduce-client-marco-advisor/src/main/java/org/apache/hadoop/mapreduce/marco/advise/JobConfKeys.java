/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.advise;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;

/** The keys of a job's configuration the advice reads; the rest is left out of its output. */
@InterfaceAudience.Private
final class JobConfKeys {
  /** The old API's combiner (JobConf.setCombinerClass). */
  static final String OLD_API_COMBINER = "mapred.combiner.class";

  static final List<String> KEYS =
      List.of(
          MRJobConfig.COMBINE_CLASS_ATTR,
          OLD_API_COMBINER,
          MRJobConfig.REDUCE_CLASS_ATTR,
          "mapred.reducer.class",
          MRJobConfig.REDUCE_CPU_VCORES,
          MRConfig.SHUFFLE_CONSUMER_PLUGIN);

  private JobConfKeys() {}

  static Map<String, String> select(Iterable<Map.Entry<String, String>> conf) {
    Map<String, String> out = new TreeMap<>();
    for (Map.Entry<String, String> e : conf) {
      if (e.getKey().startsWith(MarcoConfig.PREFIX) || KEYS.contains(e.getKey())) {
        out.put(e.getKey(), e.getValue());
      }
    }
    return out;
  }
}
