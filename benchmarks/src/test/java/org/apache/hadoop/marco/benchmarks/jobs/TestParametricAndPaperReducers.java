/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertThrows;

import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.marco.testing.JobFunctions;
import org.apache.hadoop.marco.benchmarks.GeneratedData;
import org.junit.Test;

/** The parametric job's digest and knobs, and the paper-cost reducers' lists. */
public class TestParametricAndPaperReducers {

  @Test
  public void digestDependsOnEveryPassAndOnThePayload() {
    byte[] a = {1, 2, 3, 4};
    byte[] b = {1, 2, 3, 5};
    assertEquals(0, Parametric.digest(a, 0));
    assertNotEquals(Parametric.digest(a, 1), Parametric.digest(a, 2));
    assertNotEquals(Parametric.digest(a, 3), Parametric.digest(b, 3));
    assertEquals(Parametric.digest(a, 3), Parametric.digest(a.clone(), 3));
  }

  @Test
  public void quadraticListKeepsFirstOccurrencesOnly() {
    PaperReducers.QuadraticList list = new PaperReducers.QuadraticList();
    for (String e : List.of("b", "a", "b", "ab", "a", "c")) {
      list.add(e);
    }
    assertEquals(List.of("b", "a", "ab", "c"), list.elements());
    assertEquals(List.of(), new PaperReducers.QuadraticList().elements());
  }

  @Test
  public void paperReducersGiveTheEfficientReducersOutput() throws Exception {
    Configuration paper = new Configuration();
    paper.set(PaperReducers.KEY, PaperReducers.PAPER);
    var edges = GeneratedData.textInput(List.of("1\t2", "3\t2", "1\t2", "2\t1", "4\t2"));
    JobFunctions efficient = BenchmarkFunctions.of(new AdjacencyList(), new Configuration());
    JobFunctions quadratic = BenchmarkFunctions.of(new AdjacencyList(), paper);
    assertEquals(
        efficient.reduce(efficient.map(edges), new Random(1)),
        quadratic.reduce(quadratic.map(edges), new Random(2)));
    var lists =
        GeneratedData.textInput(List.of("a b c d f", "a b c d e", "a b c d f", "a b c e g"));
    JobFunctions join = BenchmarkFunctions.of(new SelfJoin(), paper);
    assertEquals(
        List.of("a b c d\te f", "a b c e\tg"), join.reduce(join.map(lists), new Random(3)));
    var postings = GeneratedData.textInput(List.of("w:f1\t3", "w:f2\t5", "v:f1\t1"));
    JobFunctions index = BenchmarkFunctions.of(new InvertedIndex(), paper);
    assertEquals(
        List.of("v\t1:f1", "w\t5:f2,3:f1"), index.reduce(index.map(postings), new Random(4)));
  }

  @Test
  public void anUnknownReducerKindIsRefusedByName() {
    Configuration conf = new Configuration();
    conf.set(PaperReducers.KEY, "fast");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> BenchmarkFunctions.of(new SelfJoin(), conf));
    assertEquals(
        "marco.benchmarks.reducers must be efficient or paper, got 'fast'", e.getMessage());
  }
}
