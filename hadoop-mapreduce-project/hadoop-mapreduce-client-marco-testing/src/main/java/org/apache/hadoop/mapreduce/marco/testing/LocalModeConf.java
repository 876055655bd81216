/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.testing;

import java.io.File;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;

/**
 * Job configuration for Hadoop's LocalJobRunner (mapreduce.framework.name=local).
 *
 * <p>What the local runner does with the shuffle (read in Hadoop 3.5.0 sources): each reduce is
 * a {@code ReduceTask} run in-process via {@code ReduceTask.run}, which instantiates the class
 * named by {@code mapreduce.job.reduce.shuffle.consumer.plugin.class} exactly as on YARN; the
 * runner passes the map output files to the task ({@code setLocalMapFiles}), so
 * {@code Shuffle.run} (and a subclass that keeps it) uses one {@code LocalFetcher} that reads
 * them from local disk instead of HTTP fetchers. So the plugin key is honoured and MaRCO's merge
 * manager is exercised through the local-fetch path.
 *
 * <p>The local runner hands a reduce every map output at once, so the shuffle ends before
 * partial work has read much of its input, and MaRCO's default would abandon it there as not
 * worth the wait: this configuration sets {@code mapreduce.marco.finish.all.at.shuffle.end}, so
 * that a job run with it has its partial reducer exercised.
 *
 * <p>Its reduces also share one heap with the maps and with whatever runs the job (a test, say),
 * so MaRCO's heap guard, which reads the whole JVM's heap, would measure everything else that JVM
 * holds and keep partial work back for it: this configuration turns the guard off
 * ({@code mapreduce.marco.partial.heap.limit.percent=1}). Mini-cluster runs, whose reduces have
 * JVMs of their own, keep it.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class LocalModeConf {
  private LocalModeConf() {}

  /** A local-runner configuration whose local and staging directories live under {@code dir}. */
  public static JobConf newConf(File dir) {
    JobConf conf = new JobConf();
    conf.set(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME);
    conf.set("fs.defaultFS", "file:///");
    conf.set(MRConfig.LOCAL_DIR, new File(dir, "local").getAbsolutePath());
    conf.set("mapreduce.jobtracker.staging.root.dir", new File(dir, "staging").getAbsolutePath());
    conf.setInt("mapreduce.local.map.tasks.maximum", 2);
    conf.setInt("mapreduce.local.reduce.tasks.maximum", 2);
    conf.setBoolean(MarcoConfig.FINISH_ALL_AT_SHUFFLE_END, true);
    conf.setFloat(MarcoConfig.PARTIAL_HEAP_LIMIT_PERCENT, 1f);
    return conf;
  }
}
