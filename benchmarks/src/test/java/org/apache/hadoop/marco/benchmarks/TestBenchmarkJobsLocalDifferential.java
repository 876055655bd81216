/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks;

import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.marco.testing.LocalModeConf;
import org.junit.Rule;
import org.junit.rules.TemporaryFolder;

/** Every benchmark, stock shuffle vs MaRCO, in Hadoop's local runner. */
public class TestBenchmarkJobsLocalDifferential extends AbstractDifferentialTest {
  @Rule public final TemporaryFolder temp = new TemporaryFolder();

  @Override
  protected Supplier<? extends Configuration> jobConf() {
    return () -> LocalModeConf.newConf(temp.getRoot());
  }

  @Override
  protected FileSystem fileSystem() throws Exception {
    return FileSystem.getLocal(new Configuration());
  }

  @Override
  protected Path dir() {
    return new Path(temp.getRoot().toURI());
  }

  /** Enough map outputs per reduce for several partial invocations at threshold 2. */
  @Override
  protected int maps() {
    return 8;
  }
}
