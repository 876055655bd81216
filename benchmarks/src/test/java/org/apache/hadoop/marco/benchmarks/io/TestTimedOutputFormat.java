/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.io;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormatCounter;
import org.apache.hadoop.mapreduce.lib.output.FilterOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.marco.testing.InputFiles;
import org.apache.hadoop.mapreduce.marco.testing.JobOutput;
import org.apache.hadoop.mapreduce.marco.testing.LocalModeConf;
import org.apache.hadoop.marco.benchmarks.jobs.WordCount;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class TestTimedOutputFormat {
  private static final int REDUCES = 2;
  private static final long SLOW_CLOSE_MILLIS = 300;

  @Rule public final TemporaryFolder temp = new TemporaryFolder();

  /** Text output whose writer takes {@link #SLOW_CLOSE_MILLIS} to close, like a slow HDFS. */
  public static class SlowCloseTextOutputFormat<K, V> extends TextOutputFormat<K, V> {
    @Override
    public RecordWriter<K, V> getRecordWriter(TaskAttemptContext context)
        throws IOException, InterruptedException {
      return new FilterOutputFormat.FilterRecordWriter<K, V>(super.getRecordWriter(context)) {
        @Override
        public void close(TaskAttemptContext c) throws IOException, InterruptedException {
          Thread.sleep(SLOW_CLOSE_MILLIS);
          super.close(c);
        }
      };
    }
  }

  private Path input(FileSystem fs) throws IOException {
    Path dir = new Path(new File(temp.getRoot(), "input").toURI());
    InputFiles.write(
        fs,
        dir,
        List.of(
            List.of("the quick brown fox", "jumps over the lazy dog"),
            List.of("the dog sleeps", "a fox runs")));
    return dir;
  }

  private Job wordCount(String name) throws IOException {
    Configuration conf = LocalModeConf.newConf(new File(temp.getRoot(), name + "-work"));
    conf.setInt("mapreduce.job.reduces", REDUCES);
    // One reduce at a time: a task's byte count comes from the JVM's file system statistics, which
    // reduces running side by side in the local runner's one JVM would share.
    conf.setInt("mapreduce.local.reduce.tasks.maximum", 1);
    FileSystem fs = FileSystem.getLocal(conf);
    Path output = new Path(new File(temp.getRoot(), name).toURI());
    return new WordCount().createJob(conf, input(fs), output);
  }

  private static byte[] partFiles(Job job) throws IOException {
    Path output = FileOutputFormat.getOutputPath(job);
    JobOutput read = JobOutput.read(output.getFileSystem(job.getConfiguration()), output);
    assertEquals(REDUCES, read.partFiles());
    return read.bytes();
  }

  private static long bytesWritten(Job job) throws IOException {
    return job.getCounters().findCounter(FileOutputFormatCounter.BYTES_WRITTEN).getValue();
  }

  private static long writeMillis(Job job) throws IOException {
    return job.getCounters().findCounter(OutputWriteCounter.OUTPUT_WRITE_MILLIS).getValue();
  }

  @Test
  public void benchmarkJobsWriteTheSameFilesThroughTheTimedFormat() throws Exception {
    Job timed = wordCount("timed");
    assertEquals(TimedOutputFormat.class, timed.getOutputFormatClass());
    Job plain = wordCount("plain");
    plain.setOutputFormatClass(TextOutputFormat.class);

    assertTrue(timed.waitForCompletion(false));
    assertTrue(plain.waitForCompletion(false));

    byte[] expected = partFiles(plain);
    assertTrue("word count wrote nothing", expected.length > 0);
    assertArrayEquals(expected, partFiles(timed));
    // Hadoop counts the output's bytes only for a FileOutputFormat: the timed one keeps the count
    long written = bytesWritten(plain);
    assertTrue("the plain job counted no output bytes", written > 0);
    assertEquals(written, bytesWritten(timed));
    FileSystem fs = FileSystem.getLocal(new Configuration());
    Path output = FileOutputFormat.getOutputPath(timed);
    assertTrue("the delegate's committer wrote _SUCCESS", fs.exists(new Path(output, "_SUCCESS")));
  }

  @Test
  public void countsTheTimeEveryReduceSpendsInItsWriter() throws Exception {
    Job job = wordCount("slow");
    job.setOutputFormatClass(SlowCloseTextOutputFormat.class);
    TimedOutputFormat.wrap(job);
    assertEquals(
        SlowCloseTextOutputFormat.class,
        job.getConfiguration().getClass(TimedOutputFormat.DELEGATE_CLASS, null));

    assertTrue(job.waitForCompletion(false));

    long millis = writeMillis(job);
    assertTrue(
        "expected at least " + REDUCES + " x " + SLOW_CLOSE_MILLIS + " ms, got " + millis,
        millis >= REDUCES * SLOW_CLOSE_MILLIS);
  }

  @Test
  public void wrappingTwiceKeepsTheJobsOwnFormat() throws Exception {
    Job job = wordCount("twice");
    TimedOutputFormat.wrap(job);
    assertEquals(
        TextOutputFormat.class,
        job.getConfiguration().getClass(TimedOutputFormat.DELEGATE_CLASS, null));
  }
}
