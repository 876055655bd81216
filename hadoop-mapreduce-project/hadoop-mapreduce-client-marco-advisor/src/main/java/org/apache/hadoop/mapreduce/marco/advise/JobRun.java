/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.advise;

import java.util.List;
import java.util.Map;
import org.apache.hadoop.classification.InterfaceAudience;

/**
 * One job as its history tells it, whether read from a .jhist file or from a JobHistoryServer:
 * times in epoch milliseconds, the successful attempt of each task, and the job configuration's
 * keys the advice reads ({@code conf} is null where the configuration was not found).
 *
 * @param source the file or URL it was read from
 * @param counters the job's total counters, "GROUP.NAME" to value
 */
@InterfaceAudience.Private
record JobRun(
    String id,
    String name,
    String user,
    String queue,
    String state,
    long submit,
    long finish,
    boolean uberized,
    List<TaskSpan> maps,
    List<ReduceSpan> reduces,
    int failedAttempts,
    int killedAttempts,
    Map<String, Long> counters,
    Map<String, String> conf,
    String source) {

  /** A successful map attempt. */
  record TaskSpan(long start, long finish) {}

  /**
   * A successful reduce attempt: its start, shuffle end, merge end and finish, and the counters
   * the breakdown reads (-1 where unknown).
   */
  record ReduceSpan(
      String attempt,
      String host,
      long start,
      long shuffleEnd,
      long sortEnd,
      long finish,
      long cpuMillis,
      long outputWriteMillis) {}

  static final String TASK_GROUP = "org.apache.hadoop.mapreduce.TaskCounter";
  static final String CPU_MILLISECONDS = "CPU_MILLISECONDS";

  /** The benchmark jobs' time in their record writer (docs/harness.md, "output write"). */
  static final String OUTPUT_WRITE_GROUP =
      "org.apache.hadoop.marco.benchmarks.io.OutputWriteCounter";

  static final String OUTPUT_WRITE_MILLIS = "OUTPUT_WRITE_MILLIS";

  /** True when the job's counters carry MaRCO's group: the run already used MaRCO. */
  boolean ranWithMarco() {
    String group = org.apache.hadoop.mapreduce.marco.MarcoCounter.class.getName() + ".";
    return counters.keySet().stream().anyMatch(k -> k.startsWith(group));
  }
}
