/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.stagger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoJob;
import org.apache.hadoop.mapreduce.marco.differential.WordSum;
import org.apache.hadoop.mapreduce.marco.testing.InputFiles;
import org.apache.hadoop.mapreduce.marco.testing.JobDiagnostics;
import org.apache.hadoop.mapreduce.marco.testing.JobOutput;
import org.apache.hadoop.mapreduce.marco.testing.MiniMrClusterResource;
import org.apache.hadoop.mapreduce.marco.testing.OutputDiff;
import org.apache.hadoop.mapreduce.marco.testing.SlowTest;
import org.apache.hadoop.mapreduce.v2.app.MarcoMRAppMaster;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Reduce staggering on a YARN mini cluster (two NodeManagers, room for several reduces each):
 * a word count whose maps pause in setup, so the map phase lasts while reduces are scheduled.
 * Both runs go through {@link MarcoMRAppMaster} with slow-start 0:
 * <ul>
 *   <li>stock shuffle: not staggered, Hadoop's allocator behaviour; some node starts more than
 *       one reduce while maps run (checked, so the test can tell staggering from luck);</li>
 *   <li>MaRCO shuffle, k = 1: per node at most one reduce launched before the last map finished
 *       (read from the job history), at least one reduce launched early, and every reduce task
 *       succeeds (speculative attempts allowed);</li>
 * </ul>
 * and both outputs are byte-equal.
 */
@Category(SlowTest.class)
public class TestReduceStaggeringMiniCluster {
  @ClassRule
  public static final MiniMrClusterResource CLUSTER = new MiniMrClusterResource("marco-stagger");

  private static final int MAPS = 6;
  private static final int REDUCES = 4;
  private static final int K = 1;

  /** Makes map tasks last a while, so reduces are requested while maps still run. */
  public static class PausingTokenMapper extends WordSum.TokenMapper {
    static final String PAUSE_MS = "marco.test.map.pause.ms";

    @Override
    protected void setup(Context context) throws InterruptedException {
      Thread.sleep(context.getConfiguration().getLong(PAUSE_MS, 0));
    }
  }

  @Test
  public void marcoJobStartsAtMostKReducesPerNodeWhileMapsRun() throws Exception {
    Path dir = CLUSTER.testDir("stagger");
    Path input = new Path(dir, "input");
    List<List<String>> files = new ArrayList<>();
    for (int f = 0; f < MAPS; f++) {
      List<String> lines = new ArrayList<>();
      for (int l = 0; l < 200; l++) {
        lines.add("w" + (l % 37) + " x" + (f * l % 11) + " y" + f);
      }
      files.add(lines);
    }
    InputFiles.write(CLUSTER.fileSystem(), input, files);

    // One after the other: run together, one job's early reduces can hold the containers the
    // other's reduces need until its maps are done, and the test would measure the competition.
    Job stock = run(input, new Path(dir, "out-stock"), false);
    Job marco = run(input, new Path(dir, "out-marco"), true);

    assertEquals(
        null,
        OutputDiff.describe(
            "stock",
            JobOutput.read(CLUSTER.fileSystem(), new Path(dir, "out-stock")),
            "marco",
            JobOutput.read(CLUSTER.fileSystem(), new Path(dir, "out-marco"))));

    Configuration clusterConf = CLUSTER.newJobConf();
    ReduceLaunches staggered = ReduceLaunches.of(clusterConf, marco.getJobID());
    ReduceLaunches unstaggered = ReduceLaunches.of(clusterConf, stock.getJobID());
    System.out.println("MaRCO (k=" + K + "): " + staggered);
    System.out.println("stock shuffle, slow-start 0: " + unstaggered);

    Map<String, Integer> early = staggered.earlyReducesPerNode();
    assertFalse("no reduce started while maps ran: " + staggered, early.isEmpty());
    for (Map.Entry<String, Integer> node : early.entrySet()) {
      assertTrue(
          "node "
              + node.getKey()
              + " launched "
              + node.getValue()
              + " reduces while maps ran, more than k="
              + K
              + ": "
              + staggered,
          node.getValue() <= K);
    }
    assertEquals("every reduce succeeded: " + staggered, REDUCES, staggered.succeededReduceTasks());
    // The setup check: unstaggered, the same cluster starts more than k reduces on a node while
    // maps run (all reduces are requested at once and outrank maps), so the bound above is the
    // allocator's doing, not the cluster's shape.
    assertTrue(
        "test setup: without staggering no node started more than k reduces early: " + unstaggered,
        unstaggered.earlyReducesPerNode().values().stream().anyMatch(count -> count > K));
  }

  private static Job run(Path input, Path output, boolean marco)
      throws IOException, InterruptedException, ClassNotFoundException {
    Configuration conf = CLUSTER.newJobConf();
    MarcoMRAppMaster.useFor(conf);
    conf.setFloat(MRJobConfig.COMPLETED_MAPS_FOR_REDUCE_SLOWSTART, 0f);
    conf.setLong(PausingTokenMapper.PAUSE_MS, 4000);
    if (marco) {
      MarcoJob.useMarcoShuffle(conf);
      conf.setInt(MarcoConfig.STAGGER_REDUCES_PER_NODE, K);
    } else {
      MarcoJob.useStockShuffle(conf);
    }
    Job job = WordSum.create(conf, input, output, REDUCES, true, marco);
    job.setMapperClass(PausingTokenMapper.class);
    job.setJobName("stagger-" + (marco ? "marco" : "stock"));
    if (!job.waitForCompletion(false)) {
      fail(job.getJobName() + " failed: " + JobDiagnostics.of(job));
    }
    return job;
  }
}
