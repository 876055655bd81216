/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.junit.Rule;
import org.junit.Test;

/**
 * The merge manager under concurrency: fetchers that reserve and commit at the same time, to
 * memory and to disk, while several partial threads and the spill thread run.
 */
public class TestMarcoConcurrency {
  private static final int FETCHERS = 4;
  @Rule public final SyntheticShuffleDir localDir = new SyntheticShuffleDir("marco-concurrency");

  /** Map i's words: mostly small outputs, every fifth large enough to go to disk. */
  private static List<String> words(int map) {
    List<String> words = new ArrayList<>();
    Random r = new Random(map);
    int n = map % 5 == 0 ? 6000 : 300;
    for (int j = 0; j < n; j++) {
      words.add("w" + r.nextInt(400));
    }
    return words;
  }

  /**
   * Fetches every map output with FETCHERS threads at once, as Hadoop's fetchers do: on WAIT a
   * fetcher waits for the memory to free and tries again. Returns the expected sums.
   */
  private static Map<String, Long> fetchConcurrently(SyntheticShuffle s, int maps)
      throws Exception {
    AtomicInteger next = new AtomicInteger();
    ExecutorService fetchers = Executors.newFixedThreadPool(FETCHERS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int f = 0; f < FETCHERS; f++) {
        done.add(
            fetchers.submit(
                () -> {
                  for (int i = next.getAndIncrement(); i < maps; i = next.getAndIncrement()) {
                    while ("WAIT".equals(s.fetch(i, words(i)))) {
                      s.manager.waitForResource();
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      fetchers.shutdownNow();
    }
    Map<String, Long> expected = new TreeMap<>();
    for (int i = 0; i < maps; i++) {
      words(i).forEach(w -> expected.merge(w, 1L, Long::sum));
    }
    return expected;
  }

  private static Map<String, Long> sums(Map<String, List<Long>> input) {
    Map<String, Long> sums = new TreeMap<>();
    input.forEach((k, v) -> sums.put(k, v.stream().mapToLong(Long::longValue).sum()));
    return sums;
  }

  private static void assertCleanBookkeeping(SyntheticShuffle s, int maps) {
    assertEquals("no merge left running", 0, s.manager.mergesRunning());
    assertEquals("no memory left pinned", 0, s.manager.pinnedMemory());
    assertTrue(s.counter(MarcoCounter.PARTIAL_INPUT_MAP_OUTPUTS) <= maps);
    assertEquals(
        "every map output reached the reducer once",
        maps,
        s.counters
            .findCounter(org.apache.hadoop.mapreduce.TaskCounter.MERGED_MAP_OUTPUTS)
            .getValue());
  }

  @Test(timeout = 300_000)
  public void concurrentFetchersWithTwoPartialThreadsAndSpills() throws Throwable {
    int maps = 60;
    JobConf conf = SyntheticShuffle.baseConf(maps);
    // Small enough that outputs are spilled and the large ones go straight to disk.
    conf.setLong("mapreduce.reduce.memory.totalbytes", 400_000);
    conf.setInt(MarcoConfig.PARTIAL_THREADS, 2);
    conf.setInt(MarcoConfig.START_THRESHOLD_INITIAL, 2);
    conf.setInt(MarcoConfig.START_THRESHOLD, 2);
    // The invocations are held until every map output has arrived: the outputs in memory then
    // pile up past the merge threshold, so memory spills run next to pinned invocations however
    // fast this machine's partial threads would otherwise have drained them.
    conf.setClass(
        MarcoConfig.PARTIAL_REDUCER_CLASS,
        TestMarcoMergeManager.HeldSumReducer.class,
        Reducer.class);
    TestMarcoMergeManager.HeldSumReducer.release = new CountDownLatch(1);
    Map<String, Long> expected;
    SyntheticShuffle s = localDir.shuffle(conf, null);
    try {
      s.start();
      expected = fetchConcurrently(s, maps);
    } finally {
      TestMarcoMergeManager.HeldSumReducer.release.countDown();
    }
    // Fetches here end within milliseconds, before the partial work has read much: the shuffle
    // ends once it is done, or the final merge would not wait for it and nothing would be left
    // to check.
    s.awaitIdle();
    assertEquals(expected, sums(s.finish()));
    assertTrue("partial invocations ran", s.counter(MarcoCounter.INVOCATIONS) > 0);
    assertTrue(
        "memory spills ran",
        s.manager.timelineEvents().stream().anyMatch(e -> e.contains("\"event\":\"spill-end\"")));
    assertTrue(
        "map outputs went to disk",
        s.manager.timelineEvents().stream().anyMatch(e -> e.contains("\"where\":\"disk\"")));
    assertCleanBookkeeping(s, maps);
  }

  /**
   * A partial reducer that sums per word inside groups of a coarser combiner grouping
   * comparator: it emits a sum each time the current key changes within the group.
   */
  public static class SumPerKeyWithinGroup extends Reducer<Text, LongWritable, Text, LongWritable> {
    @Override
    protected void reduce(Text group, Iterable<LongWritable> values, Context context)
        throws IOException, InterruptedException {
      Text current = null;
      long sum = 0;
      for (LongWritable v : values) {
        Text key = context.getCurrentKey();
        if (current != null && !current.equals(key)) {
          context.write(current, new LongWritable(sum));
          sum = 0;
        }
        if (current == null || !current.equals(key)) {
          current = new Text(key);
        }
        sum += v.get();
      }
      context.write(current, new LongWritable(sum));
    }
  }

  @Test(timeout = 300_000)
  public void combinerGroupingComparatorWithAPartialReducerAndConcurrentFetchers()
      throws Throwable {
    int maps = 40;
    JobConf conf = SyntheticShuffle.baseConf(maps);
    conf.setCombinerKeyGroupingComparator(
        TestMarcoPartialReducerContract.FirstLetterComparator.class);
    conf.setInt(MarcoConfig.PARTIAL_THREADS, 2);
    conf.setInt(MarcoConfig.START_THRESHOLD_INITIAL, 2);
    conf.setInt(MarcoConfig.START_THRESHOLD, 2);
    conf.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, SumPerKeyWithinGroup.class, Reducer.class);
    SyntheticShuffle s = localDir.shuffle(conf, null);
    s.start();
    Map<String, Long> expected = fetchConcurrently(s, maps);
    s.awaitIdle(); // as above: the partial work is there to check
    assertEquals(expected, sums(s.finish()));
    assertEquals(
        "a valid partial reducer breaks no rule", 0, s.counter(MarcoCounter.CONTRACT_VIOLATIONS));
    assertTrue(
        "it reduced",
        s.counter(MarcoCounter.PARTIAL_OUTPUT_RECORDS)
            < s.counter(MarcoCounter.PARTIAL_INPUT_RECORDS));
    assertCleanBookkeeping(s, maps);
  }
}
