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
import org.apache.hadoop.marco.benchmarks.gen.GraphModel;
import org.apache.hadoop.marco.benchmarks.gen.SelfJoinModel;
import org.junit.Test;

/** self-join and adjacency-list: duplicate-removing combiners and sorted-union reducers. */
public class TestSetJobs {

  @Test
  public void selfJoinSplitsOffTheLastElementAndMergesSortedLists() throws Exception {
    JobFunctions job = BenchmarkFunctions.of(new SelfJoin(), new Configuration());
    var mapped =
        job.map(
            GeneratedData.textInput(List.of("a b c d f", "a b c d e", "a b c d f", "a b c e g")));
    assertEquals(List.of("a b c d\tf", "a b c d\te", "a b c d\tf", "a b c e\tg"), job.show(mapped));
    assertEquals(
        "duplicates removed, values still single elements",
        List.of("a b c d\te", "a b c d\tf", "a b c e\tg"),
        job.show(job.combine(mapped, new Random(1))));
    assertEquals(
        List.of("a b c d\te f", "a b c e\tg"), job.show(job.partialReduce(mapped, new Random(2))));
    assertEquals(List.of("a b c d\te f", "a b c e\tg"), job.reduce(mapped, new Random(3)));
  }

  @Test
  public void adjacencyListEmitsBothDirectionsAndSortedUnions() throws Exception {
    JobFunctions job = BenchmarkFunctions.of(new AdjacencyList(), new Configuration());
    var mapped = job.map(GeneratedData.textInput(List.of("1\t2", "3\t2", "1\t2", "2\t1")));
    assertEquals(
        List.of(
            "2\tfrom{1}:to{}",
            "1\tfrom{}:to{2}",
            "2\tfrom{3}:to{}",
            "3\tfrom{}:to{2}",
            "2\tfrom{1}:to{}",
            "1\tfrom{}:to{2}",
            "1\tfrom{2}:to{}",
            "2\tfrom{}:to{1}"),
        job.show(mapped));
    assertEquals(
        "the repeated edge 1->2 is combined away", 6, job.combine(mapped, new Random(4)).size());
    assertEquals(
        List.of("1\tfrom{2}:to{2}", "2\tfrom{1,3}:to{1}", "3\tfrom{}:to{2}"),
        job.reduce(mapped, new Random(5)));
  }

  @Test
  public void selfJoinAlgebraHoldsOnGeneratedCandidates() throws Exception {
    Configuration conf = new Configuration();
    conf.setInt(SelfJoinModel.ITEMS, 60);
    byte[] data =
        GeneratedData.generate(
            new SelfJoinModel(), conf, 2, 2, new Budget(Budget.Unit.RECORDS, 3_000));
    List<String> out =
        PartialReducerChecker.of(BenchmarkFunctions.of(new SelfJoin(), new Configuration()))
            .mapInput(GeneratedData.textInput(GeneratedData.lines(data)))
            .maps(4)
            .trials(10)
            .seed(3)
            .check();
    assertTrue("prefixes are shared, so there are fewer lists than lines", out.size() < 3_000);
  }

  @Test
  public void adjacencyListAlgebraHoldsOnGeneratedGraph() throws Exception {
    byte[] data =
        GeneratedData.generate(
            new GraphModel(), new Configuration(), 4, 2, new Budget(Budget.Unit.RECORDS, 3_000));
    PartialReducerChecker.of(BenchmarkFunctions.of(new AdjacencyList(), new Configuration()))
        .mapInput(GeneratedData.textInput(GeneratedData.lines(data)))
        .maps(4)
        .trials(10)
        .seed(6)
        .check();
  }
}
