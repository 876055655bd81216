/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringTokenizer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.marco.MarcoJob;
import org.apache.hadoop.marco.benchmarks.BenchmarkJob;
import org.apache.hadoop.marco.benchmarks.io.DocumentLine;
import org.apache.hadoop.marco.benchmarks.io.TermCountsWritable;
import org.apache.hadoop.util.ToolRunner;

/**
 * term-vector (shuffle-heavy): the frequent words of every host. The map emits
 * (host, {word:1}) per word; the light combiner sums one word's counts within a map output; the
 * partial reducer merges a host's lists into one {word:count} list; the final reducer merges,
 * drops words seen fewer than {@value #CUTOFF} times (default 5) and emits
 * {@code host <TAB> word:count ...} by decreasing count, then word.
 */
public class TermVector extends BenchmarkJob {
  public static final String CUTOFF = "marco.benchmarks.termvector.cutoff";
  public static final int DEFAULT_CUTOFF = 5;

  /** Emits (host, {word:1}) for every word of a document line. */
  public static class HostWordMapper extends Mapper<Object, Text, Text, TermCountsWritable> {
    private final Text host = new Text();
    private final TermCountsWritable single = new TermCountsWritable();

    @Override
    protected void map(Object key, Text value, Context context)
        throws IOException, InterruptedException {
      host.set(DocumentLine.host(value));
      StringTokenizer tokens = new StringTokenizer(DocumentLine.words(value));
      while (tokens.hasMoreTokens()) {
        single.clear();
        single.add(tokens.nextToken(), 1);
        context.write(host, single);
      }
    }
  }

  /** Light combiner: one {word:n} value per distinct word of the host in this map output. */
  public static class WordSumCombiner
      extends Reducer<Text, TermCountsWritable, Text, TermCountsWritable> {
    private final TermCountsWritable single = new TermCountsWritable();

    @Override
    protected void reduce(Text host, Iterable<TermCountsWritable> values, Context context)
        throws IOException, InterruptedException {
      for (Map.Entry<String, Long> e : TermCountsWritable.sum(values).counts().entrySet()) {
        single.clear();
        single.add(e.getKey(), e.getValue());
        context.write(host, single);
      }
    }
  }

  /** Partial reducer: merges a host's partial term vectors into one list (no cut-off yet). */
  public static class TermVectorMerger
      extends Reducer<Text, TermCountsWritable, Text, TermCountsWritable> {
    @Override
    protected void reduce(Text host, Iterable<TermCountsWritable> values, Context context)
        throws IOException, InterruptedException {
      context.write(host, TermCountsWritable.sum(values));
    }
  }

  /** Final reducer: drops infrequent words and prints the host's term vector. */
  public static class TermVectorReducer extends Reducer<Text, TermCountsWritable, Text, Text> {
    private int cutoff;
    private final Text out = new Text();

    @Override
    protected void setup(Context context) {
      cutoff = context.getConfiguration().getInt(CUTOFF, DEFAULT_CUTOFF);
    }

    @Override
    protected void reduce(Text host, Iterable<TermCountsWritable> values, Context context)
        throws IOException, InterruptedException {
      List<Map.Entry<String, Long>> frequent = new ArrayList<>();
      for (Map.Entry<String, Long> e : TermCountsWritable.sum(values).counts().entrySet()) {
        if (e.getValue() >= cutoff) {
          frequent.add(e);
        }
      }
      if (frequent.isEmpty()) {
        return;
      }
      frequent.sort(
          Map.Entry.<String, Long>comparingByValue()
              .reversed()
              .thenComparing(Map.Entry.comparingByKey()));
      StringBuilder s = new StringBuilder();
      for (Map.Entry<String, Long> e : frequent) {
        s.append(s.length() == 0 ? "" : " ").append(e.getKey()).append(':').append(e.getValue());
      }
      out.set(s.toString());
      context.write(host, out);
    }
  }

  @Override
  public String programName() {
    return "term-vector";
  }

  @Override
  protected void configure(Job job, String[] extraArgs) {
    int cutoff = job.getConfiguration().getInt(CUTOFF, DEFAULT_CUTOFF);
    if (cutoff < 1) {
      throw new IllegalArgumentException(CUTOFF + " must be at least 1, got " + cutoff);
    }
    job.setMapperClass(HostWordMapper.class);
    job.setCombinerClass(WordSumCombiner.class);
    MarcoJob.setPartialReducerClass(job, TermVectorMerger.class);
    job.setReducerClass(TermVectorReducer.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(TermCountsWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new TermVector(), args));
  }
}
