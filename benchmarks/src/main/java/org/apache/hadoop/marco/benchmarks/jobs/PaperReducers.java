/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.marco.MarcoJob;

/**
 * Which reducers the list-building jobs (inverted-index, self-join, adjacency-list) run: our
 * efficient ones (sorted merges and unions, the default) or ones with the algorithmic cost of
 * the MaRCO paper's reducers, selected with {@value #KEY}{@code =paper}. Both give the same
 * output; the paper's build each key's value list as a string, looking every element up by a
 * linear scan of the list so far and appending it by concatenation, so a key's cost grows with
 * the square of its values.
 */
public final class PaperReducers {
  /** {@code efficient} (default) or {@code paper}. */
  public static final String KEY = "marco.benchmarks.reducers";

  public static final String EFFICIENT = "efficient";
  public static final String PAPER = "paper";

  private PaperReducers() {}

  /** Declares {@code efficient} or {@code paper}, as the job's {@value #KEY} says, as the job's
   * partial reducer and reducer. */
  @SuppressWarnings("rawtypes")
  static void choose(Job job, Class<? extends Reducer> efficient, Class<? extends Reducer> paper) {
    Class<? extends Reducer> chosen = paperSelected(job.getConfiguration()) ? paper : efficient;
    MarcoJob.setPartialReducerClass(job, chosen);
    job.setReducerClass(chosen);
  }

  static boolean paperSelected(Configuration conf) {
    String kind = conf.getTrimmed(KEY, EFFICIENT);
    if (!kind.equals(EFFICIENT) && !kind.equals(PAPER)) {
      throw new IllegalArgumentException(
          KEY + " must be " + EFFICIENT + " or " + PAPER + ", got '" + kind + "'");
    }
    return kind.equals(PAPER);
  }

  /**
   * A value list as the paper's reducers build one: a string of the elements so far, each
   * followed by a separator; an element is added unless a linear scan of the string finds it,
   * and is appended by concatenation, which copies the string.
   */
  static final class QuadraticList {
    private static final char SEP = '\u0001';
    private String list = String.valueOf(SEP);

    void add(String element) {
      String entry = element + SEP;
      if (list.indexOf(SEP + entry) < 0) {
        list = list + entry;
      }
    }

    /** The distinct elements, in the order they were first added. */
    List<String> elements() {
      List<String> out = new ArrayList<>();
      int start = 1;
      for (int end = list.indexOf(SEP, start); end >= 0; end = list.indexOf(SEP, start)) {
        out.add(list.substring(start, end));
        start = end + 1;
      }
      return out;
    }
  }
}
