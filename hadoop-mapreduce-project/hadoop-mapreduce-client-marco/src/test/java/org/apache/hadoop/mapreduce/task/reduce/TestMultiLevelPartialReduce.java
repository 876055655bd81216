/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.junit.Rule;
import org.junit.Test;

/**
 * Bounded fan-in: no merge of partial work opens more runs than {@code io.sort.factor}, and
 * partial runs are merged again (multi-level partial reduce) so the final merge gets fewer
 * than that from MaRCO.
 */
public class TestMultiLevelPartialReduce {
  private static final int FACTOR = 3;
  private static final Pattern RUNS =
      Pattern.compile("\"event\":\"(invocation|remerge)-start\".*?\"runs\":(\\d+)");
  private static final Pattern FINAL_PARTIAL_RUNS =
      Pattern.compile("\"event\":\"final-merge-start\".*\"partialRuns\":(\\d+)");
  @Rule public final SyntheticShuffleDir localDir = new SyntheticShuffleDir("marco-levels");

  private SyntheticShuffle shuffle(int maps, int threshold, Class<?> partialReducer)
      throws IOException {
    JobConf conf = SyntheticShuffle.baseConf(maps);
    conf.setInt(MRJobConfig.IO_SORT_FACTOR, FACTOR);
    conf.setInt(MarcoConfig.START_THRESHOLD_INITIAL, threshold);
    conf.setInt(MarcoConfig.START_THRESHOLD, threshold);
    conf.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, partialReducer, Reducer.class);
    SyntheticShuffle s = localDir.shuffle(conf, null);
    s.start();
    return s;
  }

  private static List<String> words(int map) {
    List<String> words = new ArrayList<>();
    Random r = new Random(map);
    for (int j = 0; j < 200; j++) {
      words.add("w" + r.nextInt(30));
    }
    return words;
  }

  private static void assertSums(Map<String, Long> expected, Map<String, List<Long>> input) {
    Map<String, Long> sums = new TreeMap<>();
    input.forEach((k, v) -> sums.put(k, v.stream().mapToLong(Long::longValue).sum()));
    assertEquals(expected, sums);
  }

  /** The "runs" of every invocation and re-merge start, in order. */
  private static List<Integer> fanIns(SyntheticShuffle s) {
    return s.timelineValues(RUNS, 2, Integer::parseInt);
  }

  private static int partialRunsAtFinalMerge(SyntheticShuffle s) {
    for (String e : s.manager.timelineEvents()) {
      Matcher m = FINAL_PARTIAL_RUNS.matcher(e);
      if (m.find()) {
        return Integer.parseInt(m.group(1));
      }
    }
    throw new AssertionError("no final-merge-start event");
  }

  @Test(timeout = 120_000)
  public void partialRunsAreMergedAgainAndTheFinalMergeGetsFewerThanTheFactor() throws Throwable {
    int maps = 40;
    SyntheticShuffle s = shuffle(maps, FACTOR, TestMarcoMergeManager.SumReducer.class);
    Map<String, Long> expected = new TreeMap<>();
    for (int i = 0; i < maps; i++) {
      words(i).forEach(w -> expected.merge(w, 1L, Long::sum));
      assertFalse("WAIT".equals(s.fetch(i, words(i))));
      s.awaitIdle();
    }
    assertSums(expected, s.finish());
    List<Integer> fanIns = fanIns(s);
    assertTrue(
        "every merge opens at most the sort factor's runs: " + fanIns,
        fanIns.stream().allMatch(n -> n <= FACTOR));
    assertTrue("re-merges ran", s.counter(MarcoCounter.PARTIAL_REMERGES) >= 2);
    assertEquals(
        FACTOR * s.counter(MarcoCounter.PARTIAL_REMERGES),
        s.counter(MarcoCounter.PARTIAL_REMERGED_RUNS));
    assertTrue(
        "runs of runs of runs: level " + s.counter(MarcoCounter.PARTIAL_MERGE_LEVELS),
        s.counter(MarcoCounter.PARTIAL_MERGE_LEVELS) >= 3);
    assertTrue(partialRunsAtFinalMerge(s) < FACTOR);
  }

  /** Holds the first invocation until the test lets it go. */
  public static class HeldFirstSumReducer extends TestMarcoMergeManager.SumReducer {
    static volatile CountDownLatch started = new CountDownLatch(1);
    static volatile CountDownLatch release = new CountDownLatch(1);

    @Override
    protected void setup(Context context) throws InterruptedException {
      started.countDown();
      assertTrue("released", release.await(60, TimeUnit.SECONDS));
    }
  }

  @Test(timeout = 120_000)
  public void aStarvedThreadCatchingUpOpensNoMoreThanTheFactor() throws Throwable {
    HeldFirstSumReducer.started = new CountDownLatch(1);
    HeldFirstSumReducer.release = new CountDownLatch(1);
    int maps = 30;
    SyntheticShuffle s = shuffle(maps, 2, HeldFirstSumReducer.class);
    Map<String, Long> expected = new TreeMap<>();
    for (int i = 0; i < maps; i++) {
      words(i).forEach(w -> expected.merge(w, 1L, Long::sum));
      assertFalse("WAIT".equals(s.fetch(i, words(i))));
      if (i == 1) {
        assertTrue(HeldFirstSumReducer.started.await(60, TimeUnit.SECONDS));
      } else if (i == maps / 2) {
        // The map outputs that waited behind the held invocation are now taken factor by
        // factor, not all at once (and before the stop point, which ends new invocations).
        HeldFirstSumReducer.release.countDown();
        s.awaitIdle();
      }
    }
    assertSums(expected, s.finish());
    List<Integer> fanIns = fanIns(s);
    assertTrue(
        "the catching-up invocations open at most the factor: " + fanIns,
        fanIns.size() > 2 && fanIns.stream().allMatch(n -> n <= FACTOR));
  }
}
