/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.marco.testing.JobFunctions;
import org.apache.hadoop.mapreduce.marco.testing.PartialReducerChecker;
import org.apache.hadoop.marco.benchmarks.GeneratedData;
import org.apache.hadoop.marco.benchmarks.gen.Budget;
import org.apache.hadoop.marco.benchmarks.gen.TextModel;
import org.junit.Test;

public class TestWordCount {
  private final JobFunctions job = BenchmarkFunctions.of(new WordCount(), new Configuration());

  public TestWordCount() throws Exception {}

  @Test
  public void mapCountsTheWordsAfterTheDocumentName() throws Exception {
    List<String> out =
        job.show(
            job.map(
                GeneratedData.textInput(
                    List.of("host-00001/doc-0-0\tthe cat the", "plain words"))));
    assertEquals(List.of("the\t1", "cat\t1", "the\t1", "plain\t1", "words\t1"), out);
  }

  @Test
  public void combinerPartialAndReducerSum() throws Exception {
    Random order = new Random(1);
    var mapped = job.map(GeneratedData.textInput(List.of("a b a", "b a")));
    assertEquals(List.of("a\t3", "b\t2"), job.show(job.combine(mapped, order)));
    assertEquals(List.of("a\t3", "b\t2"), job.show(job.partialReduce(mapped, order)));
    assertEquals(List.of("a\t3", "b\t2"), job.reduce(mapped, order));
  }

  @Test
  public void partialReduceAlgebraHoldsOnGeneratedText() throws Exception {
    byte[] text =
        GeneratedData.generate(
            new TextModel(), new Configuration(), 7, 2, new Budget(Budget.Unit.BYTES, 20_000));
    List<String> out =
        PartialReducerChecker.of(job)
            .mapInput(GeneratedData.textInput(GeneratedData.lines(text)))
            .maps(4)
            .trials(10)
            .seed(11)
            .check();
    assertTrue(out.size() > 100);
  }
}
