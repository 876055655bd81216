/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.testing.DifferentialResult;
import org.apache.hadoop.mapreduce.marco.testing.DifferentialRun;
import org.apache.hadoop.mapreduce.marco.testing.JobOutput;
import org.apache.hadoop.mapreduce.marco.testing.LocalModeConf;
import org.apache.hadoop.mapreduce.marco.testing.OldApiJobs;
import org.apache.hadoop.marco.benchmarks.BenchmarkCase;
import org.apache.hadoop.marco.benchmarks.gen.Budget;
import org.apache.hadoop.marco.benchmarks.gen.GraphModel;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * adjacency-list-old-api under the local runner: stock and MaRCO (its combiner as the partial
 * reducer) write the same bytes, the partial invocations reduced, and every node's lists equal
 * those adjacency-list computes from the same edges.
 */
public class TestAdjacencyListOldApi {
  @Rule public final TemporaryFolder temp = new TemporaryFolder();

  @Test
  public void stockAndMarcoAgreeAndMatchAdjacencyList() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    Path dir = new Path(temp.getRoot().toURI());
    BenchmarkCase graph =
        new BenchmarkCase(
            "adjacency-list",
            AdjacencyList::new,
            new GraphModel(),
            conf -> {},
            new Budget(Budget.Unit.BYTES, 160_000),
            2,
            true);
    DifferentialRun run =
        new DifferentialRun(
            () -> LocalModeConf.newConf(temp.getRoot()),
            fs,
            new Path(dir, "old-api"),
            (conf, input, output) -> {
              conf.setInt(MRJobConfig.NUM_REDUCES, 2);
              // The local runner asks the old API's input format for one split; it still cuts
              // the input at block boundaries, so a small local block size gives 8 maps (from a
              // file system of this configuration, not a cached one).
              conf.setBoolean("fs.file.impl.disable.cache", true);
              conf.setLong("fs.local.block.size", 160_000 / 8 + 1);
              conf.setInt(MarcoConfig.START_THRESHOLD_INITIAL, 2);
              conf.setInt(MarcoConfig.START_THRESHOLD, 2);
              return OldApiJobs.asJob(AdjacencyListOldApi.jobConf(conf, input, output));
            });
    graph.writeInput(fs, run.input());

    DifferentialResult result = run.run();

    result.assertPartialWorkInEveryReduce(DifferentialRun.MARCO, true);
    DifferentialRun newApi =
        new DifferentialRun(
            () -> LocalModeConf.newConf(temp.getRoot()),
            fs,
            new Path(dir, "new-api"),
            graph.factory(8));
    graph.writeInput(fs, newApi.input());
    assertEquals(lines(newApi.run().output()), lines(result.output()));
  }

  private static TreeSet<String> lines(JobOutput output) {
    List<String> all = Arrays.asList(output.text().split("\n"));
    assertTrue("no output", all.size() > 1);
    return new TreeSet<>(all);
  }
}
