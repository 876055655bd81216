/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.apache.hadoop.mapreduce.task.reduce.TestMarcoMergeManager.HeldSumReducer;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;

/**
 * A fetch that fails, and a map that is run again, while a partial invocation runs. Hadoop's
 * fetcher aborts the map output it had reserved when the copy fails; the scheduler then fetches
 * the map again, from the same attempt or from a re-executed one. The aborted reservation must
 * come back, the invocation must go on with the outputs it took, and the reducer must see the
 * map's records exactly once.
 */
public class TestMarcoFetchFailure {
  private static final int MAPS = 8;

  @Rule public final SyntheticShuffleDir localDir = new SyntheticShuffleDir("marco-fetch-failure");
  private SyntheticShuffle s;
  private final Map<String, Long> expected = new TreeMap<>();

  @Before
  public void setUp() throws IOException {
    HeldSumReducer.started = new CountDownLatch(1);
    HeldSumReducer.release = new CountDownLatch(1);
    JobConf conf = SyntheticShuffle.baseConf(MAPS);
    conf.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, HeldSumReducer.class, Reducer.class);
    s = localDir.shuffle(conf, null);
    s.start();
  }

  @After
  public void tearDown() {
    HeldSumReducer.release.countDown();
  }

  private static List<String> words(int map) {
    List<String> words = new ArrayList<>();
    Random r = new Random(map);
    for (int j = 0; j < 500; j++) {
      words.add("w" + r.nextInt(30));
    }
    return words;
  }

  private void fetch(int map, int attempt) throws IOException {
    MapOutput<Text, LongWritable> out = s.reserveAndShuffle(map, attempt, words(map));
    assertNotNull("map " + map + " was told to WAIT", out);
    out.commit();
    words(map).forEach(w -> expected.merge(w, 1L, Long::sum));
  }

  @Test
  public void aFailedFetchAndARerunMapDuringAnInvocationCountOnce() throws Throwable {
    for (int map = 0; map < 4; map++) {
      fetch(map, 0);
    }
    assertTrue("the invocation started", HeldSumReducer.started.await(60, TimeUnit.SECONDS));
    // Map 4: the copy fails half-way and the fetcher aborts its reservation; then the map is
    // fetched again, and map 5's attempt 0 fails for good and attempt 1 (re-executed) is fetched.
    long used = s.manager.usedMemory();
    s.reserveAndShuffle(4, 0, words(4)).abort();
    assertEquals("the aborted reservation came back", used, s.manager.usedMemory());
    fetch(4, 0);
    used = s.manager.usedMemory();
    s.reserveAndShuffle(5, 0, words(5)).abort();
    assertEquals("the aborted reservation came back", used, s.manager.usedMemory());
    fetch(5, 1);
    for (int map = 6; map < MAPS; map++) {
      fetch(map, 0);
    }
    HeldSumReducer.release.countDown();
    s.awaitIdle();
    assertEquals("no pin is left", 0, s.manager.pinnedMemory());
    Map<String, Long> sums = new TreeMap<>();
    s.finish().forEach((k, v) -> sums.put(k, v.stream().mapToLong(Long::longValue).sum()));
    assertEquals("every map's records exactly once", expected, sums);
    assertEquals(1, s.counter(MarcoCounter.INVOCATIONS));
    assertEquals(4, s.counter(MarcoCounter.PARTIAL_INPUT_MAP_OUTPUTS));
    assertEquals(0, s.counter(MarcoCounter.FAILED_INVOCATIONS));
  }
}
