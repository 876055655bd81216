/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.marco.benchmarks.BenchmarkJob;
import org.apache.hadoop.marco.benchmarks.io.StringSetWritable;
import org.apache.hadoop.util.ToolRunner;

/**
 * self-join (shuffle-heavy), the candidate generation of a-priori: input lines are k sorted,
 * space-separated elements; the map emits ({e1..e(k-1)}, {ek}); the combiner drops duplicates
 * within a map output; the partial reducer builds partial sorted lists; the final reducer emits
 * {@code e1 .. e(k-1) <TAB> e'1 e'2 ...}, the compact form of the k+1 candidates.
 */
public class SelfJoin extends BenchmarkJob {

  /** Splits off the last element of a candidate list. */
  public static class SplitLastMapper extends Mapper<Object, Text, Text, StringSetWritable> {
    private final Text prefix = new Text();
    private final StringSetWritable last = new StringSetWritable();

    @Override
    protected void map(Object key, Text value, Context context)
        throws IOException, InterruptedException {
      String line = value.toString().trim();
      int space = line.lastIndexOf(' ');
      if (space <= 0) {
        throw new IllegalArgumentException(
            "A self-join candidate list needs at least two"
                + " space-separated elements (gen-self-join writes k=5): '"
                + line
                + "'");
      }
      prefix.set(line.substring(0, space));
      last.clear();
      last.add(line.substring(space + 1));
      context.write(prefix, last);
    }
  }

  /** Light combiner: duplicate elimination. */
  public static class DuplicateRemover extends DistinctValuesCombiner<Text, StringSetWritable> {}

  /** Partial and final reducer: the sorted union of all elements of a prefix. */
  public static class SortedUnionReducer
      extends Reducer<Text, StringSetWritable, Text, StringSetWritable> {
    @Override
    protected void reduce(Text prefix, Iterable<StringSetWritable> values, Context context)
        throws IOException, InterruptedException {
      StringSetWritable union = new StringSetWritable();
      for (StringSetWritable v : values) {
        union.addAll(v);
      }
      context.write(prefix, union);
    }
  }

  /**
   * {@link SortedUnionReducer} with the paper's cost ({@link PaperReducers}): the elements as a
   * list string built by linear-scan de-duplication and concatenation, then sorted.
   */
  public static class PaperUnionReducer
      extends Reducer<Text, StringSetWritable, Text, StringSetWritable> {
    @Override
    protected void reduce(Text prefix, Iterable<StringSetWritable> values, Context context)
        throws IOException, InterruptedException {
      PaperReducers.QuadraticList list = new PaperReducers.QuadraticList();
      for (StringSetWritable v : values) {
        for (String element : v.elements()) {
          list.add(element);
        }
      }
      StringSetWritable union = new StringSetWritable();
      for (String element : list.elements()) {
        union.add(element);
      }
      context.write(prefix, union);
    }
  }

  @Override
  public String programName() {
    return "self-join";
  }

  @Override
  protected void configure(Job job, String[] extraArgs) {
    job.setMapperClass(SplitLastMapper.class);
    job.setCombinerClass(DuplicateRemover.class);
    PaperReducers.choose(job, SortedUnionReducer.class, PaperUnionReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(StringSetWritable.class);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new SelfJoin(), args));
  }
}
