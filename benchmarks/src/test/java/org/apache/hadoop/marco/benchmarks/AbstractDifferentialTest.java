/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks;

import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.util.Collection;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.marco.MarcoSettings;
import org.apache.hadoop.mapreduce.marco.PartialReducerSpec;
import org.apache.hadoop.mapreduce.marco.testing.DifferentialResult;
import org.apache.hadoop.mapreduce.marco.testing.DifferentialRun;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameter;
import org.junit.runners.Parameterized.Parameters;

/**
 * Every benchmark of {@link BenchmarkCase#all()} once with the stock shuffle and once with MaRCO
 * on the runner a subclass provides: the outputs must be byte-identical, every reduce of the
 * MaRCO run must have run partial invocations, and a partial reducer that merges records must
 * have written fewer than it read in every reduce.
 */
@RunWith(Parameterized.class)
public abstract class AbstractDifferentialTest {
  @Parameter public BenchmarkCase benchmark;

  @Parameters(name = "{0}")
  public static Collection<Object[]> cases() {
    return BenchmarkCase.all().stream().map(c -> new Object[] {c}).collect(Collectors.toList());
  }

  /** A fresh job configuration for the runner (local or cluster) per run. */
  protected abstract Supplier<? extends Configuration> jobConf();

  protected abstract FileSystem fileSystem() throws Exception;

  /** Where this benchmark's input and outputs go. */
  protected abstract Path dir() throws Exception;

  /** Map tasks per job. */
  protected abstract int maps();

  @Test
  public void marcoOutputEqualsStockOutput() throws Exception {
    DifferentialRun run =
        new DifferentialRun(jobConf(), fileSystem(), dir(), benchmark.factory(maps()));
    benchmark.writeInput(fileSystem(), run.input());

    DifferentialResult result = run.run();

    assertTrue(benchmark + " wrote no output", result.output().bytes().length > 0);
    // An identity partial reducer leaves the record counts as partial sort alone would: that
    // the benchmark declares one at all is what can be checked of it.
    Configuration marco = result.configuration(DifferentialRun.MARCO);
    assertNotNull(
        benchmark + " declares no partial reducer",
        PartialReducerSpec.resolve(new JobConf(marco), MarcoSettings.from(marco)));
    result.assertPartialWorkInEveryReduce(DifferentialRun.MARCO, benchmark.partialReducerReduces());
  }
}
