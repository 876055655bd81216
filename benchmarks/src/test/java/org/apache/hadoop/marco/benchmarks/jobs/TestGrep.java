/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.marco.testing.JobFunctions;
import org.apache.hadoop.mapreduce.marco.testing.PartialReducerChecker;
import org.apache.hadoop.marco.benchmarks.GeneratedData;
import org.apache.hadoop.marco.benchmarks.gen.Budget;
import org.apache.hadoop.marco.benchmarks.gen.TextModel;
import org.apache.hadoop.util.ToolRunner;
import org.junit.Test;

public class TestGrep {

  private static JobFunctions grep(String pattern) throws Exception {
    Configuration conf = new Configuration();
    conf.set(Grep.PATTERN, pattern);
    return BenchmarkFunctions.of(new Grep(), conf);
  }

  @Test
  public void mapKeepsMatchingLinesWithCountOne() throws Exception {
    JobFunctions job = grep("\\bzo[a-z]*");
    List<String> out =
        job.show(
            job.map(
                GeneratedData.textInput(
                    List.of("h/d\tthe zone", "h/d\tno match", "h/d\tozone zoo"))));
    assertEquals(List.of("h/d\tthe zone\t1", "h/d\tozone zoo\t1"), out);
  }

  @Test
  public void identityReduceKeepsDuplicateLines() throws Exception {
    JobFunctions job = grep("x");
    var mapped = job.map(GeneratedData.textInput(List.of("x", "y", "x")));
    assertEquals(List.of("x\t1", "x\t1"), job.show(job.partialReduce(mapped, new Random(1))));
    assertEquals(List.of("x\t1", "x\t1"), job.reduce(mapped, new Random(2)));
  }

  @Test
  public void aBadPatternIsRejectedWithTheKeyToFix() throws Exception {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Grep().createJob(new Configuration(), new Path("in"), new Path("out"), "(a"));
    assertEquals(true, e.getMessage().contains(Grep.PATTERN));
    assertEquals(
        "the Tool reports it as a usage error",
        2,
        ToolRunner.run(new Configuration(), new Grep(), new String[] {"in", "out", "(a"}));
  }

  @Test
  public void partialReduceAlgebraHoldsOnGeneratedText() throws Exception {
    byte[] text =
        GeneratedData.generate(
            new TextModel(), new Configuration(), 3, 2, new Budget(Budget.Unit.BYTES, 60_000));
    PartialReducerChecker.of(grep("\\ba[a-z]\\b"))
        .mapInput(GeneratedData.textInput(GeneratedData.lines(text)))
        .maps(4)
        .trials(10)
        .seed(5)
        .check();
  }
}
