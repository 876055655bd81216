/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.stagger;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoJobCheck;
import org.apache.hadoop.mapreduce.marco.MarcoSettings;

/**
 * Whether and how the AppMaster staggers a job's reduces (MaRCO paper, section 3.3): while maps
 * still run, at most {@code k} reduce tasks per node, because each brings partial sort/reduce work
 * that competes with the maps for CPU; the rest once the map phase is over.
 *
 * <p>Only jobs that use the MaRCO shuffle (plugin {@link MarcoConfig#SHUFFLE_PLUGIN_CLASS} with
 * {@link MarcoConfig#ENABLED} not false) and keep {@link MarcoConfig#STAGGER_ENABLED} on are
 * staggered. Those jobs also start their reduces from the beginning (slow-start 0), since their
 * partial work overlaps the shuffle only if the reduces run while maps do. Every other job gets
 * Hadoop's own allocator behaviour, including its slow-start.
 */
@InterfaceAudience.Private
public final class ReduceStaggering {
  private static final ReduceStaggering OFF = new ReduceStaggering(false, 0, 0, false, false);

  private final boolean active;
  private final int reducesPerNode;

  /** NodeManagers the RM counts that cannot run the job's tasks (an AppMaster partition). */
  private final int nonTaskNodes;

  /** Reduces from the first map on (MaRCO jobs); stock jobs keep their slow-start. */
  private final boolean startWithFirstMap;

  /** Every early reduce asked for at once, not in proportion to the maps completed. */
  private final boolean fullRampUp;

  private ReduceStaggering(
      boolean active,
      int reducesPerNode,
      int nonTaskNodes,
      boolean startWithFirstMap,
      boolean fullRampUp) {
    this.active = active;
    this.reducesPerNode = reducesPerNode;
    this.nonTaskNodes = nonTaskNodes;
    this.startWithFirstMap = startWithFirstMap;
    this.fullRampUp = fullRampUp;
  }

  /**
   * Reads the job's configuration. Only MaRCO jobs with valid settings are staggered: a MaRCO
   * job with a bad {@code mapreduce.marco.*} value has already been created FAILED by
   * {@code MarcoMRAppMaster} (and a stock job never fails on a key it does not use), so the
   * allocator must not fail the AppMaster over it.
   */
  public static ReduceStaggering forJob(Configuration conf) {
    if (!MarcoJobCheck.usesMarcoShuffle(conf)) {
      return forStockJob(conf);
    }
    if (MarcoJobCheck.problem(conf) != null) {
      return OFF;
    }
    MarcoSettings settings = MarcoSettings.from(conf);
    if (!settings.isEnabled() || !settings.isStaggerEnabled()) {
      return OFF;
    }
    return new ReduceStaggering(
        true,
        settings.getStaggerReducesPerNode(),
        settings.getStaggerNonTaskNodes(),
        true,
        settings.isStaggerFullRampUp());
  }

  /**
   * A job on Hadoop's shuffle is staggered only when {@link MarcoConfig#STAGGER_STOCK_JOBS} asks
   * for it and {@link MarcoConfig#STAGGER_ENABLED} is not false (so stock and MaRCO jobs get the
   * same placement). A stock job that asks for it with a bad {@code mapreduce.marco.*} value has
   * already been created FAILED by {@code MarcoMRAppMaster}; one that does not ask never fails
   * over such a value (it does not use them).
   */
  private static ReduceStaggering forStockJob(Configuration conf) {
    // Read as MarcoJobCheck does: with the key set, every mapreduce.marco.* value was checked.
    if (!"true".equalsIgnoreCase(conf.getTrimmed(MarcoConfig.STAGGER_STOCK_JOBS, ""))
        || MarcoJobCheck.problem(conf) != null) {
      return OFF;
    }
    MarcoSettings settings = MarcoSettings.from(conf);
    return settings.isStaggerEnabled()
        ? new ReduceStaggering(
            true,
            settings.getStaggerReducesPerNode(),
            settings.getStaggerNonTaskNodes(),
            false,
            settings.isStaggerFullRampUp())
        : OFF;
  }

  public boolean isActive() {
    return active;
  }

  /** k: reduce containers one node may hold while maps run. */
  public int reducesPerNode() {
    return reducesPerNode;
  }

  /** The slow-start fraction in force: 0 for staggered MaRCO jobs, else the job's own. */
  public float slowStart(float configured) {
    return startWithFirstMap ? 0f : configured;
  }

  /**
   * Whether the allocator asks for every early reduce under the cap now, rather than leaving the
   * asks to Hadoop's ramp-up ({@link MarcoConfig#STAGGER_FULL_RAMPUP}): once the slow-start in
   * force is reached and at least one map has completed. Until then Hadoop's ramp-up decides,
   * which gives reduces only room that no map asks for: there is no map output to fetch yet, and
   * a reduce would take a first-wave map's room for nothing.
   */
  public boolean asksForEveryEarlyReduce(int completedMaps, int totalMaps, float slowStart) {
    long slowStartMaps = (long) Math.ceil(slowStart * totalMaps);
    return active && fullRampUp && completedMaps >= Math.max(1L, slowStartMaps);
  }

  /**
   * Reduce containers the job may hold or ask for while maps run: k per node of the cluster that
   * can run the job's tasks (the RM's node count less {@link MarcoConfig#STAGGER_NON_TASK_NODES}).
   * Asking for more would only make the RM hand out containers the allocator has to return.
   */
  public int earlyReduceCap(int clusterNodes) {
    return (int)
        Math.min(
            Integer.MAX_VALUE, (long) reducesPerNode * Math.max(0, clusterNodes - nonTaskNodes));
  }

  @Override
  public String toString() {
    return active
        ? "reduce staggering on: at most "
            + reducesPerNode
            + " reduce(s) per node while maps run"
            + (nonTaskNodes > 0 ? " (" + nonTaskNodes + " node(s) run no tasks)" : "")
            + ", reduces start "
            + (startWithFirstMap ? "with the first map" : "at the job's slow-start")
            + (fullRampUp
                ? ", all early reduces asked for once a map has completed"
                : ", asked for by Hadoop's ramp-up")
        : "reduce staggering off";
  }
}
