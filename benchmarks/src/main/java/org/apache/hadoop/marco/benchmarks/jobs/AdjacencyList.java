/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.marco.benchmarks.BenchmarkJob;
import org.apache.hadoop.marco.benchmarks.io.AdjacencyWritable;
import org.apache.hadoop.util.ToolRunner;

/**
 * adjacency-list (shuffle-heavy): input edges {@code p <TAB> q}; the map emits
 * (q, from{p}:to{}) and (p, from{}:to{q}); the combiner drops duplicate tuples within a map
 * output; the partial reducer builds partial sorted unions; the final reducer emits
 * {@code x <TAB> from{...}:to{...}} with both lists sorted.
 */
public class AdjacencyList extends BenchmarkJob {
  private static final long[] NONE = new long[0];

  /** Emits both directions of an edge. */
  public static class EdgeMapper extends Mapper<Object, Text, LongWritable, AdjacencyWritable> {
    private final LongWritable node = new LongWritable();
    private final AdjacencyWritable lists = new AdjacencyWritable();

    @Override
    protected void map(Object key, Text value, Context context)
        throws IOException, InterruptedException {
      String line = value.toString();
      int tab = line.indexOf('\t');
      long p;
      long q;
      try {
        p = Long.parseLong(line.substring(0, Math.max(tab, 0)));
        q = Long.parseLong(line.substring(tab + 1).trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "Not an edge line (expected from<TAB>to with numeric"
                + " node ids, as gen-graph writes): '"
                + line
                + "'",
            e);
      }
      node.set(q);
      lists.set(new long[] {p}, NONE);
      context.write(node, lists);
      node.set(p);
      lists.set(NONE, new long[] {q});
      context.write(node, lists);
    }
  }

  /** Light combiner: duplicate elimination. */
  public static class DuplicateRemover
      extends DistinctValuesCombiner<LongWritable, AdjacencyWritable> {}

  /** Partial and final reducer: sorted unions of the from-lists and of the to-lists. */
  public static class SortedUnionReducer
      extends Reducer<LongWritable, AdjacencyWritable, LongWritable, AdjacencyWritable> {
    @Override
    protected void reduce(LongWritable node, Iterable<AdjacencyWritable> values, Context context)
        throws IOException, InterruptedException {
      AdjacencyWritable union = new AdjacencyWritable();
      for (AdjacencyWritable v : values) {
        union.unionWith(v);
      }
      context.write(node, union);
    }
  }

  /**
   * {@link SortedUnionReducer} with the paper's cost ({@link PaperReducers}): both lists as one
   * list string of tagged ids built by linear-scan de-duplication and concatenation, then
   * sorted.
   */
  public static class PaperUnionReducer
      extends Reducer<LongWritable, AdjacencyWritable, LongWritable, AdjacencyWritable> {
    @Override
    protected void reduce(LongWritable node, Iterable<AdjacencyWritable> values, Context context)
        throws IOException, InterruptedException {
      PaperReducers.QuadraticList list = new PaperReducers.QuadraticList();
      for (AdjacencyWritable v : values) {
        for (long p : v.from()) {
          list.add("f" + p);
        }
        for (long q : v.to()) {
          list.add("t" + q);
        }
      }
      List<String> elements = list.elements();
      long[] from = ids(elements, 'f');
      long[] to = ids(elements, 't');
      AdjacencyWritable union = new AdjacencyWritable();
      union.set(from, to);
      context.write(node, union);
    }

    private static long[] ids(List<String> tagged, char tag) {
      return tagged.stream()
          .filter(e -> e.charAt(0) == tag)
          .mapToLong(e -> Long.parseLong(e.substring(1)))
          .sorted()
          .toArray();
    }
  }

  @Override
  public String programName() {
    return "adjacency-list";
  }

  @Override
  protected void configure(Job job, String[] extraArgs) {
    job.setMapperClass(EdgeMapper.class);
    job.setCombinerClass(DuplicateRemover.class);
    PaperReducers.choose(job, SortedUnionReducer.class, PaperUnionReducer.class);
    job.setOutputKeyClass(LongWritable.class);
    job.setOutputValueClass(AdjacencyWritable.class);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new AdjacencyList(), args));
  }
}
