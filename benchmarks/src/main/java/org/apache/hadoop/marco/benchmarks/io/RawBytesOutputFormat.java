/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.io;

import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * Writes each key's bytes exactly as they are, with no separator or length: binary-sort's
 * 100-byte records, and the generators' records (text generators include their own newline).
 */
public class RawBytesOutputFormat extends FileOutputFormat<BytesWritable, NullWritable> {
  @Override
  public RecordWriter<BytesWritable, NullWritable> getRecordWriter(TaskAttemptContext context)
      throws IOException {
    Path file = getDefaultWorkFile(context, "");
    FileSystem fs = file.getFileSystem(context.getConfiguration());
    DataOutputStream out = fs.create(file, false);
    return new RecordWriter<BytesWritable, NullWritable>() {
      @Override
      public void write(BytesWritable key, NullWritable value) throws IOException {
        out.write(key.getBytes(), 0, key.getLength());
      }

      @Override
      public void close(TaskAttemptContext ignored) throws IOException {
        out.close();
      }
    };
  }
}
