/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import java.io.File;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.nio.file.Files;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Progressable;
import org.apache.hadoop.util.ReflectionUtils;
import org.junit.Rule;
import org.junit.Test;

/** The merge manager on synthetic map outputs, fetched one at a time as Hadoop's fetchers do. */
public class TestMarcoMergeManager {
  private static final Pattern INVOCATION_START =
      Pattern.compile(
          "\"event\":\"invocation-start\",\"n\":\\d+,\"arrived\":(\\d+).*\"reduce\":(\\w+)");

  @Rule public final SyntheticShuffleDir localDir = new SyntheticShuffleDir("marco-mm");

  /** Sums counts per word: the partial reducer of word-count. */
  public static class SumReducer extends Reducer<Text, LongWritable, Text, LongWritable> {
    @Override
    protected void reduce(Text key, Iterable<LongWritable> values, Context context)
        throws IOException, InterruptedException {
      long sum = 0;
      for (LongWritable v : values) {
        sum += v.get();
      }
      emit(key, sum, context);
    }

    /** Writes a key's sum; a test's reducer may emit it otherwise. */
    protected void emit(Text key, long sum, Context context)
        throws IOException, InterruptedException {
      context.write(key, new LongWritable(sum));
    }
  }

  /** The same sum in the old API. */
  public static class OldSumReducer extends MapReduceBase
      implements org.apache.hadoop.mapred.Reducer<Text, LongWritable, Text, LongWritable> {
    @Override
    public void reduce(
        Text key,
        Iterator<LongWritable> values,
        OutputCollector<Text, LongWritable> out,
        Reporter reporter)
        throws IOException {
      long sum = 0;
      while (values.hasNext()) {
        sum += values.next().get();
      }
      emit(key, sum, out);
    }

    /** Collects a key's sum; a test's reducer may emit it otherwise. */
    protected void emit(Text key, long sum, OutputCollector<Text, LongWritable> out)
        throws IOException {
      out.collect(key, new LongWritable(sum));
    }
  }

  /**
   * Sums, but each invocation first waits for the test's go-ahead: an invocation that is still
   * running when the shuffle ends.
   */
  public static class HeldSumReducer extends SumReducer {
    static volatile CountDownLatch started = new CountDownLatch(0);
    static volatile CountDownLatch release = new CountDownLatch(0);

    /** The kernel task id of the partial thread it runs on, and that thread's nice value then. */
    static volatile int tid;

    static volatile int niceAtStart;

    @Override
    protected void setup(Context context) throws InterruptedException {
      recordThread();
      hold();
    }

    static void recordThread() {
      tid = MarcoCpuShareThreadFactory.currentThreadTid();
      niceAtStart = MarcoCpuShareThreadFactory.niceOf(tid);
    }

    static void hold() throws InterruptedException {
      started.countDown();
      assertTrue("released", release.await(60, TimeUnit.SECONDS));
    }
  }

  /**
   * Sums, and is held once it has read its whole input: at shuffle end it has only its end left,
   * and its output is a small part of its input, so it is worth the final merge's wait.
   */
  public static class HeldAtEndSumReducer extends SumReducer {
    @Override
    protected void setup(Context context) {
      HeldSumReducer.recordThread();
    }

    @Override
    protected void cleanup(Context context) throws InterruptedException {
      HeldSumReducer.hold();
    }
  }

  /**
   * Copies its input, and is held after 300 records: at shuffle end it has read most of its input
   * but keeps all of it, so finishing it would save the final merge nothing.
   */
  public static class HeldMidwayIdentityReducer
      extends Reducer<Text, LongWritable, Text, LongWritable> {
    private int records;

    @Override
    protected void reduce(Text key, Iterable<LongWritable> values, Context context)
        throws IOException, InterruptedException {
      for (LongWritable value : values) {
        if (++records == 300) {
          HeldSumReducer.hold();
        }
        context.write(key, value);
      }
    }
  }

  /** A held reducer that swallows the exception stopping its input, as careless code might. */
  public static class SwallowingHeldSumReducer extends HeldSumReducer {
    @Override
    public void run(Context context) throws InterruptedException {
      try {
        super.run(context);
      } catch (IOException swallowed) {
        // Returns as if its input had ended.
      }
    }
  }

  /** A held reducer that replaces the stop with an exception of its own, without a cause. */
  public static class RethrowingHeldSumReducer extends HeldSumReducer {
    @Override
    public void run(Context context) throws InterruptedException {
      try {
        super.run(context);
      } catch (IOException e) {
        throw new IllegalStateException("input ended early: " + e.getMessage());
      }
    }
  }

  /** Sums, after 300 ms of CPU work per invocation, whatever its input: a slow partial reducer. */
  public static class SlowSumReducer extends SumReducer {
    @Override
    protected void setup(Context context) {
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      long end = threads.getCurrentThreadCpuTime() + 300_000_000L;
      while (threads.getCurrentThreadCpuTime() < end) {
        Thread.onSpinWait();
      }
    }
  }

  /** Sums, after waiting 300 ms per invocation with no work: as slow in wall time only. */
  public static class WaitingSumReducer extends SumReducer {
    @Override
    protected void setup(Context context) throws InterruptedException {
      Thread.sleep(300);
    }
  }

  /** Copies every record: a partial reducer that does no useful work. */
  public static class IdentityReducer extends Reducer<Text, LongWritable, Text, LongWritable> {}

  /**
   * The paper's start rule alone, without starting a backlog whose threshold is out of reach or
   * would be reached too late: the tests count invocations at the thresholds they set. The two
   * tail rules have tests of their own.
   */
  private static JobConf paperConf(int maps) {
    JobConf conf = SyntheticShuffle.baseConf(maps);
    conf.setBoolean(MarcoConfig.START_WHEN_THRESHOLD_UNREACHABLE, false);
    conf.setBoolean(MarcoConfig.START_WHEN_THRESHOLD_LATE, false);
    return conf;
  }

  private static JobConf startWhenMapsComplete(JobConf conf) {
    conf.setBoolean(MarcoConfig.START_WHEN_MAPS_COMPLETE, true);
    return conf;
  }

  private SyntheticShuffle shuffle(JobConf conf) throws IOException {
    return shuffle(conf, null);
  }

  private SyntheticShuffle shuffle(JobConf conf, CompressionCodec codec) throws IOException {
    SyntheticShuffle s = localDir.shuffle(conf, codec);
    s.start();
    return s;
  }

  /** Map i emits "w<i%distinct>" and shared words, so keys repeat across map outputs. */
  private static List<String> wordsOfMap(int i, int perMap, int distinct) {
    List<String> words = new ArrayList<>();
    Random r = new Random(i);
    for (int j = 0; j < perMap; j++) {
      words.add("w" + r.nextInt(distinct));
    }
    return words;
  }

  /** Fetches every map output in order, letting invocations finish between arrivals. */
  private static Map<String, Long> fetchAll(SyntheticShuffle s, int maps, int perMap, int distinct)
      throws Exception {
    return fetchAll(s, maps, perMap, distinct, i -> {});
  }

  /** As above, calling {@code beforeFetch} with each map's index before its output is fetched. */
  private static Map<String, Long> fetchAll(
      SyntheticShuffle s, int maps, int perMap, int distinct, IntConsumer beforeFetch)
      throws Exception {
    Map<String, Long> expected = new TreeMap<>();
    for (int i = 0; i < maps; i++) {
      beforeFetch.accept(i);
      List<String> words = wordsOfMap(i, perMap, distinct);
      for (String w : words) {
        expected.merge(w, 1L, Long::sum);
      }
      assertFalse("WAIT", "WAIT".equals(s.fetch(i, words)));
      s.awaitIdle();
    }
    return expected;
  }

  private static void assertSums(Map<String, Long> expected, Map<String, List<Long>> actual) {
    Map<String, Long> sums = new TreeMap<>();
    actual.forEach((k, v) -> sums.put(k, v.stream().mapToLong(Long::longValue).sum()));
    assertEquals(expected, sums);
  }

  /** One group of every invocation-start event of the timeline, in order, parsed by {@code parse}. */
  private static <T> List<T> invocationStarts(
      SyntheticShuffle s, int group, Function<String, T> parse) {
    return s.timelineValues(INVOCATION_START, group, parse);
  }

  private static List<Integer> invocationStartArrivals(SyntheticShuffle s) {
    return invocationStarts(s, 1, Integer::parseInt);
  }

  private static List<Boolean> invocationReduceFlags(SyntheticShuffle s) {
    return invocationStarts(s, 2, Boolean::parseBoolean);
  }

  @Test
  public void invocationsStartAtThresholdsFourFourThenEightUntilStopFraction() throws Throwable {
    SyntheticShuffle s = shuffle(paperConf(40));
    Map<String, Long> expected = fetchAll(s, 40, 50, 30);
    // 4, 4 more, then 8 at a time; the stop point (default 1.0) is the last arrival, and the 7
    // map outputs before it never make 8.
    assertEquals(List.of(4, 8, 16, 24, 32), invocationStartArrivals(s));
    assertTrue(
        s.manager.timelineEvents().stream()
            .anyMatch(e -> e.contains("\"event\":\"stop-point\",\"arrived\":40")));
    assertSums(expected, s.finish());
    assertEquals(5, s.counter(MarcoCounter.INVOCATIONS));
    assertEquals(32, s.counter(MarcoCounter.PARTIAL_INPUT_MAP_OUTPUTS));
  }

  @Test
  public void theShufflesTailStartsWhatTheThresholdCanNoLongerGather() throws Throwable {
    // 20 map outputs, thresholds 4, 4, then 8: after the start at 16 only 3 more can arrive
    // before the stop point (the last arrival), so each one that waits starts an invocation.
    SyntheticShuffle s = shuffle(SyntheticShuffle.baseConf(20));
    Map<String, Long> expected = fetchAll(s, 20, 50, 30);
    assertEquals(List.of(4, 8, 16, 17, 18, 19), invocationStartArrivals(s));
    assertSums(expected, s.finish());
    assertEquals(19, s.counter(MarcoCounter.PARTIAL_INPUT_MAP_OUTPUTS));

    // With a stop fraction of 0.5 the stop point is arrival 10: the one waiting at 9 starts.
    JobConf conf = SyntheticShuffle.baseConf(20);
    conf.setFloat(MarcoConfig.STOP_FRACTION, 0.5f);
    s = shuffle(conf);
    expected = fetchAll(s, 20, 50, 30);
    assertEquals(List.of(4, 8, 9), invocationStartArrivals(s));
    assertSums(expected, s.finish());
  }

  @Test
  public void onceTheMapsHaveCompletedEachWaitingMapOutputStartsAnInvocation() throws Throwable {
    // The paper's thresholds 4, 4, then 8 hold arrivals 9 and 10 back while maps run; once the
    // maps have completed they start at once, and so does every later arrival.
    SyntheticShuffle s = shuffle(startWhenMapsComplete(paperConf(20)));
    IntConsumer beforeFetch =
        i -> {
          if (i == 10) {
            assertEquals(List.of(4, 8), invocationStartArrivals(s));
            s.manager.mapsCompleted(true);
          }
        };
    Map<String, Long> expected = fetchAll(s, 20, 50, 30, beforeFetch);
    assertEquals(List.of(4, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19), invocationStartArrivals(s));
    assertTrue(
        s.manager.timelineEvents().stream()
            .anyMatch(e -> e.contains("\"event\":\"maps-complete\",\"arrived\":10")));
    assertSums(expected, s.finish());
    assertEquals(19, s.counter(MarcoCounter.PARTIAL_INPUT_MAP_OUTPUTS));
  }

  @Test
  public void aMapThatRunsAgainBringsTheThresholdBack() throws Throwable {
    SyntheticShuffle s = shuffle(startWhenMapsComplete(paperConf(20)));
    IntConsumer beforeFetch =
        i -> {
          if (i == 8) {
            s.manager.mapsCompleted(true);
          } else if (i == 10) {
            s.manager.mapsCompleted(false); // a lost map output: its map runs again
          }
        };
    Map<String, Long> expected = fetchAll(s, 20, 50, 30, beforeFetch);
    // 4, 4, then one each at 9 and 10; from then on 8 again (at 18), and the 19th waits.
    assertEquals(List.of(4, 8, 9, 10, 18), invocationStartArrivals(s));
    assertTrue(
        s.manager.timelineEvents().stream()
            .anyMatch(e -> e.contains("\"event\":\"maps-incomplete\",\"arrived\":10")));
    assertSums(expected, s.finish());
  }

  /**
   * The first invocation, over 4 map outputs, takes at least 300 ms; the next 4 then arrive at
   * once, so at arrival 8 the 2 map outputs still to come are forecast to take well under that
   * (300 ms over 7 intervals each), and an invocation of the 4 waiting would end after the
   * shuffle. It takes only what is forecast to end in time, the oldest first: fewer than 4, or,
   * where not even the first would, none (held back and logged once). What it leaves reaches the
   * final merge whole. Turned off, all 4 start.
   */
  @Test
  public void anInvocationForecastToEndAfterTheShuffleDoesNotStart() throws Throwable {
    assumeTrue(
        "the slow reducer spins on this thread's CPU time",
        ManagementFactory.getThreadMXBean().isCurrentThreadCpuTimeSupported());
    for (boolean forecast : new boolean[] {true, false}) {
      Map<String, Long> expected = new TreeMap<>();
      SyntheticShuffle s = slowInvocationThenFastArrivals(forecast, SlowSumReducer.class, expected);
      List<Integer> starts = invocationStartArrivals(s);
      assertSums(expected, s.finish());
      if (forecast && starts.size() == 1) {
        assertEquals(1, s.counter(MarcoCounter.LATE_STARTS_HELD));
        assertTrue("in the timeline", indexOf(s.manager.timelineEvents(), "late-hold") >= 0);
        assertEquals(4, s.counter(MarcoCounter.PARTIAL_INPUT_MAP_OUTPUTS));
      } else if (forecast) {
        assertEquals(List.of(4, 8), starts);
        long taken = s.counter(MarcoCounter.PARTIAL_INPUT_MAP_OUTPUTS) - 4;
        assertTrue("took " + taken + " of the 4 waiting", taken >= 1 && taken < 4);
        assertEquals(0, s.counter(MarcoCounter.LATE_STARTS_HELD));
      } else {
        assertEquals(List.of(4, 8), starts);
        assertEquals(0, s.counter(MarcoCounter.LATE_STARTS_HELD));
      }
    }
  }

  /**
   * 12 map outputs, thresholds 2 then 8. The first invocation (over 2, at least 300 ms of CPU)
   * finishes, and every map completes, before the rest arrive 100 ms apart, so 8 more could still gather by the 10th arrival
   * and the count alone waits for them; but a batch of 8 at the first one's rate takes 1.2 s
   * against the 0.2 s of shuffle left then. With the rule, what waits starts long before; without
   * it, nothing starts until the batch has formed at the 10th arrival.
   */
  @Test
  public void aThresholdBatchThatWouldEndAfterTheShuffleDoesNotHoldTheBacklogBack()
      throws Throwable {
    assumeTrue(
        "the slow reducer spins on this thread's CPU time",
        ManagementFactory.getThreadMXBean().isCurrentThreadCpuTimeSupported());
    for (boolean rule : new boolean[] {true, false}) {
      JobConf conf = paperConf(12);
      conf.setBoolean(MarcoConfig.START_WHEN_THRESHOLD_LATE, rule);
      conf.setInt(MarcoConfig.START_THRESHOLD_INITIAL, 2);
      conf.setInt(MarcoConfig.START_THRESHOLD_INITIAL_INVOCATIONS, 1);
      conf.setInt(MarcoConfig.START_THRESHOLD, 8);
      conf.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, SlowSumReducer.class, Reducer.class);
      SyntheticShuffle s = shuffle(conf);
      Map<String, Long> expected =
          fetchAll(
              s,
              12,
              50,
              30,
              i -> {
                if (i == 2) {
                  awaitIdle(s);
                  s.manager.mapsCompleted(true);
                } else if (i > 2) {
                  sleep(100);
                }
              });
      s.awaitIdle();
      List<Integer> starts = invocationStartArrivals(s);
      assertSums(expected, s.finish());
      assertEquals(2, (int) starts.get(0));
      boolean below = starts.stream().anyMatch(arrival -> arrival > 2 && arrival < 10);
      boolean logged = indexOf(s.manager.timelineEvents(), "threshold-late") >= 0;
      assertEquals("rule " + rule + ": " + starts, rule, below);
      assertEquals("in the timeline", rule, logged);
    }
  }

  private static void awaitIdle(SyntheticShuffle s) {
    try {
      s.awaitIdle();
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The forecast's rate is CPU time: an invocation slow only because its thread waited, as a
   * low-priority thread does while the maps run, makes no later one look late.
   */
  @Test
  public void anInvocationSlowOnlyInWallTimeHoldsNoneBack() throws Throwable {
    Map<String, Long> expected = new TreeMap<>();
    SyntheticShuffle s = slowInvocationThenFastArrivals(true, WaitingSumReducer.class, expected);
    assertEquals(List.of(4, 8), invocationStartArrivals(s));
    assertSums(expected, s.finish());
    assertEquals(0, s.counter(MarcoCounter.LATE_STARTS_HELD));
  }

  /**
   * 10 map outputs: 4, then, once the first invocation (of {@code partialReducer}) has finished,
   * the other 6 at once, so that its 300 ms outlast the shuffle left at the second threshold.
   * Every word counted goes into {@code expected}.
   */
  private SyntheticShuffle slowInvocationThenFastArrivals(
      boolean forecast, Class<? extends Reducer> partialReducer, Map<String, Long> expected)
      throws Throwable {
    JobConf conf = paperConf(10);
    conf.setBoolean(MarcoConfig.START_ONLY_WITHIN_SHUFFLE, forecast);
    conf.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, partialReducer, Reducer.class);
    SyntheticShuffle s = shuffle(conf);
    for (int i = 0; i < 10; i++) {
      List<String> words = wordsOfMap(i, 50, 30);
      words.forEach(w -> expected.merge(w, 1L, Long::sum));
      assertFalse("WAIT", "WAIT".equals(s.fetch(i, words)));
      if (i == 3) {
        s.awaitIdle();
      }
    }
    s.awaitIdle();
    return s;
  }

  @Test
  public void noInvocationStartsOnceStopFractionHasArrived() throws Throwable {
    JobConf conf = paperConf(10);
    conf.setInt(MarcoConfig.START_THRESHOLD_INITIAL, 1);
    conf.setInt(MarcoConfig.START_THRESHOLD, 1);
    conf.setFloat(MarcoConfig.STOP_FRACTION, 0.5f);
    SyntheticShuffle s = shuffle(conf);
    Map<String, Long> expected = fetchAll(s, 10, 20, 10);
    assertEquals(List.of(1, 2, 3, 4), invocationStartArrivals(s));
    assertSums(expected, s.finish());
  }

  /** The raw bytes of every arrival, and of the inputs of every invocation that started. */
  private static List<Long> eventBytes(SyntheticShuffle s, String event) {
    Pattern p = Pattern.compile("\"event\":\"" + event + "\".*\"bytes\":(\\d+)");
    return s.timelineValues(p, 1, Long::parseLong);
  }

  /** 12 equal map outputs, start thresholds out of reach: only the byte bound starts invocations. */
  private SyntheticShuffle boundedInvocations(String maxBytes) throws Throwable {
    JobConf conf = paperConf(12);
    conf.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, SumReducer.class, Reducer.class);
    conf.setInt(MarcoConfig.START_THRESHOLD_INITIAL, 1000);
    conf.setInt(MarcoConfig.START_THRESHOLD, 1000);
    conf.set(MarcoConfig.INVOCATION_MAX_BYTES, maxBytes);
    conf.setFloat(MarcoConfig.STOP_FRACTION, 1.0f);
    return shuffleAndCheckSums(conf, 12, 100, 10);
  }

  /** Shuffles {@code maps} map outputs one at a time and checks the reducer's sums. */
  private SyntheticShuffle shuffleAndCheckSums(JobConf conf, int maps, int perMap, int distinct)
      throws Throwable {
    SyntheticShuffle s = shuffle(conf);
    Map<String, Long> expected = fetchAll(s, maps, perMap, distinct);
    assertSums(expected, s.finish());
    return s;
  }

  @Test
  public void aByteBoundSplitsTheBacklogAndStartsInvocationsOnItsOwn() throws Throwable {
    // A bound below one map output: every arrival before the last (the stop point) starts an
    // invocation of exactly that map output.
    SyntheticShuffle s = boundedInvocations("1");
    List<Long> arrivals = eventBytes(s, "arrival");
    long one = arrivals.get(0);
    assertTrue("equal map outputs: " + arrivals, arrivals.stream().allMatch(b -> b == one));
    assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), invocationStartArrivals(s));
    assertTrue(eventBytes(s, "invocation-start").stream().allMatch(b -> b == one));

    // Two and a half map outputs: an invocation starts once three wait and takes the two that fit.
    s = boundedInvocations(Long.toString(one * 5 / 2));
    assertEquals(List.of(3, 5, 7, 9, 11), invocationStartArrivals(s));
    assertTrue(eventBytes(s, "invocation-start").stream().allMatch(b -> b == 2 * one));
    assertEquals(10, s.counter(MarcoCounter.PARTIAL_INPUT_MAP_OUTPUTS));
  }

  @Test
  public void withoutControlEveryArrivalButTheLastStartsAnInvocation() throws Throwable {
    JobConf conf = SyntheticShuffle.baseConf(6);
    conf.setBoolean(MarcoConfig.CONTROL_ENABLED, false);
    SyntheticShuffle s = shuffle(conf);
    Map<String, Long> expected = fetchAll(s, 6, 20, 10);
    assertEquals(List.of(1, 2, 3, 4, 5), invocationStartArrivals(s));
    assertSums(expected, s.finish());
  }

  @Test
  public void partialReduceSumsAcrossMapOutputs() throws Throwable {
    JobConf conf = paperConf(12);
    conf.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, SumReducer.class, Reducer.class);
    SyntheticShuffle s = shuffle(conf);
    Map<String, Long> expected = fetchAll(s, 12, 200, 20);
    Map<String, List<Long>> input = s.finish();
    assertSums(expected, input);
    // Invocations at arrivals 4 and 8 folded 8 map outputs into 2 runs, one record per word each.
    assertEquals(2, s.counter(MarcoCounter.INVOCATIONS));
    assertEquals(8 * 200, s.counter(MarcoCounter.PARTIAL_INPUT_RECORDS));
    assertTrue(s.counter(MarcoCounter.PARTIAL_OUTPUT_RECORDS) <= 2 * 20);
    // The time of reducing invocations is counted as such, and all of it.
    assertEquals(0, s.counter(MarcoCounter.PARTIAL_SORT_MILLIS));
    long endedMillis = 0;
    for (String e : s.manager.timelineEvents()) {
      Matcher m = Pattern.compile("\"event\":\"invocation-end\".*\"millis\":(\\d+)").matcher(e);
      if (m.find()) {
        endedMillis += Long.parseLong(m.group(1));
      }
    }
    assertEquals(endedMillis, s.counter(MarcoCounter.PARTIAL_REDUCE_MILLIS));
    assertEquals(0, s.counter(MarcoCounter.ADAPTIVE_DISABLES));
  }

  @Test
  public void oldApiPartialReducerWorksLikeTheNewOne() throws Throwable {
    JobConf conf = paperConf(12);
    conf.setClass(
        MarcoConfig.PARTIAL_REDUCER_CLASS,
        OldSumReducer.class,
        org.apache.hadoop.mapred.Reducer.class);
    SyntheticShuffle s = shuffle(conf);
    Map<String, Long> expected = fetchAll(s, 12, 200, 20);
    assertSums(expected, s.finish());
    assertTrue(s.counter(MarcoCounter.PARTIAL_OUTPUT_RECORDS) <= 2 * 20);
  }

  @Test
  public void withoutPartialReducerInvocationsOnlySort() throws Throwable {
    SyntheticShuffle s = shuffle(paperConf(12));
    Map<String, Long> expected = fetchAll(s, 12, 100, 20);
    Map<String, List<Long>> input = s.finish();
    assertSums(expected, input);
    assertEquals(2, s.counter(MarcoCounter.INVOCATIONS));
    assertEquals(
        s.counter(MarcoCounter.PARTIAL_INPUT_RECORDS),
        s.counter(MarcoCounter.PARTIAL_OUTPUT_RECORDS));
    assertTrue(
        "every record reaches the reducer unreduced",
        input.values().stream().allMatch(v -> v.stream().allMatch(c -> c == 1L)));
  }

  @Test
  public void partialReduceSwitchOffKeepsPartialSort() throws Throwable {
    JobConf conf = paperConf(12);
    conf.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, SumReducer.class, Reducer.class);
    conf.setBoolean(MarcoConfig.PARTIAL_REDUCE_ENABLED, false);
    SyntheticShuffle s = shuffle(conf);
    Map<String, Long> expected = fetchAll(s, 12, 100, 20);
    assertSums(expected, s.finish());
    assertEquals(List.of(false, false), invocationReduceFlags(s));
  }

  @Test
  public void failedInvocationLeavesItsInputsToTheFinalMerge() throws Throwable {
    JobConf conf = paperConf(12);
    conf.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, SumReducer.class, Reducer.class);
    conf.setInt(MarcoConfig.TEST_FAIL_INVOCATION, 1);
    SyntheticShuffle s = shuffle(conf);
    Map<String, Long> expected = fetchAll(s, 12, 100, 20);
    assertSums(expected, s.finish());
    assertEquals(1, s.counter(MarcoCounter.FAILED_INVOCATIONS));
    assertEquals(1, s.counter(MarcoCounter.INVOCATIONS));
    List<String> events = s.manager.timelineEvents();
    int failed = indexOf(events, "invocation-failed");
    assertTrue(
        "the failed invocation's in-memory inputs are spilled to free their memory",
        failed >= 0 && indexOf(events.subList(failed, events.size()), "spill-end") > 0);
    File[] leftovers =
        new File(localDir.dir(), "output").listFiles((d, n) -> n.contains("partial-1"));
    assertEquals("the failed run's file is removed", 0, leftovers == null ? 0 : leftovers.length);
  }

  private static int indexOf(List<String> events, String event) {
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).contains("\"event\":\"" + event + "\"")) {
        return i;
      }
    }
    return -1;
  }

  /** 40 map outputs of distinct words through an identity partial reducer. */
  private SyntheticShuffle identityPartialReduce(boolean adaptive) throws Throwable {
    JobConf conf = paperConf(40);
    conf.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, IdentityReducer.class, Reducer.class);
    conf.setBoolean(MarcoConfig.ADAPTIVE_ENABLED, adaptive);
    return shuffleAndCheckSums(conf, 40, 50, 1_000_000);
  }

  @Test
  public void adaptiveControlStopsPartialReduceThatDoesNotReduce() throws Throwable {
    SyntheticShuffle s = identityPartialReduce(true);
    assertEquals(1, s.counter(MarcoCounter.ADAPTIVE_DISABLES));
    assertEquals(List.of(true, true, false, false, false), invocationReduceFlags(s));
  }

  @Test
  public void adaptiveControlOffKeepsReducing() throws Throwable {
    SyntheticShuffle s = identityPartialReduce(false);
    assertEquals(0, s.counter(MarcoCounter.ADAPTIVE_DISABLES));
    assertEquals(List.of(true, true, true, true, true), invocationReduceFlags(s));
  }

  @Test
  public void largeCompressedEncryptedMapOutputsTakeTheDiskPath() throws Throwable {
    // The spill key lives in a throwaway user's credentials: the current user's are shared by
    // every test in this JVM, and a stray key would break later encrypted jobs.
    Credentials credentials = new Credentials();
    TokenCache.setEncryptedSpillKey(new byte[16], credentials);
    UserGroupInformation user = UserGroupInformation.createRemoteUser("marco-encrypted-test");
    user.addCredentials(credentials);
    user.doAs(
        (PrivilegedExceptionAction<Void>)
            () -> {
              try {
                encryptedDiskPath();
              } catch (Exception | Error e) {
                throw e;
              } catch (Throwable t) {
                throw new IOException(t);
              }
              return null;
            });
  }

  private void encryptedDiskPath() throws Throwable {
    JobConf conf = paperConf(12);
    conf.setLong("mapreduce.reduce.memory.totalbytes", 200_000);
    conf.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, SumReducer.class, Reducer.class);
    conf.setBoolean(MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA, true);
    CompressionCodec codec = ReflectionUtils.newInstance(DefaultCodec.class, conf);
    SyntheticShuffle s = shuffle(conf, codec);
    Map<String, Long> expected = new TreeMap<>();
    for (int i = 0; i < 12; i++) {
      // ~60 KB raw per map output: above the single-shuffle limit of 0.25 * 0.70 * 200 KB.
      List<String> words = wordsOfMap(i, 4000, 500);
      words.forEach(w -> expected.merge(w, 1L, Long::sum));
      assertEquals("DISK", s.fetch(i, words));
      s.awaitIdle();
    }
    assertSums(expected, s.finish());
    assertEquals(2, s.counter(MarcoCounter.INVOCATIONS));
  }

  @Test
  public void fetchesWaitAboveTheMemoryLimitUntilASpillFreesMemory() throws Throwable {
    JobConf conf = paperConf(30);
    conf.setBoolean(MarcoConfig.FETCH_TO_DISK_WHEN_FULL, false);
    conf.setLong("mapreduce.reduce.memory.totalbytes", 400_000);
    conf.setInt(MarcoConfig.START_THRESHOLD_INITIAL, 1000);
    conf.setInt(MarcoConfig.START_THRESHOLD, 1000);
    SyntheticShuffle s = shuffle(conf);
    Map<String, Long> expected = new TreeMap<>();
    int i = 0;
    while (i < 30) {
      List<String> words = wordsOfMap(i, 1500, 300);
      String where = s.fetch(i, words);
      if ("WAIT".equals(where)) {
        s.manager.waitForResource();
        s.awaitIdle();
        continue;
      }
      assertEquals("MEMORY", where);
      words.forEach(w -> expected.merge(w, 1L, Long::sum));
      i++;
    }
    assertSums(expected, s.finish());
    assertTrue(
        "memory spills happened",
        s.manager.timelineEvents().stream().anyMatch(e -> e.contains("\"event\":\"spill-end\"")));
    assertEquals(
        "no partial invocation with an unreachable threshold",
        0,
        s.counter(MarcoCounter.INVOCATIONS));
  }

  private static org.apache.hadoop.mapreduce.TaskAttemptID mapAttempt(int map) {
    return new org.apache.hadoop.mapreduce.TaskAttemptID(
        "1", 1, org.apache.hadoop.mapreduce.TaskType.MAP, map, 0);
  }

  /**
   * A shuffle with a memory limit of 70,000 bytes (single-shuffle limit 17,500) and five
   * 17,000-byte reservations in flight: the fifth passed the limit, as one may.
   */
  private SyntheticShuffle fullShuffle(JobConf conf, List<MapOutput<Text, LongWritable>> held)
      throws Throwable {
    conf.setLong("mapreduce.reduce.memory.totalbytes", 100_000);
    SyntheticShuffle s = shuffle(conf);
    for (int i = 0; i < 5; i++) {
      held.add(s.manager.reserve(mapAttempt(i), 17_000, 0));
    }
    assertTrue(held.stream().allMatch(o -> o != null && o.getDescription().equals("MEMORY")));
    return s;
  }

  @Test
  public void reservationPastTheLimitReturnsWait() throws Throwable {
    JobConf conf = paperConf(6);
    conf.setBoolean(MarcoConfig.FETCH_TO_DISK_WHEN_FULL, false);
    List<MapOutput<Text, LongWritable>> held = new ArrayList<>();
    SyntheticShuffle s = fullShuffle(conf, held);
    assertEquals(null, s.manager.reserve(mapAttempt(5), 17_000, 0));
    assertEquals(1, s.counter(MarcoCounter.FETCH_STALLS));
    held.get(0).abort();
    held.get(1).abort();
    assertEquals("MEMORY", s.manager.reserve(mapAttempt(5), 17_000, 0).getDescription());
  }

  @Test
  public void reservationPastTheLimitGoesToDisk() throws Throwable {
    List<MapOutput<Text, LongWritable>> held = new ArrayList<>();
    SyntheticShuffle s = fullShuffle(paperConf(7), held);
    MapOutput<Text, LongWritable> sixth = s.manager.reserve(mapAttempt(5), 17_000, 0);
    assertEquals("DISK", sixth.getDescription());
    assertEquals(1, s.counter(MarcoCounter.FETCHES_TO_DISK));
    assertEquals(0, s.counter(MarcoCounter.FETCH_STALLS));
    sixth.abort();
    held.get(0).abort();
    assertEquals(
        "below the limit again, fetches go to memory",
        "MEMORY",
        s.manager.reserve(mapAttempt(6), 17_000, 0).getDescription());
  }

  /**
   * Maps that emit nothing for a reduce are often the first to finish. Their outputs reach the
   * final merge as they are and count toward no start threshold: the first invocation starts at
   * the fourth output that holds records (arrival 8), over those four, not at arrival 4 over
   * four outputs without a record.
   */
  @Test
  public void mapOutputsWithoutRecordsStartNoInvocationAndGoToTheFinalMerge() throws Throwable {
    JobConf conf = paperConf(10);
    conf.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, SumReducer.class, Reducer.class);
    SyntheticShuffle s = shuffle(conf);
    Map<String, Long> expected = new TreeMap<>();
    for (int i = 0; i < 10; i++) {
      List<String> words = i < 4 ? List.of() : wordsOfMap(i, 10, 5);
      words.forEach(w -> expected.merge(w, 1L, Long::sum));
      s.fetch(i, words);
      s.awaitIdle();
    }
    assertEquals(List.of(8), invocationStartArrivals(s));
    assertSums(expected, s.finish());
    assertEquals(4, s.counter(MarcoCounter.PARTIAL_INPUT_MAP_OUTPUTS));
    assertEquals(40, s.counter(MarcoCounter.PARTIAL_INPUT_RECORDS));
    assertTrue(
        "the four empty outputs, the partial run and the last two outputs reach the final merge",
        s.manager.timelineEvents().stream()
            .anyMatch(e -> e.contains("\"event\":\"final-merge-start\",\"runs\":7,")));
  }

  @Test
  public void timelineIsWrittenToTheConfiguredDirectory() throws Throwable {
    JobConf conf = paperConf(8);
    File dir = new File(localDir.dir(), "timelines");
    conf.set(MarcoConfig.TIMELINE_DIR, dir.toURI().toString());
    SyntheticShuffle s = shuffle(conf);
    fetchAll(s, 8, 10, 5);
    s.finish();
    s.manager.awaitTimelineCopy(60_000);
    List<String> lines = Files.readAllLines(timelineFile(dir, s).toPath());
    assertEquals(8, lines.stream().filter(l -> l.contains("\"event\":\"arrival\"")).count());
    for (String event :
        new String[] {
          "invocation-start",
          "invocation-end",
          "stop-point",
          "shuffle-end",
          "final-merge-start",
          "final-merge-end"
        }) {
      assertTrue(event, lines.stream().anyMatch(l -> l.contains("\"event\":\"" + event + "\"")));
    }
  }

  private static File timelineFile(File dir, SyntheticShuffle s) {
    return new File(new File(dir, s.reduceId.getJobID().toString()), s.reduceId + ".jsonl");
  }

  /**
   * The local file system under the scheme {@code blocking:}, whose output streams have written
   * what they were given but hold their close until the test releases it.
   */
  public static class BlockingFileSystem extends RawLocalFileSystem {
    static volatile CountDownLatch release = new CountDownLatch(0);

    @Override
    public URI getUri() {
      return URI.create("blocking:///");
    }

    @Override
    public String getScheme() {
      return "blocking";
    }

    @Override
    public FSDataOutputStream create(
        Path f,
        boolean overwrite,
        int bufferSize,
        short replication,
        long blockSize,
        Progressable progress)
        throws IOException {
      FSDataOutputStream file =
          super.create(f, overwrite, bufferSize, replication, blockSize, progress);
      return new FSDataOutputStream(
          new FilterOutputStream(file) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
              file.write(b, off, len);
              file.hflush();
            }

            @Override
            public void close() throws IOException {
              try {
                assertTrue("released", release.await(60, TimeUnit.SECONDS));
              } catch (InterruptedException e) {
                throw new InterruptedIOException("close of " + f + " interrupted");
              }
              file.close();
            }
          },
          null);
    }
  }

  @Test
  public void theTimelineCopyRunsBesideTheReducerAndTheTaskWaitsForItAfter() throws Throwable {
    JobConf conf = paperConf(8);
    File dir = new File(localDir.dir(), "timelines");
    conf.set("fs.blocking.impl", BlockingFileSystem.class.getName());
    conf.setBoolean("fs.blocking.impl.disable.cache", true);
    conf.set(MarcoConfig.TIMELINE_DIR, "blocking://" + dir.getAbsolutePath());
    BlockingFileSystem.release = new CountDownLatch(1);
    SyntheticShuffle s = shuffle(conf);
    Map<String, Long> expected = fetchAll(s, 8, 10, 5);
    // The reducer gets its input while the copy is still held.
    assertSums(expected, s.finish());
    File file = timelineFile(dir, s);
    File copying = new File(file.getPath() + MarcoTimeline.COPYING_SUFFIX);
    // The wait is bounded: a copy that hangs does not hold the task.
    s.manager.awaitTimelineCopy(50);
    // What is written so far is under the name of a copy in progress, never under the final one.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (copying.length() == 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertTrue("the copy wrote nothing in 60 s", copying.length() > 0);
    assertFalse(file.exists());
    // The copy keeps the JVM alive: where the reducer throws, nothing waits for it but the JVM.
    assertTrue(
        Thread.getAllStackTraces().keySet().stream()
            .anyMatch(t -> t.getName().equals("MaRCO timeline copy") && !t.isDaemon()));
    BlockingFileSystem.release.countDown();
    s.manager.awaitTimelineCopy(60_000);
    assertFalse(copying.exists());
    List<String> lines = Files.readAllLines(file.toPath());
    assertTrue(lines.get(lines.size() - 1).contains("\"event\":\"final-merge-end\""));
  }

  /**
   * Fetches all 8 map outputs while invocation 1 (started at arrival 4 by {@code reducer}) is
   * held, and closes the shuffle. With a {@code releaseAfter} event the invocation goes on once
   * the timeline has it, after shuffle end; without (null), the final merge must complete while
   * it is still held, and it is let go only then.
   */
  private SyntheticShuffle heldInvocationAtShuffleEnd(
      JobConf conf, Class<? extends Reducer> reducer, String releaseAfter) throws Throwable {
    conf.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, reducer, Reducer.class);
    HeldSumReducer.started = new CountDownLatch(1);
    HeldSumReducer.release = new CountDownLatch(1);
    SyntheticShuffle s = shuffle(conf);
    Map<String, Long> expected = new TreeMap<>();
    for (int i = 0; i < 8; i++) {
      List<String> words = wordsOfMap(i, 100, 20);
      words.forEach(w -> expected.merge(w, 1L, Long::sum));
      s.fetch(i, words);
    }
    assertTrue(HeldSumReducer.started.await(60, TimeUnit.SECONDS));
    ExecutorService closer = Executors.newSingleThreadExecutor();
    try {
      Future<Map<String, List<Long>>> input = s.finishOn(closer);
      awaitEvent(s, "shuffle-end");
      if (releaseAfter != null) {
        awaitEvent(s, releaseAfter);
        heldAtRelease = MarcoCpuShareThreadFactory.niceOf(HeldSumReducer.tid);
        HeldSumReducer.release.countDown();
      }
      assertSums(expected, input.get(60, TimeUnit.SECONDS));
    } finally {
      HeldSumReducer.release.countDown();
      closer.shutdownNow();
    }
    // A detached invocation removes what it wrote on its own, once it sees it is abandoned.
    File output = new File(localDir.dir(), "output");
    long deadline = System.currentTimeMillis() + 60_000;
    File[] leftovers;
    do {
      Thread.sleep(10);
      leftovers = output.listFiles((d, n) -> n.contains("partial"));
    } while (leftovers != null && leftovers.length > 0 && System.currentTimeMillis() < deadline);
    assertEquals("no partial run file is left", 0, leftovers == null ? 0 : leftovers.length);
    return s;
  }

  private static void awaitEvent(SyntheticShuffle s, String event) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 60_000;
    while (indexOf(s.manager.timelineEvents(), event) < 0) {
      assertTrue("no " + event + " in the timeline", System.currentTimeMillis() < deadline);
      Thread.sleep(10);
    }
  }

  /**
   * The held invocation was abandoned between shuffle end and the final merge, not committed, and
   * the final merge did not wait for it: it completed while the invocation was still held.
   */
  private void assertAbandoned(Class<? extends Reducer> reducer) throws Throwable {
    JobConf conf = paperConf(8);
    conf.setBoolean(MarcoConfig.ABANDON_AT_SHUFFLE_END, true);
    SyntheticShuffle s = heldInvocationAtShuffleEnd(conf, reducer, null);
    assertEquals(1, s.counter(MarcoCounter.ABANDONED_INVOCATIONS));
    assertEquals(0, s.counter(MarcoCounter.INVOCATIONS));
    assertEquals(0, s.counter(MarcoCounter.FAILED_INVOCATIONS));
    List<String> events = s.manager.timelineEvents();
    assertTrue(indexOf(events, "shuffle-end") < indexOf(events, "invocation-abandoned"));
    assertTrue(indexOf(events, "invocation-abandoned") < indexOf(events, "final-merge-start"));
    assertEquals("nothing of it reaches the timeline after", -1, indexOf(events, "invocation-end"));
  }

  @Test
  public void invocationRunningAtShuffleEndIsAbandoned() throws Throwable {
    assertAbandoned(HeldSumReducer.class);
  }

  @Test
  public void abandonedInvocationWhoseReducerSwallowsTheStopLosesNoRecord() throws Throwable {
    assertAbandoned(SwallowingHeldSumReducer.class);
  }

  @Test
  public void abandonedInvocationWhoseReducerRethrowsTheStopIsAbandonedNotFailed()
      throws Throwable {
    assertAbandoned(RethrowingHeldSumReducer.class);
  }

  /** The nice value of the held partial thread when it was let go. */
  private int heldAtRelease;

  /**
   * The final merge waits for the invocation, whose thread ran at nice 19 while the shuffle went
   * on and is back at the container's priority (the nice value this JVM's threads have) before
   * it goes on: at shuffle end it is on the critical path. Raising a nice value needs root
   * (CAP_SYS_NICE).
   */
  @Test
  public void withoutAbandonmentTheRunningInvocationFinishesAtTheContainersPriority()
      throws Throwable {
    assumeTrue(
        "root, and Linux /proc",
        "root".equals(System.getProperty("user.name")) && new File("/proc/thread-self").exists());
    JobConf conf = paperConf(8);
    conf.setBoolean(MarcoConfig.ABANDON_AT_SHUFFLE_END, false);
    SyntheticShuffle s =
        heldInvocationAtShuffleEnd(conf, HeldAtEndSumReducer.class, "partial-threads-raised");
    assertEquals(0, s.counter(MarcoCounter.ABANDONED_INVOCATIONS));
    assertEquals(1, s.counter(MarcoCounter.INVOCATIONS));
    assertEquals(19, HeldSumReducer.niceAtStart);
    assertEquals(
        MarcoCpuShareThreadFactory.niceOf(MarcoCpuShareThreadFactory.currentThreadTid()),
        heldAtRelease);
    List<String> events = s.manager.timelineEvents();
    assertTrue(indexOf(events, "partial-threads-raised") < indexOf(events, "invocation-end"));
  }

  /**
   * Never slower for waiting: without abandonment asked for, the final merge still does not wait
   * for an invocation not worth it; it is abandoned at shuffle end, and the final merge completes
   * while it is held.
   */
  private void assertNotWaitedFor(Class<? extends Reducer> reducer) throws Throwable {
    JobConf conf = paperConf(8);
    conf.setBoolean(MarcoConfig.ABANDON_AT_SHUFFLE_END, false);
    SyntheticShuffle s = heldInvocationAtShuffleEnd(conf, reducer, null);
    assertEquals(1, s.counter(MarcoCounter.ABANDONED_INVOCATIONS));
    assertEquals(0, s.counter(MarcoCounter.INVOCATIONS));
    List<String> events = s.manager.timelineEvents();
    assertTrue(indexOf(events, "invocation-abandoned") < indexOf(events, "final-merge-start"));
  }

  @Test
  public void theFinalMergeDoesNotWaitForAnInvocationThatHasReadNothingYet() throws Throwable {
    assertNotWaitedFor(HeldSumReducer.class);
  }

  @Test
  public void theFinalMergeDoesNotWaitForAnInvocationThatKeepsAllItReads() throws Throwable {
    assertNotWaitedFor(HeldMidwayIdentityReducer.class);
  }

  /** With finish.all.at.shuffle.end, the paper's rule: even an invocation not worth it finishes. */
  @Test
  public void finishAllWaitsEvenForAnInvocationThatHasReadNothingYet() throws Throwable {
    JobConf conf = paperConf(8);
    conf.setBoolean(MarcoConfig.FINISH_ALL_AT_SHUFFLE_END, true);
    SyntheticShuffle s = heldInvocationAtShuffleEnd(conf, HeldSumReducer.class, "shuffle-end");
    assertEquals(0, s.counter(MarcoCounter.ABANDONED_INVOCATIONS));
    assertEquals(1, s.counter(MarcoCounter.INVOCATIONS));
  }
}
