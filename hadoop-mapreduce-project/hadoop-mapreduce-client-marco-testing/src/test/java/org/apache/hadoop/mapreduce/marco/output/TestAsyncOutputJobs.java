/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.output;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoJob;
import org.apache.hadoop.mapreduce.marco.differential.OldApiWordSum;
import org.apache.hadoop.mapreduce.marco.differential.SkewedWords;
import org.apache.hadoop.mapreduce.marco.differential.WordSum;
import org.apache.hadoop.mapreduce.marco.testing.DifferentialResult;
import org.apache.hadoop.mapreduce.marco.testing.InputFiles;
import org.apache.hadoop.mapreduce.marco.testing.JobDiagnostics;
import org.apache.hadoop.mapreduce.marco.testing.JobOutput;
import org.apache.hadoop.mapreduce.marco.testing.LocalModeConf;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * Jobs under Hadoop's LocalJobRunner with and without asynchronous reduce output: same bytes
 * for both APIs and both shuffles, written on the background writer thread when asynchronous
 * and by the reducer itself when not; a failing delegate writer fails the job; a bad delegate
 * setting is refused at submission with the key's name.
 */
public class TestAsyncOutputJobs {
  private static final int REDUCERS = 2;

  private File workDir;
  private FileSystem fs;
  private Path input;
  private List<List<String>> words;

  /**
   * Text output whose writer fails after a few records, as a full disk would. Counts its
   * failures (the local runner runs tasks in this JVM and reports no task diagnostics).
   */
  public static class FailingTextOutputFormat extends TextOutputFormat<Text, LongWritable> {
    static final AtomicInteger FAILURES = new AtomicInteger();

    @Override
    public RecordWriter<Text, LongWritable> getRecordWriter(TaskAttemptContext context)
        throws IOException, InterruptedException {
      RecordWriter<Text, LongWritable> real = super.getRecordWriter(context);
      return new RecordWriter<Text, LongWritable>() {
        private int written;

        @Override
        public void write(Text key, LongWritable value) throws IOException, InterruptedException {
          if (++written > 5) {
            FAILURES.incrementAndGet();
            throw new IOException("simulated write failure");
          }
          real.write(key, value);
        }

        @Override
        public void close(TaskAttemptContext c) throws IOException, InterruptedException {
          real.close(c);
        }
      };
    }
  }

  @Before
  public void writeInput() throws Exception {
    workDir = new File("target/marco-async-output").getAbsoluteFile();
    FileUtil.fullyDelete(workDir);
    fs = FileSystem.getLocal(new Configuration());
    input = new Path(new File(workDir, "input").toURI());
    words = SkewedWords.generate(4, 3000, List.of(), 3);
    InputFiles.write(fs, input, words);
    WriterThreads.drain();
  }

  @After
  public void deleteWorkDir() {
    FileUtil.fullyDelete(workDir);
  }

  @Test
  public void newApiOutputIsTheSameWithAsyncOutputOnBothShuffles() throws Exception {
    String expected = SkewedWords.expectedCounts(words, REDUCERS);
    Job sync = newApi(false, false).create("sync");
    assertEquals(expected, complete(sync).text());
    assertWrittenByTheReducers();
    DifferentialResult.assertStockShuffle("the sync run", sync.getCounters());
    Job asyncStock = newApi(true, false).create("async-stock");
    assertEquals(expected, complete(asyncStock).text());
    assertWrittenInTheBackground();
    DifferentialResult.assertStockShuffle("the async-stock run", asyncStock.getCounters());
    Job asyncMarco = newApi(true, true).create("async-marco");
    assertEquals(expected, complete(asyncMarco).text());
    assertWrittenInTheBackground();
    DifferentialResult.assertMarcoShuffle("the async-marco run", asyncMarco.getCounters());
  }

  @Test
  public void oldApiOutputIsTheSameWithAsyncOutput() throws Exception {
    String expected = SkewedWords.expectedCounts(words, REDUCERS);
    Job sync = OldApiWordSum.create(conf(), input, out("old-sync"), REDUCERS, true, false);
    ((JobConf) sync.getConfiguration()).setOutputFormat(WriterThreads.OldApiText.class);
    Job async = OldApiWordSum.create(conf(), input, out("old-async"), REDUCERS, true, false);
    ((JobConf) async.getConfiguration()).setOutputFormat(WriterThreads.OldApiText.class);
    AsyncOutput.enable((JobConf) async.getConfiguration());
    assertEquals(
        AsyncMapredOutputFormat.class,
        ((JobConf) async.getConfiguration()).getOutputFormat().getClass());
    assertEquals(expected, complete(sync).text());
    assertWrittenByTheReducers();
    assertEquals(expected, complete(async).text());
    assertWrittenInTheBackground();
  }

  @Test
  public void switchedOffWrapperWritesSynchronouslyWithTheSameResult() throws Exception {
    Job job = newApi(true, false).create("switched-off");
    job.getConfiguration().setBoolean(MarcoConfig.ASYNC_OUTPUT_ENABLED, false);
    assertEquals(AsyncOutputFormat.class, job.getOutputFormatClass());
    assertEquals(SkewedWords.expectedCounts(words, REDUCERS), complete(job).text());
    assertWrittenByTheReducers();
  }

  @Test
  public void failingDelegateWriterFailsTheJob() throws Exception {
    Job job = WordSum.create(conf(), input, out("failing"), REDUCERS, true, false);
    job.setOutputFormatClass(FailingTextOutputFormat.class);
    AsyncOutput.enable(job);
    FailingTextOutputFormat.FAILURES.set(0);
    String why = JobDiagnostics.ofExpectedFailure(job);
    assertTrue(why, why.contains("FAILED"));
    assertTrue(
        "the job failed, but not because its writer did: " + why,
        FailingTextOutputFormat.FAILURES.get() > 0);
    assertFalse(
        "a failed job committed its output", fs.exists(new Path(out("failing"), "_SUCCESS")));
  }

  @Test
  public void badDelegateClassIsRefusedAtSubmissionNamingTheKey() throws Exception {
    Job job = WordSum.create(conf(), input, out("bad-delegate"), REDUCERS, true, false);
    job.setOutputFormatClass(AsyncOutputFormat.class);
    job.getConfiguration().set(MarcoConfig.ASYNC_OUTPUT_DELEGATE_CLASS, "no.such.OutputFormat");
    String why = JobDiagnostics.ofExpectedFailure(job);
    assertTrue(why, why.contains(MarcoConfig.ASYNC_OUTPUT_DELEGATE_CLASS));
    assertTrue(why, why.contains("no.such.OutputFormat"));
  }

  @Test
  public void oldApiDelegateForTheNewApiWrapperIsRefusedNamingTheOtherWrapper() throws Exception {
    Job job = WordSum.create(conf(), input, out("wrong-api"), REDUCERS, true, false);
    job.setOutputFormatClass(AsyncOutputFormat.class);
    job.getConfiguration()
        .set(
            MarcoConfig.ASYNC_OUTPUT_DELEGATE_CLASS,
            org.apache.hadoop.mapred.TextOutputFormat.class.getName());
    String why = JobDiagnostics.ofExpectedFailure(job);
    assertTrue(why, why.contains(AsyncMapredOutputFormat.class.getName()));
  }

  /** Builds a new-API word count under the given name. */
  private interface NamedJob {
    Job create(String name) throws IOException;
  }

  private NamedJob newApi(boolean async, boolean marco) {
    return name -> {
      Configuration conf = conf();
      if (marco) {
        MarcoJob.useMarcoShuffle(conf);
        // Invocations from the second map output on: at the default thresholds the first would
        // be due at the fourth, the last, which is past the stop point.
        conf.setInt(MarcoConfig.START_THRESHOLD_INITIAL, 2);
        conf.setInt(MarcoConfig.START_THRESHOLD, 2);
      } else {
        MarcoJob.useStockShuffle(conf);
      }
      Job job = WordSum.create(conf, input, out(name), REDUCERS, true, marco);
      job.setOutputFormatClass(WriterThreads.NewApiText.class);
      if (async) {
        AsyncOutput.enable(job);
      }
      return job;
    };
  }

  private JobOutput complete(Job job) throws Exception {
    if (!job.waitForCompletion(false)) {
      fail(JobDiagnostics.of(job));
    }
    return JobOutput.read(fs, FileOutputFormat.getOutputPath(job));
  }

  /**
   * Each reduce's record writer took all its records on the background writer thread the
   * asynchronous output format names after the task, never on the reducer's own thread.
   */
  private static void assertWrittenInTheBackground() {
    List<WriterThreads.Writer> writers = WriterThreads.drain();
    assertEquals(writers.toString(), REDUCERS, writers.size());
    for (WriterThreads.Writer w : writers) {
      assertTrue(w.toString(), w.records.get() > 0);
      assertFalse("the reducer wrote its own output: " + w, w.writers.contains(w.opener));
      for (Thread t : w.writers) {
        assertTrue(w.toString(), t.getName().startsWith("async-output "));
      }
    }
  }

  /** Each reduce's record writer took all its records on the reducer's own thread. */
  private static void assertWrittenByTheReducers() {
    List<WriterThreads.Writer> writers = WriterThreads.drain();
    assertEquals(writers.toString(), REDUCERS, writers.size());
    for (WriterThreads.Writer w : writers) {
      assertTrue(w.toString(), w.records.get() > 0);
      assertEquals(w.toString(), Set.of(w.opener), w.writers);
    }
  }

  private Configuration conf() {
    return LocalModeConf.newConf(workDir);
  }

  private Path out(String name) {
    return new Path(new File(workDir, "out-" + name).toURI());
  }
}
