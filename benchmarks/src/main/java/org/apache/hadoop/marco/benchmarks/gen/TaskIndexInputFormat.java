/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.gen;

import java.io.DataInput;
import java.io.DataOutput;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * One split per generator task, carrying nothing but the task's index (like TeraGen's range
 * splits): the data is made by the map, not read.
 */
public class TaskIndexInputFormat extends InputFormat<IntWritable, NullWritable> {
  static final String TASKS = "marco.gen.tasks";

  /** The split of one task. */
  public static class TaskSplit extends InputSplit implements Writable {
    private int index;

    public TaskSplit() {}

    TaskSplit(int index) {
      this.index = index;
    }

    @Override
    public long getLength() {
      return 0;
    }

    @Override
    public String[] getLocations() {
      return new String[0];
    }

    @Override
    public void write(DataOutput out) throws java.io.IOException {
      out.writeInt(index);
    }

    @Override
    public void readFields(DataInput in) throws java.io.IOException {
      index = in.readInt();
    }
  }

  @Override
  public List<InputSplit> getSplits(JobContext context) {
    int tasks = context.getConfiguration().getInt(TASKS, 1);
    List<InputSplit> splits = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      splits.add(new TaskSplit(i));
    }
    return splits;
  }

  @Override
  public RecordReader<IntWritable, NullWritable> createRecordReader(
      InputSplit split, TaskAttemptContext context) {
    return new RecordReader<IntWritable, NullWritable>() {
      private final IntWritable index = new IntWritable(((TaskSplit) split).index);
      private boolean consumed;

      @Override
      public void initialize(InputSplit s, TaskAttemptContext c) {}

      @Override
      public boolean nextKeyValue() {
        boolean first = !consumed;
        consumed = true;
        return first;
      }

      @Override
      public IntWritable getCurrentKey() {
        return index;
      }

      @Override
      public NullWritable getCurrentValue() {
        return NullWritable.get();
      }

      @Override
      public float getProgress() {
        return consumed ? 1 : 0;
      }

      @Override
      public void close() {}
    };
  }
}
