/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.io;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.FilterOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * The job's own output format, timed: every call goes to the format the job had configured (the
 * same files, bytes and committer), and the wall time a task spends opening its record writer,
 * writing and closing it is added to {@link OutputWriteCounter#OUTPUT_WRITE_MILLIS}. That is the
 * HDFS write of the job's output, including the wait for its replicas across the throttled
 * bisection, which stock Hadoop and MaRCO pay alike after the shuffle. Writes through {@code
 * MultipleOutputs} (k-means' centroid files) bypass the job's format and are not counted.
 *
 * <p>It is a {@link FileOutputFormat} although it writes nothing itself: a task counts its
 * output's bytes (File Output Format Counters, {@code BYTES_WRITTEN}) only for a {@code
 * FileOutputFormat}, and the jobs keep that counter. (So the writer below names Hadoop's {@code
 * Counter} in full: {@code FileOutputFormat} has a nested {@code Counter} of its own.)
 */
public class TimedOutputFormat<K, V> extends FileOutputFormat<K, V> {
  /** The wrapped format's class, set by {@link #wrap}. */
  public static final String DELEGATE_CLASS = "marco.benchmarks.timed.output.format.class";

  private OutputFormat<K, V> jobFormat;

  /** Replaces the job's output format by a timed one over it. */
  public static void wrap(Job job) throws IOException {
    Class<? extends OutputFormat> format;
    try {
      format = job.getOutputFormatClass();
    } catch (ClassNotFoundException e) {
      throw new IOException("the job's output format class is not on the classpath", e);
    }
    if (format == TimedOutputFormat.class) {
      return;
    }
    job.getConfiguration().setClass(DELEGATE_CLASS, format, OutputFormat.class);
    job.setOutputFormatClass(TimedOutputFormat.class);
  }

  @SuppressWarnings("unchecked")
  private synchronized OutputFormat<K, V> jobFormat(Configuration conf) {
    if (jobFormat == null) {
      jobFormat =
          ReflectionUtils.newInstance(
              conf.getClass(DELEGATE_CLASS, TextOutputFormat.class, OutputFormat.class), conf);
    }
    return jobFormat;
  }

  @Override
  public RecordWriter<K, V> getRecordWriter(TaskAttemptContext context)
      throws IOException, InterruptedException {
    long start = System.nanoTime();
    RecordWriter<K, V> writer = jobFormat(context.getConfiguration()).getRecordWriter(context);
    return new TimedRecordWriter<>(
        writer, context.getCounter(OutputWriteCounter.OUTPUT_WRITE_MILLIS), start);
  }

  @Override
  public void checkOutputSpecs(JobContext context) throws IOException {
    try {
      jobFormat(context.getConfiguration()).checkOutputSpecs(context);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while checking the output", e);
    }
  }

  @Override
  public synchronized OutputCommitter getOutputCommitter(TaskAttemptContext context)
      throws IOException {
    try {
      return jobFormat(context.getConfiguration()).getOutputCommitter(context);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while making the output committer", e);
    }
  }

  /** Sums the nanoseconds spent in the job's writer and adds them to the counter once, at close. */
  private static final class TimedRecordWriter<K, V>
      extends FilterOutputFormat.FilterRecordWriter<K, V> {
    private final org.apache.hadoop.mapreduce.Counter millis;
    private long nanos;

    TimedRecordWriter(
        RecordWriter<K, V> writer, org.apache.hadoop.mapreduce.Counter millis, long openedAtNanos) {
      super(writer);
      this.millis = millis;
      this.nanos = System.nanoTime() - openedAtNanos;
    }

    @Override
    public void write(K key, V value) throws IOException, InterruptedException {
      long start = System.nanoTime();
      try {
        super.write(key, value);
      } finally {
        nanos += System.nanoTime() - start;
      }
    }

    @Override
    public void close(TaskAttemptContext context) throws IOException, InterruptedException {
      long start = System.nanoTime();
      try {
        super.close(context);
      } finally {
        nanos += System.nanoTime() - start;
        millis.increment(nanos / 1_000_000L);
      }
    }
  }
}
