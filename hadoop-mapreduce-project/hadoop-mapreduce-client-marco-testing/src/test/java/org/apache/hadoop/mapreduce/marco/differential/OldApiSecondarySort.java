/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.differential;

import java.io.IOException;
import java.util.Iterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.mapred.FileInputFormat;
import org.apache.hadoop.mapred.FileOutputFormat;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.Mapper;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Partitioner;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.marco.testing.OldApiJobs;

/**
 * Old-API secondary sort. Input lines are {@code group number}; the map key is
 * {@code group:number}. A custom sort comparator orders by group ascending, then number
 * descending; a custom grouping comparator groups by group only; a custom partitioner routes by
 * group. The reducer writes each group's numbers in the order it receives them, so the output
 * checks that the merge honours both comparators (and it is deterministic: equal keys carry
 * equal values).
 */
public final class OldApiSecondarySort {
  private OldApiSecondarySort() {}

  static String group(Text compositeKey) {
    String key = compositeKey.toString();
    return key.substring(0, key.indexOf(':'));
  }

  static long number(Text compositeKey) {
    String key = compositeKey.toString();
    return Long.parseLong(key.substring(key.indexOf(':') + 1));
  }

  /** Partition of a group, shared by the partitioner and the tests' expected output. */
  static int partitionOf(String group, int partitions) {
    return (group.hashCode() & Integer.MAX_VALUE) % partitions;
  }

  /** {@code group number} to ({@code group:number}, number). */
  public static class CompositeKeyMapper extends MapReduceBase
      implements Mapper<LongWritable, Text, Text, LongWritable> {
    @Override
    public void map(
        LongWritable offset, Text line, OutputCollector<Text, LongWritable> out, Reporter reporter)
        throws IOException {
      String[] fields = line.toString().split(" ");
      long number = Long.parseLong(fields[1]);
      out.collect(new Text(fields[0] + ":" + number), new LongWritable(number));
    }
  }

  /** Group ascending, then number descending. */
  public static class GroupThenNumberDescending extends WritableComparator {
    public GroupThenNumberDescending() {
      super(Text.class, true);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public int compare(WritableComparable a, WritableComparable b) {
      int byGroup = group((Text) a).compareTo(group((Text) b));
      return byGroup != 0 ? byGroup : Long.compare(number((Text) b), number((Text) a));
    }
  }

  /** Keys with the same group form one reduce group. */
  public static class SameGroup extends WritableComparator {
    public SameGroup() {
      super(Text.class, true);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public int compare(WritableComparable a, WritableComparable b) {
      return group((Text) a).compareTo(group((Text) b));
    }
  }

  /** Routes all keys of a group to one reducer. */
  public static class GroupPartitioner implements Partitioner<Text, LongWritable> {
    @Override
    public void configure(JobConf job) {}

    @Override
    public int getPartition(Text key, LongWritable value, int partitions) {
      return partitionOf(group(key), partitions);
    }
  }

  /** Writes {@code group <tab> n1,n2,...} in arrival order. */
  public static class ListReducer extends MapReduceBase
      implements Reducer<Text, LongWritable, Text, Text> {
    @Override
    public void reduce(
        Text key,
        Iterator<LongWritable> numbers,
        OutputCollector<Text, Text> out,
        Reporter reporter)
        throws IOException {
      StringBuilder list = new StringBuilder();
      while (numbers.hasNext()) {
        if (list.length() > 0) {
          list.append(',');
        }
        list.append(numbers.next().get());
      }
      out.collect(new Text(group(key)), new Text(list.toString()));
    }
  }

  public static Job create(Configuration conf, Path input, Path output, int reducers)
      throws IOException {
    JobConf job = new JobConf(conf);
    job.setJobName("old-api-secondary-sort");
    job.setMapperClass(CompositeKeyMapper.class);
    job.setReducerClass(ListReducer.class);
    job.setPartitionerClass(GroupPartitioner.class);
    job.setOutputKeyComparatorClass(GroupThenNumberDescending.class);
    job.setOutputValueGroupingComparator(SameGroup.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(LongWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setNumReduceTasks(reducers);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    return OldApiJobs.asJob(job);
  }
}
