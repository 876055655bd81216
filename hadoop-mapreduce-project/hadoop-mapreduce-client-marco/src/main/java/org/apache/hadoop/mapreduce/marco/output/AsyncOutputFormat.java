/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.output;

import java.io.IOException;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoSettings;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * New-API output format that writes through another one (the delegate,
 * {@link MarcoConfig#ASYNC_OUTPUT_DELEGATE_CLASS}, default {@link TextOutputFormat}) from a
 * background thread, so the reducer does not wait for the file system. Output specs and the
 * committer are the delegate's, so files, names and commit are exactly the delegate's.
 * {@link AsyncOutput#enable} sets it up for a job.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public class AsyncOutputFormat<K, V> extends OutputFormat<K, V> {
  private OutputFormat<K, V> delegate;

  @Override
  public RecordWriter<K, V> getRecordWriter(TaskAttemptContext context)
      throws IOException, InterruptedException {
    Configuration conf = context.getConfiguration();
    MarcoSettings settings = MarcoSettings.from(conf);
    RecordWriter<K, V> writer = delegate(conf).getRecordWriter(context);
    if (!settings.isAsyncOutputEnabled()) {
      return writer;
    }
    BackgroundRecordWriter<K, V> background =
        new BackgroundRecordWriter<>(
            new RecordSink<K, V>() {
              @Override
              public void write(K key, V value) throws IOException, InterruptedException {
                writer.write(key, value);
              }

              @Override
              public void close() throws IOException, InterruptedException {
                writer.close(context);
              }
            },
            conf,
            settings.getAsyncOutputBufferBytes(),
            "async-output " + context.getTaskAttemptID(),
            context::progress);
    return new RecordWriter<K, V>() {
      @Override
      public void write(K key, V value) throws IOException, InterruptedException {
        background.write(key, value);
      }

      @Override
      public void close(TaskAttemptContext ignored) throws IOException, InterruptedException {
        background.close();
      }
    };
  }

  @Override
  public void checkOutputSpecs(JobContext context) throws IOException, InterruptedException {
    delegate(context.getConfiguration()).checkOutputSpecs(context);
  }

  @Override
  public OutputCommitter getOutputCommitter(TaskAttemptContext context)
      throws IOException, InterruptedException {
    return delegate(context.getConfiguration()).getOutputCommitter(context);
  }

  @SuppressWarnings("unchecked")
  private synchronized OutputFormat<K, V> delegate(Configuration conf) {
    if (delegate == null) {
      delegate =
          (OutputFormat<K, V>)
              ReflectionUtils.newInstance(
                  DelegateFormat.resolve(
                      conf,
                      OutputFormat.class,
                      TextOutputFormat.class,
                      AsyncOutputFormat.class,
                      AsyncMapredOutputFormat.class),
                  conf);
    }
    return delegate;
  }
}
