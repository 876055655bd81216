/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.stagger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoJob;
import org.apache.hadoop.mapreduce.marco.MarcoJobCheck;
import org.junit.Test;

public class TestReduceStaggering {
  private static Configuration marcoJob() {
    Configuration conf = new Configuration(false);
    MarcoJob.useMarcoShuffle(conf);
    return conf;
  }

  @Test
  public void marcoJobIsStaggeredWithDefaultOneReducePerNodeAndSlowStartZero() {
    ReduceStaggering staggering = ReduceStaggering.forJob(marcoJob());
    assertTrue(staggering.isActive());
    assertEquals(MarcoConfig.DEFAULT_STAGGER_REDUCES_PER_NODE, staggering.reducesPerNode());
    assertEquals(0f, staggering.slowStart(0.05f), 0f);
    assertEquals(4, staggering.earlyReduceCap(4));
  }

  @Test
  public void reducesPerNodeScalesTheEarlyCap() {
    Configuration conf = marcoJob();
    conf.setInt(MarcoConfig.STAGGER_REDUCES_PER_NODE, 3);
    ReduceStaggering staggering = ReduceStaggering.forJob(conf);
    assertEquals(3, staggering.reducesPerNode());
    assertEquals(15, staggering.earlyReduceCap(5));
    assertEquals(0, staggering.earlyReduceCap(0));
  }

  /** A partition kept for AppMasters is in the RM's node count, but no reduce can run there. */
  @Test
  public void nodesThatRunNoTasksAreLeftOutOfTheEarlyCap() {
    Configuration conf = marcoJob();
    conf.setInt(MarcoConfig.STAGGER_REDUCES_PER_NODE, 2);
    conf.setInt(MarcoConfig.STAGGER_NON_TASK_NODES, 1);
    ReduceStaggering staggering = ReduceStaggering.forJob(conf);
    assertEquals("2 per node on the 4 of 5 nodes that run tasks", 8, staggering.earlyReduceCap(5));
    assertEquals(0, staggering.earlyReduceCap(1));
    assertEquals("never negative", 0, staggering.earlyReduceCap(0));
    assertTrue(staggering.toString(), staggering.toString().contains("1 node(s) run no tasks"));

    conf.set(MarcoConfig.STAGGER_NON_TASK_NODES, "-1");
    String problem = MarcoJobCheck.problem(conf);
    assertTrue(problem, problem.contains(MarcoConfig.STAGGER_NON_TASK_NODES));
    assertFalse(ReduceStaggering.forJob(conf).isActive());
  }

  /**
   * Every early reduce is asked for once the slow-start in force is reached and a map has
   * completed: for a MaRCO job (slow-start 0) at the first completed map, for a staggered stock
   * job at its own slow-start; never with the full ramp-up switched off.
   */
  @Test
  public void everyEarlyReduceIsAskedForOnceTheSlowStartIsReachedAndAMapHasCompleted() {
    ReduceStaggering marco = ReduceStaggering.forJob(marcoJob());
    float marcoSlowStart = marco.slowStart(0.05f);
    assertFalse("no map output yet", marco.asksForEveryEarlyReduce(0, 24, marcoSlowStart));
    assertTrue(marco.asksForEveryEarlyReduce(1, 24, marcoSlowStart));
    assertTrue(marco.toString(), marco.toString().contains("once a map has completed"));

    Configuration stockConf = new Configuration(false);
    MarcoJob.useStockShuffle(stockConf);
    stockConf.setBoolean(MarcoConfig.STAGGER_STOCK_JOBS, true);
    ReduceStaggering stock = ReduceStaggering.forJob(stockConf);
    float stockSlowStart = stock.slowStart(0.05f);
    assertFalse("5% of 24 maps is 2", stock.asksForEveryEarlyReduce(1, 24, stockSlowStart));
    assertTrue(stock.asksForEveryEarlyReduce(2, 24, stockSlowStart));

    Configuration hadoopRampUp = marcoJob();
    hadoopRampUp.setBoolean(MarcoConfig.STAGGER_FULL_RAMPUP, false);
    ReduceStaggering proportional = ReduceStaggering.forJob(hadoopRampUp);
    assertTrue(proportional.isActive());
    assertFalse(proportional.asksForEveryEarlyReduce(12, 24, 0f));
    assertTrue(proportional.toString(), proportional.toString().contains("Hadoop's ramp-up"));

    assertFalse(
        "not for jobs that are not staggered",
        ReduceStaggering.forJob(new Configuration(false)).asksForEveryEarlyReduce(12, 24, 0f));
  }

  @Test
  public void stockShuffleJobKeepsHadoopBehaviour() {
    Configuration conf = new Configuration(false);
    MarcoJob.useStockShuffle(conf);
    ReduceStaggering staggering = ReduceStaggering.forJob(conf);
    assertFalse(staggering.isActive());
    assertEquals(0.05f, staggering.slowStart(0.05f), 0f);
  }

  @Test
  public void stockJobAskingForStaggeringGetsThePerNodeCapAndKeepsItsSlowStart() {
    Configuration conf = new Configuration(false);
    MarcoJob.useStockShuffle(conf);
    conf.setBoolean(MarcoConfig.STAGGER_STOCK_JOBS, true);
    conf.setInt(MarcoConfig.STAGGER_REDUCES_PER_NODE, 2);
    ReduceStaggering staggering = ReduceStaggering.forJob(conf);
    assertTrue(staggering.isActive());
    assertEquals(8, staggering.earlyReduceCap(4));
    assertEquals(0.05f, staggering.slowStart(0.05f), 0f);
    assertEquals(0f, staggering.slowStart(0f), 0f);

    conf.setBoolean(MarcoConfig.STAGGER_ENABLED, false);
    assertFalse(
        "staggering off is off for stock jobs too", ReduceStaggering.forJob(conf).isActive());
    conf.setBoolean(MarcoConfig.STAGGER_ENABLED, true);
    conf.set(MarcoConfig.STAGGER_REDUCES_PER_NODE, "many");
    assertFalse(
        "a bad value leaves a stock job as it is", ReduceStaggering.forJob(conf).isActive());
  }

  @Test
  public void jobWithoutAnyShufflePluginIsNotStaggered() {
    assertFalse(ReduceStaggering.forJob(new Configuration(false)).isActive());
  }

  @Test
  public void marcoSwitchedOffOrStaggeringSwitchedOffIsNotStaggered() {
    Configuration disabled = marcoJob();
    disabled.setBoolean(MarcoConfig.ENABLED, false);
    assertFalse(ReduceStaggering.forJob(disabled).isActive());

    Configuration noStagger = marcoJob();
    noStagger.setBoolean(MarcoConfig.STAGGER_ENABLED, false);
    ReduceStaggering off = ReduceStaggering.forJob(noStagger);
    assertFalse(off.isActive());
    assertEquals("slow-start is Hadoop's again", 0.8f, off.slowStart(0.8f), 0f);
  }

  @Test
  public void aMarcoJobWithABadValueIsLeftToTheAppMastersCheck() {
    Configuration conf = marcoJob();
    conf.set(MarcoConfig.STAGGER_REDUCES_PER_NODE, "0");
    assertFalse(ReduceStaggering.forJob(conf).isActive());
    String problem = MarcoJobCheck.problem(conf);
    assertTrue(problem, problem.contains(MarcoConfig.STAGGER_REDUCES_PER_NODE));
  }

  @Test
  public void badMarcoValueDoesNotFailAStockJob() {
    Configuration conf = new Configuration(false);
    MarcoJob.useStockShuffle(conf);
    conf.setBoolean(MarcoConfig.STAGGER_ENABLED, false);
    assertFalse(
        "staggering off is off for stock jobs too", ReduceStaggering.forJob(conf).isActive());
    conf.setBoolean(MarcoConfig.STAGGER_ENABLED, true);
    conf.set(MarcoConfig.STAGGER_REDUCES_PER_NODE, "many");
    assertFalse(ReduceStaggering.forJob(conf).isActive());
  }
}
