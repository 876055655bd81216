/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.differential;

import static org.apache.hadoop.mapreduce.marco.testing.DifferentialRun.MARCO;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.apache.hadoop.mapreduce.marco.MarcoJob;
import org.apache.hadoop.mapreduce.marco.testing.DifferentialResult;
import org.apache.hadoop.mapreduce.marco.testing.DifferentialRun;
import org.apache.hadoop.mapreduce.marco.testing.InputFiles;
import org.apache.hadoop.mapreduce.marco.testing.JobFactory;
import org.apache.hadoop.mapreduce.marco.testing.LocalModeConf;
import org.apache.hadoop.mapreduce.task.reduce.ReverseOrderPartialReducer;
import org.apache.hadoop.mapreduce.task.reduce.TestMarcoPartialReducerContract;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * Stock shuffle against MaRCO under Hadoop's LocalJobRunner, where the shuffle consumer plugin
 * reads map outputs through LocalFetcher instead of HTTP (see {@link LocalModeConf}).
 */
public class TestEdgeCasesLocalDifferential {
  static final String ABANDON = "abandon-at-shuffle-end";

  /**
   * Invocations running at shuffle end abandoned, with a partial reducer slow enough that an
   * invocation runs when the shuffle ends. The finish forecast is off: it exists to hold back
   * exactly the invocations this case needs running at shuffle end.
   */
  static final Consumer<Configuration> ABANDON_WITH_SLOW_PARTIAL_REDUCER =
      conf -> {
        conf.setBoolean(MarcoConfig.FINISH_ALL_AT_SHUFFLE_END, false);
        conf.setBoolean(MarcoConfig.START_ONLY_WITHIN_SHUFFLE, false);
        conf.setBoolean(MarcoConfig.ABANDON_AT_SHUFFLE_END, true);
        conf.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, SlowSumReducer.class, Reducer.class);
      };

  private File workDir;
  private FileSystem fs;

  @Before
  public void createWorkDir() throws Exception {
    workDir = new File("target/marco-local-differential").getAbsoluteFile();
    FileUtil.fullyDelete(workDir);
    fs = FileSystem.getLocal(new JobConf());
  }

  @After
  public void deleteWorkDir() {
    FileUtil.fullyDelete(workDir);
  }

  /**
   * 20 maps with the default thresholds 4/4/8, combiner and partial reducer, compression; also
   * with the invocations running at shuffle end abandoned.
   */
  @Test
  public void newApiPartialReducerOverTwentyMaps() throws Exception {
    int reducers = 2;
    List<List<String>> input = SkewedWords.generate(20, 2000, List.of(7), 6);
    DifferentialRun run =
        differential(
                "new-api-sum",
                (conf, in, out) -> {
                  TestEdgeCasesMiniClusterDifferential.compressMapOutput(conf, DefaultCodec.class);
                  return WordSum.create(conf, in, out, reducers, true, true);
                })
            .variant("no-control", conf -> conf.setBoolean(MarcoConfig.CONTROL_ENABLED, false))
            .variant(ABANDON, ABANDON_WITH_SLOW_PARTIAL_REDUCER);
    InputFiles.write(fs, run.input(), input);

    DifferentialResult result = run.run();

    assertEquals(SkewedWords.expectedCounts(input, reducers), result.output().text());
    result.assertPartialWorkInEveryReduce(MARCO, true);
    assertTrue(result.marco("no-control", MarcoCounter.INVOCATIONS) > 0);
    assertTrue(
        "no invocation was abandoned at shuffle end",
        result.marco(ABANDON, MarcoCounter.ABANDONED_INVOCATIONS) >= reducers);
  }

  /**
   * A partial reducer that emits its keys in reverse order: caught, counted, partial reduce off
   * for the attempt, and the output is stock's.
   */
  @Test
  public void partialReducerBreakingTheContractLeavesTheOutputRight() throws Exception {
    assertBrokenContractLeavesTheOutputRight("reverse-order", ReverseOrderPartialReducer.class);
  }

  /**
   * A partial reducer that rewrites the key it was handed in place and emits it, so that its keys
   * still ascend (a common Hadoop idiom, and a broken contract): caught in each reduce, and the
   * output is stock's.
   */
  @Test
  public void partialReducerRewritingItsKeyInPlaceLeavesTheOutputRight() throws Exception {
    assertBrokenContractLeavesTheOutputRight(
        "key-rewriting", TestMarcoPartialReducerContract.KeyRewritingSumReducer.class);
  }

  /** A word sum whose partial reducer breaks its contract: the output is stock's, each caught. */
  @SuppressWarnings("rawtypes")
  private void assertBrokenContractLeavesTheOutputRight(
      String test, Class<? extends Reducer> partialReducer) throws Exception {
    int reducers = 2;
    List<List<String>> input = SkewedWords.generate(16, 2000, List.of(), 5);
    DifferentialRun run =
        differential(
            test,
            (conf, in, out) -> {
              TestEdgeCasesMiniClusterDifferential.lowThresholds(conf);
              Job job = WordSum.create(conf, in, out, reducers, true, false);
              MarcoJob.setPartialReducerClass(job, partialReducer);
              return job;
            });
    InputFiles.write(fs, run.input(), input);

    DifferentialResult result = run.run();

    assertEquals(SkewedWords.expectedCounts(input, reducers), result.output().text());
    assertEquals(
        "each reduce caught its partial reducer once",
        reducers,
        result.marco(MARCO, MarcoCounter.CONTRACT_VIOLATIONS));
  }

  /** Old-API secondary sort with encrypted intermediate data, partial sort only. */
  @Test
  public void oldApiSecondarySortEncrypted() throws Exception {
    int reducers = 3;
    List<List<String>> input = GroupedNumbers.generate(8, 1000, 10, 7);
    DifferentialRun run =
        differential(
            "old-api-secondary-sort",
            (conf, in, out) -> {
              conf.setBoolean(MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA, true);
              TestEdgeCasesMiniClusterDifferential.lowThresholds(conf);
              return OldApiSecondarySort.create(conf, in, out, reducers);
            });
    InputFiles.write(fs, run.input(), input);

    DifferentialResult result = run.run();

    assertEquals(GroupedNumbers.expected(input, reducers), result.output().text());
    // No partial reducer: partial sort only, which keeps every record.
    result.assertPartialWorkInEveryReduce(MARCO, false);
  }

  private DifferentialRun differential(String test, JobFactory factory) {
    File dir = new File(workDir, test);
    return new DifferentialRun(
        () -> LocalModeConf.newConf(new File(dir, "runner")), fs, new Path(dir.toURI()), factory);
  }
}
