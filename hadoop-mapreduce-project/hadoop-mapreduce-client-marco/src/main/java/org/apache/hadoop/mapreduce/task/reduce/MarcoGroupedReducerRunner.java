/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.StatusReporter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.counters.GenericCounter;
import org.apache.hadoop.mapreduce.task.ReduceContextImpl;

/**
 * Runs a user reduce function (partial reducer or combiner) over sorted records, grouping keys
 * exactly as Hadoop groups them for a combiner
 * ({@code mapreduce.job.combiner.group.comparator.class}, else the sort comparator). For a
 * partial reducer every emitted record is checked against the contract
 * ({@link MarcoPartialReducerContract}); a combiner is trusted, as Hadoop trusts it.
 */
abstract class MarcoGroupedReducerRunner<K, V> implements MarcoRecordReducer<K, V> {
  protected final JobConf job;
  protected final Class<?> reducerClass;
  private final TaskAttemptID reduceId;
  private final boolean checkContract;

  MarcoGroupedReducerRunner(
      JobConf job, Class<?> reducerClass, TaskAttemptID reduceId, boolean checkContract) {
    this.job = job;
    this.reducerClass = reducerClass;
    this.reduceId = reduceId;
    this.checkContract = checkContract;
  }

  /** A runner for a job's partial reducer: its output is checked against the contract. */
  static <K, V> MarcoGroupedReducerRunner<K, V> forPartialReducer(
      JobConf job, Class<?> reducerClass, boolean newApi, TaskAttemptID reduceId) {
    return forClass(job, reducerClass, newApi, reduceId, true);
  }

  /** A runner for the job's old-API combiner on memory spills, as Hadoop runs it. */
  static <K, V> MarcoGroupedReducerRunner<K, V> forCombiner(
      JobConf job, Class<?> combinerClass, TaskAttemptID reduceId) {
    return forClass(job, combinerClass, false, reduceId, false);
  }

  private static <K, V> MarcoGroupedReducerRunner<K, V> forClass(
      JobConf job,
      Class<?> reducerClass,
      boolean newApi,
      TaskAttemptID reduceId,
      boolean checkContract) {
    return newApi
        ? new MarcoNewApiReducerRunner<>(job, reducerClass, reduceId, checkContract)
        : new MarcoOldApiReducerRunner<>(job, reducerClass, reduceId, checkContract);
  }

  String reducerName() {
    return reducerClass.getName();
  }

  /** A fresh contract check for one merge, or null where the output is not checked. */
  protected MarcoPartialReducerContract<K> contract() throws IOException {
    return checkContract ? new MarcoPartialReducerContract<>(job, reducerName()) : null;
  }

  /**
   * Throws the contract violation of a merge if there was one, also when the user function
   * caught it, or wrapped it in an exception of its own: its run is not what the contract
   * promises, whatever the function made of the exception.
   */
  protected static void rethrowCaught(MarcoPartialReducerContract<?> contract)
      throws MarcoContractViolationException {
    if (contract != null && contract.violation() != null) {
      throw contract.violation();
    }
  }

  /**
   * The grouped input of one merge; its output goes to {@code out}, checked by {@code contract}
   * (null: unchecked) against the key of the group being reduced, which the context records as
   * each group starts (in its nextKey, the one call that starts a group in the new API).
   */
  @SuppressWarnings("unchecked")
  protected ReduceContextImpl<K, V, K, V> groupedInput(
      RawKeyValueIterator sorted,
      MarcoRunWriter<K, V> out,
      Reporter reporter,
      MarcoPartialReducerContract<K> contract)
      throws IOException, InterruptedException {
    Counter keys = new GenericCounter();
    Counter values = new GenericCounter();
    RunRecordWriter<K, V> writer = new RunRecordWriter<>(out, contract);
    return new ReduceContextImpl<K, V, K, V>(
        job,
        reduceId,
        sorted,
        keys,
        values,
        writer,
        null,
        new ReporterStatus(reporter),
        (RawComparator<K>) job.getCombinerKeyGroupingComparator(),
        (Class<K>) job.getMapOutputKeyClass(),
        (Class<V>) job.getMapOutputValueClass()) {
      @Override
      public boolean nextKey() throws IOException, InterruptedException {
        boolean more = super.nextKey();
        if (more && contract != null) {
          contract.startGroup(getCurrentKey());
        }
        return more;
      }
    };
  }

  /** Sends the reducer's output to the run being written, checked against the contract. */
  private static final class RunRecordWriter<K, V> extends RecordWriter<K, V> {
    private final MarcoRunWriter<K, V> out;
    private final MarcoPartialReducerContract<K> contract;

    RunRecordWriter(MarcoRunWriter<K, V> out, MarcoPartialReducerContract<K> contract) {
      this.out = out;
      this.contract = contract;
    }

    @Override
    public void write(K key, V value) throws IOException {
      if (contract != null) {
        contract.check(key);
      }
      out.append(key, value);
    }

    @Override
    public void close(TaskAttemptContext context) {
      // The run is committed by its invocation, not by the reducer.
    }
  }

  /** Lets the user function report progress and counters through the task's reporter. */
  private static final class ReporterStatus extends StatusReporter {
    private final Reporter reporter;

    ReporterStatus(Reporter reporter) {
      this.reporter = reporter;
    }

    @Override
    public Counter getCounter(Enum<?> name) {
      return reporter.getCounter(name);
    }

    @Override
    public Counter getCounter(String group, String name) {
      return reporter.getCounter(group, name);
    }

    @Override
    public void progress() {
      reporter.progress();
    }

    @Override
    public float getProgress() {
      return reporter.getProgress();
    }

    @Override
    public void setStatus(String status) {
      reporter.setStatus(status);
    }
  }
}
