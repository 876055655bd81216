/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.Reporter;

/**
 * The {@link Reporter} a user function (partial reducer, combiner) sees during one merge. Its
 * counters are kept here and reach the task's counters only when the merge's run is committed
 * ({@link #addTo}): an invocation that fails or is abandoned does its work again in the final
 * merge, and its counts must not be counted twice. Status and progress go to the task at once.
 */
final class MarcoUserCounterBuffer implements Reporter {
  private final Reporter task;
  private final Counters counters = new Counters();

  MarcoUserCounterBuffer(Reporter task) {
    this.task = task;
  }

  /** Adds what the user function counted to the task's counters. */
  void addTo(Reporter reporter) {
    for (Counters.Group group : counters) {
      for (Counters.Counter counter : group) {
        reporter.incrCounter(group.getName(), counter.getName(), counter.getValue());
      }
    }
  }

  @Override
  public Counters.Counter getCounter(Enum<?> name) {
    return counters.findCounter(name);
  }

  @Override
  public Counters.Counter getCounter(String group, String name) {
    return counters.findCounter(group, name);
  }

  @Override
  public void incrCounter(Enum<?> key, long amount) {
    counters.incrCounter(key, amount);
  }

  @Override
  public void incrCounter(String group, String counter, long amount) {
    counters.incrCounter(group, counter, amount);
  }

  @Override
  public void setStatus(String status) {
    task.setStatus(status);
  }

  @Override
  public void progress() {
    task.progress();
  }

  @Override
  public float getProgress() {
    return task.getProgress();
  }

  @Override
  public InputSplit getInputSplit() {
    return task.getInputSplit();
  }
}
