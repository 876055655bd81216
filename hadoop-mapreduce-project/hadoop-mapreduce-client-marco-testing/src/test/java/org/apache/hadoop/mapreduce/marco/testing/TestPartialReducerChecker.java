/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.testing;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DoubleWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.marco.MarcoJob;
import org.apache.hadoop.mapreduce.marco.differential.WordSum;
import org.junit.Test;

/** The checker passes lawful partial reducers and names each broken rule with a small sample. */
public class TestPartialReducerChecker {
  /** "key value" lines to (key, value). */
  public static class KeyValueMapper extends Mapper<LongWritable, Text, Text, DoubleWritable> {
    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String[] kv = line.toString().split(" ");
      context.write(new Text(kv[0]), new DoubleWritable(Double.parseDouble(kv[1])));
    }
  }

  public static class Sum extends Reducer<Text, DoubleWritable, Text, DoubleWritable> {
    @Override
    protected void reduce(Text key, Iterable<DoubleWritable> values, Context context)
        throws IOException, InterruptedException {
      double sum = 0;
      for (DoubleWritable v : values) {
        sum += v.get();
      }
      context.write(key, new DoubleWritable(sum));
    }
  }

  /** Not associative: the average of averages is not the average. */
  public static class Average extends Reducer<Text, DoubleWritable, Text, DoubleWritable> {
    @Override
    protected void reduce(Text key, Iterable<DoubleWritable> values, Context context)
        throws IOException, InterruptedException {
      double sum = 0;
      int n = 0;
      for (DoubleWritable v : values) {
        sum += v.get();
        n++;
      }
      context.write(key, new DoubleWritable(sum / n));
    }
  }

  /** Sums, but under a key of its own making. */
  public static class KeyChangingSum extends Reducer<Text, DoubleWritable, Text, DoubleWritable> {
    @Override
    protected void reduce(Text key, Iterable<DoubleWritable> values, Context context)
        throws IOException, InterruptedException {
      double sum = 0;
      for (DoubleWritable v : values) {
        sum += v.get();
      }
      context.write(new Text(key + "-sum"), new DoubleWritable(sum));
    }
  }

  /** Sums into an IntWritable: not the map-output value type. */
  @SuppressWarnings({"rawtypes", "unchecked"})
  public static class WrongTypeSum extends Reducer {
    @Override
    protected void reduce(Object key, Iterable values, Context context)
        throws IOException, InterruptedException {
      int sum = 0;
      for (Object v : values) {
        sum += (int) ((DoubleWritable) v).get();
      }
      context.write(key, new IntWritable(sum));
    }
  }

  private static Job job(Class<? extends Reducer> partial) throws IOException {
    Job job = Job.getInstance(new Configuration(false));
    job.setMapperClass(KeyValueMapper.class);
    job.setReducerClass(Average.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(DoubleWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(DoubleWritable.class);
    if (partial != null) {
      MarcoJob.setPartialReducerClass(job, partial);
    }
    return job;
  }

  /** Lines "k0 1" .. : keys k0..k(keys-1), values 1..n. */
  private static List<Writable[]> lines(int n, int keys) {
    List<Writable[]> lines = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      lines.add(new Writable[] {new LongWritable(i), new Text("k" + i % keys + " " + (i + 1))});
    }
    return lines;
  }

  private static AssertionError failure(
      Class<? extends Reducer> partial, Class<? extends Reducer> finalReducer) throws IOException {
    Job job = job(partial);
    job.setReducerClass(finalReducer);
    return assertThrows(
        AssertionError.class,
        () -> PartialReducerChecker.forJob(job).mapInput(lines(40, 4)).check());
  }

  /** How many records the smallest sample in the message holds. */
  private static int smallestSample(AssertionError e) {
    String m = e.getMessage();
    int at = m.indexOf("Smallest sample that shows it (");
    assertTrue(m, at >= 0);
    return Integer.parseInt(
        m.substring(at + "Smallest sample that shows it (".length()).split(" ")[0]);
  }

  @Test
  public void aSumIsALawfulPartialReducerOfASum() throws Exception {
    Job job = job(Sum.class);
    job.setReducerClass(Sum.class);
    List<String> out = PartialReducerChecker.forJob(job).mapInput(lines(40, 4)).check();
    // 1..40 by i % 4: k0 = 1+5+..+37, and so on.
    assertEquals(List.of("k0\t190.0", "k1\t200.0", "k2\t210.0", "k3\t220.0"), out);
  }

  /** The example of docs/partial-reducer.md, on the word sum of the differential tests. */
  @Test
  public void theDocumentedWordCountExample() throws Exception {
    Job job = WordSum.create(new Configuration(), new Path("in"), new Path("out"), 1, true, true);
    List<Writable[]> lines =
        List.of(
            new Writable[] {new LongWritable(0), new Text("a b a")},
            new Writable[] {new LongWritable(6), new Text("b c a")});
    List<String> out =
        PartialReducerChecker.forJob(job).mapInput(lines).maps(2).trials(200).check();
    assertEquals(List.of("a\t3", "b\t2", "c\t1"), out);
  }

  @Test
  public void anAverageIsCaughtWithTheSmallestSampleThatShowsIt() throws Exception {
    AssertionError e = failure(Average.class, Average.class);
    assertTrue(
        e.getMessage(),
        e.getMessage()
            .contains(
                "Partial reducer "
                    + Average.class.getName()
                    + " breaks the partial-reducer contract"));
    assertTrue(e.getMessage(), e.getMessage().contains("differs from reduce(all map outputs)"));
    // Two values average the same however they are split; three of one key are the fewest
    // that show it.
    assertEquals(e.getMessage(), 3, smallestSample(e));
  }

  @Test
  public void aKeyChangingPartialReducerIsCaught() throws Exception {
    AssertionError e = failure(KeyChangingSum.class, Sum.class);
    assertTrue(
        e.getMessage(),
        e.getMessage().contains("it must emit only keys of the group it was called with"));
    assertEquals(e.getMessage(), 1, smallestSample(e));
  }

  @Test
  public void aPartialReducerOfAnotherTypeIsCaught() throws Exception {
    AssertionError e = failure(WrongTypeSum.class, Sum.class);
    assertTrue(e.getMessage(), e.getMessage().contains("it must emit the map-output types"));
    assertEquals(e.getMessage(), 1, smallestSample(e));
  }

  @Test
  public void aPartialReducerThatEmitsKeysOutOfOrderIsCaught() throws Exception {
    Job job = job(null);
    job.setMapOutputValueClass(LongWritable.class);
    MarcoJob.setPartialReducerClass(
        job, org.apache.hadoop.mapreduce.task.reduce.ReverseOrderPartialReducer.class);
    job.setReducerClass(Reducer.class);
    PartialReducerChecker checker = PartialReducerChecker.forJob(job);
    for (String key : List.of("a", "b", "c")) {
      checker.mapOutput(new Text(key), new LongWritable(1));
    }
    AssertionError e = assertThrows(AssertionError.class, checker::check);
    // Emitted from cleanup, in reverse: after the last group's key comes an earlier one.
    assertTrue(e.getMessage(), e.getMessage().contains("emitted key 'b'"));
  }

  @Test
  public void aJobWithoutAPartialReducerIsRefused() throws Exception {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PartialReducerChecker.forJob(job(null)));
    assertTrue(e.getMessage(), e.getMessage().contains("mapreduce.marco.partial.reducer.class"));
  }
}
