/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.output;

import java.io.IOException;
import java.io.InterruptedIOException;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.OutputFormat;
import org.apache.hadoop.mapred.RecordWriter;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.TextOutputFormat;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoSettings;
import org.apache.hadoop.util.Progressable;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Old-API ({@code org.apache.hadoop.mapred}) twin of {@link AsyncOutputFormat}: writes through
 * the delegate ({@link MarcoConfig#ASYNC_OUTPUT_DELEGATE_CLASS}, default the old-API
 * {@link TextOutputFormat}) from a background thread. Old-API jobs take their committer from
 * the job configuration, not from the format, so commit is unchanged.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public class AsyncMapredOutputFormat<K, V> implements OutputFormat<K, V> {
  private OutputFormat<K, V> delegate;

  @Override
  public RecordWriter<K, V> getRecordWriter(
      FileSystem ignored, JobConf job, String name, Progressable progress) throws IOException {
    MarcoSettings settings = MarcoSettings.from(job);
    RecordWriter<K, V> writer = delegate(job).getRecordWriter(ignored, job, name, progress);
    if (!settings.isAsyncOutputEnabled()) {
      return writer;
    }
    Reporter reporter = progress instanceof Reporter ? (Reporter) progress : Reporter.NULL;
    Progressable alive = progress != null ? progress : reporter;
    BackgroundRecordWriter<K, V> background =
        new BackgroundRecordWriter<>(
            new RecordSink<K, V>() {
              @Override
              public void write(K key, V value) throws IOException {
                writer.write(key, value);
              }

              @Override
              public void close() throws IOException {
                writer.close(reporter);
              }
            },
            job,
            settings.getAsyncOutputBufferBytes(),
            "async-output " + name,
            alive::progress);
    return new RecordWriter<K, V>() {
      @Override
      public void write(K key, V value) throws IOException {
        try {
          background.write(key, value);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException(
              "interrupted while handing a record to the" + " asynchronous output writer");
        }
      }

      @Override
      public void close(Reporter ignoredReporter) throws IOException {
        try {
          background.close();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException(
              "interrupted while waiting for the" + " asynchronous output writer to finish");
        }
      }
    };
  }

  @Override
  public void checkOutputSpecs(FileSystem ignored, JobConf job) throws IOException {
    delegate(job).checkOutputSpecs(ignored, job);
  }

  @SuppressWarnings("unchecked")
  private synchronized OutputFormat<K, V> delegate(JobConf job) {
    if (delegate == null) {
      delegate =
          (OutputFormat<K, V>)
              ReflectionUtils.newInstance(
                  DelegateFormat.resolve(
                      job,
                      OutputFormat.class,
                      TextOutputFormat.class,
                      AsyncMapredOutputFormat.class,
                      AsyncOutputFormat.class),
                  job);
    }
    return delegate;
  }
}
