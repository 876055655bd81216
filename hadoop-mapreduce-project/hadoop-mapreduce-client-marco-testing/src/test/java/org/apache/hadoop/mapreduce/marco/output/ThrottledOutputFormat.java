/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.output;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;

/**
 * Benchmark stand-in for a slow, synchronous output path (a congested file system): a sequence
 * file writer whose every write blocks for as long as its bytes take at
 * {@value #BYTES_PER_SECOND} (default 4 MiB/s per reduce task).
 */
public class ThrottledOutputFormat extends SequenceFileOutputFormat<BytesWritable, BytesWritable> {
  static final String BYTES_PER_SECOND = "marco.bench.output.bytes.per.second";

  @Override
  public RecordWriter<BytesWritable, BytesWritable> getRecordWriter(TaskAttemptContext context)
      throws IOException, InterruptedException {
    RecordWriter<BytesWritable, BytesWritable> real = super.getRecordWriter(context);
    Configuration conf = context.getConfiguration();
    double nanosPerByte = 1e9 / conf.getLong(BYTES_PER_SECOND, 4L << 20);
    return new RecordWriter<BytesWritable, BytesWritable>() {
      private double owedNanos;

      @Override
      public void write(BytesWritable key, BytesWritable value)
          throws IOException, InterruptedException {
        real.write(key, value);
        owedNanos += (key.getLength() + value.getLength()) * nanosPerByte;
        if (owedNanos >= 1_000_000) {
          long millis = (long) (owedNanos / 1_000_000);
          Thread.sleep(millis);
          owedNanos -= millis * 1_000_000.0;
        }
      }

      @Override
      public void close(TaskAttemptContext c) throws IOException, InterruptedException {
        real.close(c);
      }
    };
  }
}
