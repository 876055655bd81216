/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.junit.Rule;
import org.junit.Test;

/**
 * {@code mapreduce.reduce.input.buffer.percent} and SPILLED_RECORDS mean what they mean in stock
 * Hadoop: map outputs the job keeps in memory for the reducer are never written to disk by
 * partial work, and every record a reduce-side merge reads from local disk counts as spilled.
 */
public class TestMarcoReduceInputBuffer {
  private static final int MAPS = 8;
  @Rule public final SyntheticShuffleDir localDir = new SyntheticShuffleDir("marco-inputbuffer");

  private static JobConf conf() {
    JobConf conf = SyntheticShuffle.baseConf(MAPS);
    conf.setClass(
        MarcoConfig.PARTIAL_REDUCER_CLASS, TestMarcoMergeManager.SumReducer.class, Reducer.class);
    conf.setInt(MarcoConfig.START_THRESHOLD_INITIAL, 2);
    return conf;
  }

  private static List<String> words(int map) {
    return SyntheticShuffle.randomWords(map, 100, 20);
  }

  /** Fetches every map output and waits for partial work after each; returns the sums. */
  private static Map<String, Long> shuffle(SyntheticShuffle s, String where) throws Throwable {
    Map<String, Long> expected = new TreeMap<>();
    for (int i = 0; i < MAPS; i++) {
      List<String> words = words(i);
      words.forEach(w -> expected.merge(w, 1L, Long::sum));
      assertEquals(where, s.fetch(i, words));
      s.awaitIdle();
    }
    Map<String, Long> sums = new TreeMap<>();
    s.finish().forEach((k, v) -> sums.put(k, v.stream().mapToLong(Long::longValue).sum()));
    assertEquals(expected, sums);
    return expected;
  }

  private static long spilled(SyntheticShuffle s) {
    return s.counters.findCounter(TaskCounter.SPILLED_RECORDS).getValue();
  }

  @Test(timeout = 60_000)
  public void mapOutputsKeptForTheReducerStayInMemoryAndOutOfPartialWork() throws Throwable {
    JobConf conf = conf();
    conf.setFloat(MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, 1.0f);
    SyntheticShuffle s = localDir.shuffle(conf, null);
    s.start();
    shuffle(s, "MEMORY");
    assertEquals(
        "no partial work on what the reducer keeps", 0, s.counter(MarcoCounter.INVOCATIONS));
    assertEquals("nothing read from disk", 0, spilled(s));
  }

  /**
   * With no map output kept in memory for the reducer, every record is read from disk once by the
   * final merge (a partial run, a map output on disk, or one the final merge wrote to disk to
   * free the memory), and the records partial invocations read from disk once more.
   */
  private static void assertSpilledIsWhatMergesReadFromDisk(
      SyntheticShuffle s, long readByPartialWorkFromDisk) {
    long partialInput = s.counter(MarcoCounter.PARTIAL_INPUT_RECORDS);
    long finalMergeInput =
        s.counter(MarcoCounter.PARTIAL_OUTPUT_RECORDS) + MAPS * 100L - partialInput;
    assertEquals(finalMergeInput + readByPartialWorkFromDisk, spilled(s));
  }

  @Test(timeout = 60_000)
  public void withoutAReduceInputBufferPartialWorkTakesThem() throws Throwable {
    SyntheticShuffle s = localDir.shuffle(conf(), null);
    s.start();
    shuffle(s, "MEMORY");
    assertTrue(s.counter(MarcoCounter.INVOCATIONS) > 0);
    assertSpilledIsWhatMergesReadFromDisk(s, 0);
  }

  @Test(timeout = 60_000)
  public void recordsPartialWorkReadsFromDiskCountAsSpilled() throws Throwable {
    JobConf conf = conf();
    // Too little shuffle memory for any map output: every one goes to disk.
    conf.setLong("mapreduce.reduce.memory.totalbytes", 1000);
    SyntheticShuffle s = localDir.shuffle(conf, null);
    s.start();
    shuffle(s, "DISK");
    assertTrue(s.counter(MarcoCounter.PARTIAL_INPUT_RECORDS) > 0);
    assertSpilledIsWhatMergesReadFromDisk(s, s.counter(MarcoCounter.PARTIAL_INPUT_RECORDS));
  }

  /** What a fetch is told once three map outputs in flight hold more than the limit. */
  private String fetchOverTheLimit(float reduceInputBufferPercent) throws Throwable {
    JobConf conf = conf();
    conf.setFloat(MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, reduceInputBufferPercent);
    SyntheticShuffle s = localDir.shuffle(conf, null);
    long size = s.rawLength(words(0));
    // A limit of 2.5 map outputs, and each fits in memory alone (at most half the limit).
    conf.setLong("mapreduce.reduce.memory.totalbytes", (long) (2.5 * size / 0.7));
    conf.setFloat(MRJobConfig.SHUFFLE_MEMORY_LIMIT_PERCENT, 0.5f);
    s.start();
    for (int i = 0; i < 3; i++) {
      assertEquals("MEMORY", s.reserveAndShuffle(i, words(i)).getDescription());
    }
    return s.fetch(3, words(3));
  }

  @Test(timeout = 60_000)
  public void overTheLimitAFetchWaitsWhereTheJobKeepsMapOutputsForTheReducer() throws Throwable {
    assertEquals("WAIT", fetchOverTheLimit(1.0f));
  }

  @Test(timeout = 60_000)
  public void overTheLimitAFetchGoesToDiskWhereTheJobKeepsNone() throws Throwable {
    assertEquals("DISK", fetchOverTheLimit(0f));
  }

  @Test(timeout = 60_000)
  public void partialSortNeverCopiesALoneRunOnDisk() throws Throwable {
    JobConf conf = SyntheticShuffle.baseConf(MAPS);
    // No partial reducer: partial sort only, from the first arrival on.
    conf.setInt(MarcoConfig.START_THRESHOLD_INITIAL, 1);
    conf.setInt(MarcoConfig.START_THRESHOLD, 1);
    // Too little shuffle memory for any map output: every one goes to disk.
    conf.setLong("mapreduce.reduce.memory.totalbytes", 1000);
    SyntheticShuffle s = localDir.shuffle(conf, null);
    s.start();
    shuffle(s, "DISK");
    List<Integer> runs =
        s.timelineValues(
            Pattern.compile("\"invocation-start\".*\"runs\":(\\d+)"), 1, Integer::parseInt);
    assertTrue("partial sort ran", !runs.isEmpty());
    assertTrue(
        "every invocation merged two runs or more: " + runs, runs.stream().allMatch(n -> n > 1));
    assertSpilledIsWhatMergesReadFromDisk(s, s.counter(MarcoCounter.PARTIAL_INPUT_RECORDS));
  }
}
