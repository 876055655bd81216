/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks;

import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.marco.testing.MiniMrClusterResource;
import org.apache.hadoop.mapreduce.marco.testing.SlowTest;
import org.junit.ClassRule;
import org.junit.experimental.categories.Category;

/**
 * Every benchmark, stock shuffle vs MaRCO, on one MiniMRYarnCluster with two NodeManagers (HTTP
 * shuffle) shared by all benchmarks. Small data and 4 maps per job: every task is a JVM.
 */
@Category(SlowTest.class)
public class TestBenchmarkJobsMiniClusterDifferential extends AbstractDifferentialTest {
  @ClassRule
  public static final MiniMrClusterResource CLUSTER =
      new MiniMrClusterResource("benchmarks-differential");

  @Override
  protected Supplier<? extends Configuration> jobConf() {
    return CLUSTER::newJobConf;
  }

  @Override
  protected FileSystem fileSystem() throws Exception {
    return CLUSTER.fileSystem();
  }

  @Override
  protected Path dir() {
    return CLUSTER.testDir(benchmark.name());
  }

  @Override
  protected int maps() {
    return 4;
  }
}
