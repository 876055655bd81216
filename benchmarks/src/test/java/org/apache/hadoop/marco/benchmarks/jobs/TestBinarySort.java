/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.marco.testing.JobFunctions;
import org.apache.hadoop.mapreduce.marco.testing.PartialReducerChecker;
import org.apache.hadoop.marco.benchmarks.GeneratedData;
import org.apache.hadoop.marco.benchmarks.gen.BinaryModel;
import org.apache.hadoop.marco.benchmarks.gen.Budget;
import org.junit.Test;

public class TestBinarySort {
  private final JobFunctions job = BenchmarkFunctions.of(new BinarySort(), new Configuration());

  public TestBinarySort() throws Exception {}

  private static byte[] records(int count, long seed) throws Exception {
    return GeneratedData.generate(
        new BinaryModel(), new Configuration(), seed, 2, new Budget(Budget.Unit.RECORDS, count));
  }

  @Test
  public void identityMapPartialAndReduceSortByKeyKeepingDuplicates() throws Exception {
    byte[] data = records(50, 1);
    List<Writable[]> input = new ArrayList<>(GeneratedData.fixedLengthInput(data, 100));
    input.add(input.get(7));
    var mapped = job.map(input);
    assertEquals(51, mapped.size());
    assertEquals(51, job.partialReduce(mapped, new Random(2)).size());
    List<String> out = job.reduce(mapped, new Random(3));
    assertEquals(51, out.size());
    for (int i = 1; i < out.size(); i++) {
      assertTrue("sorted at " + i, out.get(i - 1).compareTo(out.get(i)) <= 0);
    }
  }

  @Test
  public void partitionsAreKeyRangesInOrder() {
    BinarySort.KeyRangePartitioner partitioner = new BinarySort.KeyRangePartitioner();
    byte[] low = new byte[100];
    byte[] high = new byte[100];
    high[0] = (byte) 0xff;
    high[1] = (byte) 0xff;
    byte[] middle = new byte[100];
    middle[0] = (byte) 0x80;
    assertEquals(0, partitioner.getPartition(new BytesWritable(low), NullWritable.get(), 4));
    assertEquals(2, partitioner.getPartition(new BytesWritable(middle), NullWritable.get(), 4));
    assertEquals(3, partitioner.getPartition(new BytesWritable(high), NullWritable.get(), 4));
  }

  @Test
  public void partialReduceAlgebraHolds() throws Exception {
    PartialReducerChecker.of(job)
        .mapInput(GeneratedData.fixedLengthInput(records(400, 5), 100))
        .maps(4)
        .trials(10)
        .seed(7)
        .check();
  }
}
