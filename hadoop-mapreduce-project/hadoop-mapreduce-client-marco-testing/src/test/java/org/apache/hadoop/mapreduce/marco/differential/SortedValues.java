/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.differential;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * New-API job without combiner or partial reducer: input lines {@code key value}; the reducer
 * writes each key's values sorted (the order it receives them in depends on fetch order, so it
 * sorts to keep the output deterministic).
 */
public final class SortedValues {
  private SortedValues() {}

  /** {@code key value} to (key, value). */
  public static class PairMapper extends Mapper<LongWritable, Text, Text, Text> {
    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String[] fields = line.toString().split(" ", 2);
      context.write(new Text(fields[0]), new Text(fields[1]));
    }
  }

  /** Writes {@code key <tab> v1,v2,...} with the values sorted. */
  public static class SortingReducer extends Reducer<Text, Text, Text, Text> {
    @Override
    protected void reduce(Text key, Iterable<Text> values, Context context)
        throws IOException, InterruptedException {
      List<String> sorted = new ArrayList<>();
      for (Text value : values) {
        sorted.add(value.toString());
      }
      Collections.sort(sorted);
      context.write(key, new Text(String.join(",", sorted)));
    }
  }

  public static Job create(Configuration conf, Path input, Path output, int reducers)
      throws IOException {
    Job job = Job.getInstance(conf, "sorted-values");
    job.setMapperClass(PairMapper.class);
    job.setReducerClass(SortingReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setNumReduceTasks(reducers);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }
}
