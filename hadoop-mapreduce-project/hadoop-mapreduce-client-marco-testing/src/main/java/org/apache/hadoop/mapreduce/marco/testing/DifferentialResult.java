/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.testing;

import java.util.List;
import java.util.Map;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;

/**
 * What a {@link DifferentialRun} saw: the stock run's output, every run's job counters, and for
 * every MaRCO run the partial work of each of its reduce tasks.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class DifferentialResult {
  /** Name of the counter group only MaRCO's shuffle creates (every reduce counts its merge). */
  static final String MARCO_GROUP = MarcoCounter.class.getName();

  /**
   * MaRCO's partial work in one reduce task: committed partial invocations and the records they
   * read and wrote (remerges of partial runs not included), and whether the attempt that finished
   * the task was a retry, which runs without partial work.
   */
  public record ReduceWork(
      String task, long invocations, long inputRecords, long outputRecords, boolean retried) {}

  private final JobOutput stockOutput;
  private final Counters stockCounters;
  private final Map<String, Counters> variantCounters;
  private final Map<String, List<ReduceWork>> variantReduces;
  private final Map<String, Configuration> variantConfs;

  DifferentialResult(
      JobOutput stockOutput,
      Counters stockCounters,
      Map<String, Counters> variantCounters,
      Map<String, List<ReduceWork>> variantReduces,
      Map<String, Configuration> variantConfs) {
    this.stockOutput = stockOutput;
    this.stockCounters = stockCounters;
    this.variantCounters = variantCounters;
    this.variantReduces = variantReduces;
    this.variantConfs = variantConfs;
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
    return known(variantCounters, variant);
  }

  /** The configuration the named MaRCO variant's job was submitted with. */
  public Configuration configuration(String variant) {
    return known(variantConfs, variant);
  }

  /**
   * The partial work of every reduce task of the named MaRCO variant, one entry per task. On
   * YARN it comes from each task's counters (those of the attempt that finished it); the local
   * runner reports no per-task counters ({@code LocalJobRunner.getTaskReports} returns none), so
   * there it comes from each reduce's MaRCO timeline, which {@link DifferentialRun} asks for.
   */
  public List<ReduceWork> reduces(String variant) {
    return known(variantReduces, variant);
  }

  private <T> T known(Map<String, T> byVariant, String variant) {
    T value = byVariant.get(variant);
    if (value == null) {
      throw new IllegalArgumentException(
          "No MaRCO variant named " + variant + "; ran " + variantCounters.keySet());
    }
    return value;
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

  /** Asserts that a finished job went through Hadoop's stock shuffle, not MaRCO's. */
  public static void assertStockShuffle(String what, Counters counters) {
    String wrong = wrongShuffle(what, counters, false);
    if (wrong != null) {
      throw new AssertionError(wrong);
    }
  }

  /**
   * Asserts that a finished job went through MaRCO's shuffle and committed at least one partial
   * invocation (a MaRCO shuffle that did nothing would pass the counter group check alone).
   */
  public static void assertMarcoShuffle(String what, Counters counters) {
    String wrong = wrongShuffle(what, counters, true);
    if (wrong != null) {
      throw new AssertionError(wrong);
    }
    if (counters.findCounter(MarcoCounter.INVOCATIONS).getValue() == 0) {
      throw new AssertionError(what + " ran MaRCO's shuffle but no partial invocation");
    }
  }

  /**
   * Asserts that every reduce task of the named variant committed at least one partial
   * invocation, and, where {@code partialReducerReduces} (the job's partial reducer merges
   * records, as a sum does, unlike an identity), that in each of them the invocations wrote
   * fewer records than they read. A sum over the job would pass with one reduce doing all the
   * work, or with invocations that only sorted. A task finished by a retried attempt is left out,
   * as a retry runs without partial work by design; at least one task must not be one.
   */
  public void assertPartialWorkInEveryReduce(String variant, boolean partialReducerReduces) {
    List<ReduceWork> reduces = reduces(variant);
    int expected = configuration(variant).getInt("mapreduce.job.reduces", 1);
    if (reduces.size() != expected) {
      throw new AssertionError(
          variant
              + ": partial work known for "
              + reduces.size()
              + " of "
              + expected
              + " reduces: "
              + reduces);
    }
    int firstAttempts = 0;
    for (ReduceWork reduce : reduces) {
      if (reduce.retried()) {
        continue;
      }
      firstAttempts++;
      if (reduce.invocations() == 0) {
        throw new AssertionError(
            variant + ": reduce " + reduce.task() + " ran no partial invocation: " + reduces);
      }
      if (partialReducerReduces && reduce.outputRecords() >= reduce.inputRecords()) {
        throw new AssertionError(
            variant
                + ": in reduce "
                + reduce.task()
                + " the partial invocations wrote no fewer"
                + " records than they read, so the partial reducer did not reduce: "
                + reduces);
      }
    }
    if (firstAttempts == 0) {
      throw new AssertionError(
          variant + ": every reduce finished in a retry, which runs no partial work: " + reduces);
    }
  }

  /** A MaRCO counter of the named variant, summed over its reduce tasks. */
  public long marco(String variant, MarcoCounter counter) {
    return counters(variant).findCounter(counter).getValue();
  }
}
