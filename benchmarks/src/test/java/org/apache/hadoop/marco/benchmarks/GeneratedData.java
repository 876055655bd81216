/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.marco.benchmarks.gen.Budget;
import org.apache.hadoop.marco.benchmarks.gen.DataModel;
import org.apache.hadoop.marco.benchmarks.gen.RecordSink;
import org.apache.hadoop.marco.benchmarks.gen.TaskSpec;

/** Runs generator models in memory (all tasks, in order) and turns data into map input. */
public final class GeneratedData {
  private GeneratedData() {}

  /** The bytes a generator job with these arguments would write, part files concatenated. */
  public static byte[] generate(
      DataModel model, Configuration conf, long seed, int tasks, Budget budget) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int t = 0; t < tasks; t++) {
      out.write(generateTask(model, conf, seed, t, tasks, budget));
    }
    return out.toByteArray();
  }

  /** The bytes task {@code t} of such a generator job would write: one part file. */
  public static byte[] generateTask(
      DataModel model, Configuration conf, long seed, int t, int tasks, Budget budget)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    TaskSpec spec = new TaskSpec(seed, t, tasks, budget, conf);
    model.generate(
        spec,
        new RecordSink(budget.unit(), spec.share()) {
          @Override
          protected void write(byte[] record, int length) {
            out.write(record, 0, length);
          }
        });
    return out.toByteArray();
  }

  public static List<String> lines(byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    return text.isEmpty() ? List.of() : Arrays.asList(text.split("\n"));
  }

  /** (byte offset, line) pairs, as TextInputFormat reads them. */
  public static List<Writable[]> textInput(List<String> lines) {
    List<Writable[]> input = new ArrayList<>();
    long offset = 0;
    for (String line : lines) {
      input.add(new Writable[] {new LongWritable(offset), new Text(line)});
      offset += line.getBytes(StandardCharsets.UTF_8).length + 1;
    }
    return input;
  }

  /** (byte offset, record) pairs, as FixedLengthInputFormat reads them. */
  public static List<Writable[]> fixedLengthInput(byte[] data, int recordBytes) {
    List<Writable[]> input = new ArrayList<>();
    for (int offset = 0; offset + recordBytes <= data.length; offset += recordBytes) {
      input.add(
          new Writable[] {
            new LongWritable(offset),
            new BytesWritable(Arrays.copyOfRange(data, offset, offset + recordBytes))
          });
    }
    return input;
  }
}
