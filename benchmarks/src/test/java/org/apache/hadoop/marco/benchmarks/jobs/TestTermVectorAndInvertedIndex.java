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
import org.apache.hadoop.marco.benchmarks.gen.InvertedIndexModel;
import org.apache.hadoop.marco.benchmarks.gen.TextModel;
import org.junit.Test;

public class TestTermVectorAndInvertedIndex {

  private static JobFunctions termVector(int cutoff) throws Exception {
    Configuration conf = new Configuration();
    conf.setInt(TermVector.CUTOFF, cutoff);
    return BenchmarkFunctions.of(new TermVector(), conf);
  }

  @Test
  public void termVectorCombinerSumsPerWordAndPartialBuildsOneList() throws Exception {
    JobFunctions job = termVector(2);
    var mapped = job.map(GeneratedData.textInput(List.of("h1/d1\tb a b", "h2/d2\tc", "h1/d3\tb")));
    assertEquals(List.of("h1\tb:1", "h1\ta:1", "h1\tb:1", "h2\tc:1", "h1\tb:1"), job.show(mapped));
    assertEquals(
        List.of("h1\ta:1", "h1\tb:3", "h2\tc:1"), job.show(job.combine(mapped, new Random(1))));
    assertEquals(
        List.of("h1\ta:1 b:3", "h2\tc:1"), job.show(job.partialReduce(mapped, new Random(2))));
  }

  @Test
  public void termVectorReducerDropsInfrequentWordsAndSortsByCount() throws Exception {
    JobFunctions job = termVector(2);
    var mapped =
        job.map(
            GeneratedData.textInput(List.of("h1/d1\tz y z y x", "h1/d2\tw w w", "h2/d1\tonce")));
    assertEquals(List.of("h1\tw:3 y:2 z:2"), job.reduce(mapped, new Random(3)));
  }

  @Test
  public void termVectorAlgebraHoldsOnGeneratedText() throws Exception {
    Configuration text = new Configuration();
    text.setInt(TextModel.HOSTS, 20);
    byte[] data =
        GeneratedData.generate(new TextModel(), text, 5, 2, new Budget(Budget.Unit.BYTES, 40_000));
    List<String> out =
        PartialReducerChecker.of(termVector(3))
            .mapInput(GeneratedData.textInput(GeneratedData.lines(data)))
            .maps(4)
            .trials(10)
            .seed(8)
            .check();
    assertTrue(out.size() > 1);
  }

  @Test
  public void invertedIndexListsFilesByDecreasingCount() throws Exception {
    JobFunctions job = BenchmarkFunctions.of(new InvertedIndex(), new Configuration());
    var mapped =
        job.map(
            GeneratedData.textInput(
                List.of("cat:h/a\t2", "cat:h/b\t5", "dog:h/a\t1", "cat:h/c\t2")));
    assertEquals(List.of("cat\t2:h/a", "cat\t5:h/b", "dog\t1:h/a", "cat\t2:h/c"), job.show(mapped));
    assertEquals(
        List.of("cat\t5:h/b,2:h/a,2:h/c", "dog\t1:h/a"),
        job.show(job.partialReduce(mapped, new Random(4))));
    assertEquals(
        List.of("cat\t5:h/b,2:h/a,2:h/c", "dog\t1:h/a"), job.reduce(mapped, new Random(5)));
  }

  @Test
  public void invertedIndexAlgebraHoldsOnGeneratedPostings() throws Exception {
    byte[] data =
        GeneratedData.generate(
            new InvertedIndexModel(),
            new Configuration(),
            6,
            2,
            new Budget(Budget.Unit.RECORDS, 2_000));
    PartialReducerChecker.of(BenchmarkFunctions.of(new InvertedIndex(), new Configuration()))
        .mapInput(GeneratedData.textInput(GeneratedData.lines(data)))
        .maps(4)
        .trials(10)
        .seed(9)
        .check();
  }
}
