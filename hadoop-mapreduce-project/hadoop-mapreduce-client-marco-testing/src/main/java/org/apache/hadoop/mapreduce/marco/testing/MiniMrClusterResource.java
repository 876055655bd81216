/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.testing;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.rules.ExternalResource;

/**
 * A MiniMRYarnCluster with two NodeManagers (so reduces fetch map outputs over HTTP from the
 * ShuffleHandler of another NM) on the local file system, for use as a JUnit {@code @ClassRule}:
 * started once per test class, stopped after it, also when a test fails.
 *
 * <p>Classpath of the task containers: with {@code yarn.is.minicluster=true} (set by
 * MiniYARNCluster) {@code MRApps} appends this JVM's {@code java.class.path} to every container's
 * CLASSPATH, so tasks see {@code target/classes} (MarcoShuffle) and {@code target/test-classes}
 * (the test jobs) without a job jar. The local file system is used instead of a MiniDFSCluster:
 * on a 2-core machine it saves the NameNode/DataNode start and their CPU.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public class MiniMrClusterResource extends ExternalResource {
  private static final int NODE_MANAGERS = 2;

  private final String name;
  private MiniMRYarnCluster cluster;
  private File workDir;

  /** @param name names the cluster's directories under {@code target/} */
  public MiniMrClusterResource(String name) {
    this.name = name;
  }

  @Override
  protected void before() throws IOException {
    workDir = new File("target/" + name + "-work").getAbsoluteFile();
    FileUtil.fullyDelete(workDir);
    if (!workDir.mkdirs()) {
      throw new IOException("Cannot create test work directory " + workDir);
    }
    Configuration conf = new YarnConfiguration();
    conf.set("fs.defaultFS", "file:///");
    conf.setInt(YarnConfiguration.NM_PMEM_MB, 6144);
    conf.setInt(YarnConfiguration.NM_VCORES, 8);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 256);
    // Faster allocation cycles: the default 1 s heartbeats dominate small jobs.
    conf.setLong(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, 200);
    conf.setInt(MRJobConfig.MR_AM_TO_RM_HEARTBEAT_INTERVAL_MS, 200);
    conf.setInt(MRJobConfig.MR_AM_VMEM_MB, 768);
    // The default (0.1 of the cluster for AMs) admits one AM at a time, which serialises the
    // stock and MaRCO runs a DifferentialRun submits together.
    conf.setFloat("yarn.scheduler.capacity.maximum-am-resource-percent", 1.0f);
    // The ResourceManager's node-attribute store, by default under /tmp/hadoop-yarn-USER.
    conf.set(
        "yarn.node-attribute.fs-store.root-dir",
        new File(workDir, "node-attribute").toURI().toString());
    cluster = new MiniMRYarnCluster(name, NODE_MANAGERS);
    cluster.init(conf);
    cluster.start();
  }

  /** Stops the daemons (which kills their containers), then deletes the cluster's files. */
  @Override
  protected void after() {
    if (cluster != null) {
      File clusterDir = cluster.getTestWorkDir();
      cluster.stop();
      cluster = null;
      FileUtil.fullyDelete(clusterDir);
    }
    FileUtil.fullyDelete(workDir);
  }

  /**
   * A fresh job configuration pointing at this cluster: small containers, container JVM
   * options, fast client polling. Each call returns an independent copy.
   */
  public JobConf newJobConf() {
    JobConf conf = new JobConf(cluster.getConfig());
    conf.setInt(MRJobConfig.MAP_MEMORY_MB, 512);
    conf.setInt(MRJobConfig.REDUCE_MEMORY_MB, 768);
    conf.setInt(MRJobConfig.MR_AM_VMEM_MB, 768);
    conf.setInt("mapreduce.client.completion.pollinterval", 200);
    conf.setInt("mapreduce.client.progressmonitor.pollinterval", 500);
    ContainerJvmOptions.apply(conf);
    return conf;
  }

  /** The file system jobs read and write (the local one). */
  public FileSystem fileSystem() throws IOException {
    return FileSystem.getLocal(cluster.getConfig());
  }

  /** A directory for a test's input and output; deleted when the class is done. */
  public Path testDir(String test) {
    return new Path(new File(workDir, test).toURI());
  }
}
