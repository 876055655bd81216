/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.FileInputFormat;
import org.apache.hadoop.mapred.FileOutputFormat;
import org.apache.hadoop.mapred.JobClient;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.Mapper;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * adjacency-list-old-api: adjacency-list as a third-party job would write it, for the MaRCO
 * runtime's behaviour with an expensive partial reducer. Old API ({@code org.apache.hadoop.mapred}),
 * text values, and no partial reducer of its own: its combiner serves as one through {@value
 * MarcoConfig#PARTIAL_REDUCER_USE_COMBINER}. Combiner and reducer build a node's list of tagged
 * ids ({@code f<id>} from, {@code t<id>} to) by linear-scan de-duplication and string
 * concatenation, so their cost grows with the square of a node's values. The output line is
 * {@code node <TAB> from{...}:to{...}}, both lists sorted, as adjacency-list writes it. The job
 * runs through {@link JobClient}, so the output write is not timed separately (the harness's
 * breakdown counts it in the final reduce).
 */
public class AdjacencyListOldApi extends Configured implements Tool {
  private static final String SEP = ",";

  /** Emits (to, f<from>) and (from, t<to>) for an edge line {@code from <TAB> to}. */
  public static class EdgeMapper extends MapReduceBase
      implements Mapper<LongWritable, Text, Text, Text> {
    private final Text node = new Text();
    private final Text tagged = new Text();

    @Override
    public void map(LongWritable offset, Text line, OutputCollector<Text, Text> out, Reporter r)
        throws IOException {
      String s = line.toString();
      int tab = s.indexOf('\t');
      if (tab <= 0) {
        throw new IllegalArgumentException(
            "Not an edge line (expected from<TAB>to, as gen-graph writes): '" + s + "'");
      }
      String from = s.substring(0, tab).trim();
      String to = s.substring(tab + 1).trim();
      node.set(to);
      tagged.set("f" + from);
      out.collect(node, tagged);
      node.set(from);
      tagged.set("t" + to);
      out.collect(node, tagged);
    }
  }

  /** A node's distinct tagged ids, from single ids and from lists a combiner already built. */
  static List<String> distinct(Iterator<Text> values) {
    PaperReducers.QuadraticList list = new PaperReducers.QuadraticList();
    while (values.hasNext()) {
      for (String id : values.next().toString().split(SEP)) {
        list.add(id);
      }
    }
    return list.elements();
  }

  /** Combiner, and through use-combiner the partial reducer: a node's distinct ids, joined. */
  public static class DistinctIdsCombiner extends MapReduceBase
      implements Reducer<Text, Text, Text, Text> {
    private final Text joined = new Text();

    @Override
    public void reduce(
        Text node, Iterator<Text> values, OutputCollector<Text, Text> out, Reporter r)
        throws IOException {
      joined.set(String.join(SEP, distinct(values)));
      out.collect(node, joined);
    }
  }

  /** Final reducer: the distinct ids as sorted from- and to-lists. */
  public static class AdjacencyReducer extends MapReduceBase
      implements Reducer<Text, Text, Text, Text> {
    private final Text lists = new Text();

    @Override
    public void reduce(
        Text node, Iterator<Text> values, OutputCollector<Text, Text> out, Reporter r)
        throws IOException {
      List<String> ids = distinct(values);
      lists.set("from" + sorted(ids, 'f') + ":to" + sorted(ids, 't'));
      out.collect(node, lists);
    }

    private static String sorted(List<String> tagged, char tag) {
      StringBuilder s = new StringBuilder("{");
      tagged.stream()
          .filter(id -> id.charAt(0) == tag)
          .mapToLong(id -> Long.parseLong(id.substring(1)))
          .sorted()
          .forEach(id -> s.append(s.length() == 1 ? "" : ",").append(id));
      return s.append('}').toString();
    }
  }

  /** The job reading edge lines from {@code input} and writing the lists to {@code output}. */
  public static JobConf jobConf(Configuration conf, Path input, Path output) {
    JobConf job = new JobConf(conf, AdjacencyListOldApi.class);
    job.setJobName("adjacency-list-old-api");
    job.setMapperClass(EdgeMapper.class);
    job.setCombinerClass(DistinctIdsCombiner.class);
    job.setBoolean(MarcoConfig.PARTIAL_REDUCER_USE_COMBINER, true);
    job.setReducerClass(AdjacencyReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    FileInputFormat.setInputPaths(job, input);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("Usage: adjacency-list-old-api [generic options] <input> <output>");
      ToolRunner.printGenericCommandUsage(System.err);
      return 2;
    }
    return JobClient.runJob(jobConf(getConf(), new Path(args[0]), new Path(args[1]))).isSuccessful()
        ? 0
        : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new AdjacencyListOldApi(), args));
  }
}
