/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.output;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.Progressable;

/**
 * Text output formats (both APIs) that record, for every record writer, the thread that opened
 * it (the reduce task's) and the threads that wrote its records: what tells asynchronous output
 * (written on the background writer thread) from synchronous output (written by the reducer
 * itself) without measuring time. Static, as the local job runner runs every task in this JVM.
 */
final class WriterThreads {
  private static final Queue<Writer> OPENED = new ConcurrentLinkedQueue<>();

  private WriterThreads() {}

  /** One record writer: who opened it, who wrote to it, how many records. */
  static final class Writer {
    final Thread opener = Thread.currentThread();
    final Set<Thread> writers = ConcurrentHashMap.newKeySet();
    final AtomicLong records = new AtomicLong();

    void wrote() {
      writers.add(Thread.currentThread());
      records.incrementAndGet();
    }

    @Override
    public String toString() {
      List<String> names = new ArrayList<>();
      writers.forEach(t -> names.add(t.getName()));
      return "writer opened by '"
          + opener.getName()
          + "', "
          + records
          + " records written by "
          + names;
    }
  }

  /** The writers opened since the last call, and forgets them. */
  static List<Writer> drain() {
    List<Writer> all = new ArrayList<>();
    for (Writer w = OPENED.poll(); w != null; w = OPENED.poll()) {
      all.add(w);
    }
    return all;
  }

  private static Writer opened() {
    Writer w = new Writer();
    OPENED.add(w);
    return w;
  }

  /** New-API text output that records its writer's threads. */
  public static class NewApiText extends TextOutputFormat<Text, LongWritable> {
    @Override
    public RecordWriter<Text, LongWritable> getRecordWriter(TaskAttemptContext context)
        throws IOException, InterruptedException {
      RecordWriter<Text, LongWritable> real = super.getRecordWriter(context);
      Writer seen = opened();
      return new RecordWriter<Text, LongWritable>() {
        @Override
        public void write(Text key, LongWritable value) throws IOException, InterruptedException {
          seen.wrote();
          real.write(key, value);
        }

        @Override
        public void close(TaskAttemptContext c) throws IOException, InterruptedException {
          real.close(c);
        }
      };
    }
  }

  /** Old-API text output that records its writer's threads. */
  public static class OldApiText
      extends org.apache.hadoop.mapred.TextOutputFormat<Text, LongWritable> {
    @Override
    public org.apache.hadoop.mapred.RecordWriter<Text, LongWritable> getRecordWriter(
        FileSystem ignored, JobConf job, String name, Progressable progress) throws IOException {
      org.apache.hadoop.mapred.RecordWriter<Text, LongWritable> real =
          super.getRecordWriter(ignored, job, name, progress);
      Writer seen = opened();
      return new org.apache.hadoop.mapred.RecordWriter<Text, LongWritable>() {
        @Override
        public void write(Text key, LongWritable value) throws IOException {
          seen.wrote();
          real.write(key, value);
        }

        @Override
        public void close(Reporter reporter) throws IOException {
          real.close(reporter);
        }
      };
    }
  }
}
