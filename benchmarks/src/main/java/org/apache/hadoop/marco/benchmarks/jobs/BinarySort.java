/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.lib.input.FixedLengthInputFormat;
import org.apache.hadoop.mapreduce.marco.MarcoJob;
import org.apache.hadoop.marco.benchmarks.BenchmarkJob;
import org.apache.hadoop.marco.benchmarks.gen.BinaryModel;
import org.apache.hadoop.marco.benchmarks.io.RawBytesOutputFormat;
import org.apache.hadoop.util.ToolRunner;

/**
 * binary-sort (shuffle-heavy, NOWsort-like): sorts 100-byte records on their first 10 bytes. The
 * map is identity, there is no combiner, the partial reducer is identity (pure overhead by
 * design), the reducer emits the sorted records. The map-output key is the whole record, so the
 * built-in sort orders by the 10-byte key and records with equal keys by their remaining bytes:
 * the output is the same whatever order map outputs arrive in. Reducers get key ranges (the keys
 * are uniform), so the part files concatenated are globally sorted.
 */
public class BinarySort extends BenchmarkJob {
  /** Identity map: the record becomes the key. */
  public static class RecordMapper
      extends Mapper<LongWritable, BytesWritable, BytesWritable, NullWritable> {
    @Override
    protected void map(LongWritable offset, BytesWritable record, Context context)
        throws IOException, InterruptedException {
      context.write(record, NullWritable.get());
    }
  }

  /** Identity partial and final reducer: one output record per value (keeps duplicates). */
  public static class RecordIdentity extends IdentityReducer<BytesWritable, NullWritable> {}

  /** Range partitioner on the first two key bytes, which are uniformly random. */
  public static class KeyRangePartitioner extends Partitioner<BytesWritable, NullWritable> {
    @Override
    public int getPartition(BytesWritable key, NullWritable value, int partitions) {
      byte[] b = key.getBytes();
      int prefix = ((b[0] & 0xff) << 8) | (b[1] & 0xff);
      return (int) ((long) prefix * partitions >>> 16);
    }
  }

  @Override
  public String programName() {
    return "binary-sort";
  }

  @Override
  protected void configure(Job job, String[] extraArgs) {
    Configuration conf = job.getConfiguration();
    FixedLengthInputFormat.setRecordLength(conf, BinaryModel.RECORD_BYTES);
    job.setInputFormatClass(FixedLengthInputFormat.class);
    job.setMapperClass(RecordMapper.class);
    MarcoJob.setPartialReducerClass(job, RecordIdentity.class);
    job.setReducerClass(RecordIdentity.class);
    job.setPartitionerClass(KeyRangePartitioner.class);
    job.setOutputKeyClass(BytesWritable.class);
    job.setOutputValueClass(NullWritable.class);
    job.setOutputFormatClass(RawBytesOutputFormat.class);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new BinarySort(), args));
  }
}
