/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.junit.Rule;
import org.junit.Test;

/**
 * Partial reducers that break their contract: the engine catches every violation, the output
 * stays what a correct shuffle gives, and partial reduce stops for the attempt.
 */
public class TestMarcoPartialReducerContract {
  private static final int MAPS = 12;
  @Rule public final SyntheticShuffleDir localDir = new SyntheticShuffleDir("marco-contract");

  /** Sums, but emits under a key of its own making. */
  public static class RenamingSumReducer extends Reducer<Text, LongWritable, Text, LongWritable> {
    @Override
    protected void reduce(Text key, Iterable<LongWritable> values, Context context)
        throws IOException, InterruptedException {
      long sum = 0;
      for (LongWritable v : values) {
        sum += v.get();
      }
      context.write(new Text(key + "-total"), new LongWritable(sum));
    }
  }

  /** Reverse order, and it catches what write throws and goes on. */
  public static class SwallowingReverseOrderSumReducer extends ReverseOrderPartialReducer {
    @Override
    public void run(Context context) throws InterruptedException {
      try {
        super.run(context);
      } catch (IOException swallowed) {
        // Returns as if nothing happened.
      }
    }
  }

  /** Old API: remembers the previous group and emits it under the current key. */
  public static class OldApiShiftingReducer extends MapReduceBase
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
      out.collect(new Text("a" + key), new LongWritable(sum));
    }
  }

  /**
   * Sums, then rewrites the key it was handed in place and emits it: a common Hadoop idiom. The
   * appended character sorts below every digit, so the keys it emits still ascend; only the
   * group rule, checked against the bytes the merge gave, can see that they left their group.
   */
  public static class KeyRewritingSumReducer extends TestMarcoMergeManager.SumReducer {
    @Override
    protected void emit(Text key, long sum, Context context)
        throws IOException, InterruptedException {
      key.set(key + "!");
      super.emit(key, sum, context);
    }
  }

  /** The old API's form of {@link KeyRewritingSumReducer}. */
  public static class OldApiKeyRewritingSumReducer extends TestMarcoMergeManager.OldSumReducer {
    @Override
    protected void emit(Text key, long sum, OutputCollector<Text, LongWritable> out)
        throws IOException {
      key.set(key + "!");
      super.emit(key, sum, out);
    }
  }

  /**
   * Correct: emits the group's key through an object of its own, which it then changes (as a
   * reducer that reuses its output key does). What was written is what counts.
   */
  public static class ReusedOutputKeySumReducer extends TestMarcoMergeManager.SumReducer {
    private final Text outKey = new Text();

    @Override
    protected void emit(Text key, long sum, Context context)
        throws IOException, InterruptedException {
      outKey.set(key);
      super.emit(outKey, sum, context);
      outKey.set("~ changed after the write");
    }
  }

  /** Emits in setup, before any group: under no key at all. */
  public static class SetupEmittingReducer extends TestMarcoMergeManager.SumReducer {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      context.write(new Text("w0"), new LongWritable(0));
    }
  }

  private SyntheticShuffle shuffle(Class<?> partialReducer, boolean strict) throws IOException {
    JobConf conf = SyntheticShuffle.baseConf(MAPS);
    conf.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, partialReducer, Object.class);
    conf.setBoolean(MarcoConfig.PARTIAL_CONTRACT_STRICT, strict);
    SyntheticShuffle s = localDir.shuffle(conf, null);
    s.start();
    return s;
  }

  /** Fetches MAPS map outputs of words w0..w19 one by one; returns the expected sums. */
  private static Map<String, Long> fetchAll(SyntheticShuffle s) throws Exception {
    Map<String, Long> expected = new TreeMap<>();
    for (int i = 0; i < MAPS; i++) {
      List<String> words = new ArrayList<>();
      Random r = new Random(i);
      for (int j = 0; j < 100; j++) {
        words.add("w" + r.nextInt(20));
      }
      words.forEach(w -> expected.merge(w, 1L, Long::sum));
      assertFalse("WAIT", "WAIT".equals(s.fetch(i, words)));
      s.awaitIdle();
    }
    return expected;
  }

  /** Runs the shuffle and checks that the final merge gives exactly the expected sums. */
  private static void assertOutputRight(SyntheticShuffle s) throws Throwable {
    Map<String, Long> expected = fetchAll(s);
    // finish() also fails if the reducer's input is out of order.
    Map<String, List<Long>> input = s.finish();
    Map<String, Long> sums = new TreeMap<>();
    input.forEach((k, v) -> sums.put(k, v.stream().mapToLong(Long::longValue).sum()));
    assertEquals(expected, sums);
  }

  /** Runs a shuffle with a partial reducer that breaks its contract: caught, output right. */
  private void assertCaught(Class<?> partialReducer) throws Throwable {
    SyntheticShuffle s = shuffle(partialReducer, false);
    assertOutputRight(s);
    assertCaughtOnceAndPartialReduceStopped(s);
  }

  private static void assertCaughtOnceAndPartialReduceStopped(SyntheticShuffle s) {
    assertEquals(1, s.counter(MarcoCounter.CONTRACT_VIOLATIONS));
    assertEquals("the violating invocation failed", 1, s.counter(MarcoCounter.FAILED_INVOCATIONS));
    assertTrue(
        "partial sort goes on after the violation", s.counter(MarcoCounter.INVOCATIONS) >= 1);
    assertEquals(
        "nothing was partially reduced",
        s.counter(MarcoCounter.PARTIAL_INPUT_RECORDS),
        s.counter(MarcoCounter.PARTIAL_OUTPUT_RECORDS));
    assertTrue(
        "later invocations only sort",
        s.manager.timelineEvents().stream()
            .filter(e -> e.contains("\"event\":\"invocation-start\""))
            .skip(1)
            .allMatch(e -> e.contains("\"reduce\":false")));
  }

  @Test
  public void keysEmittedOutOfOrderAreCaught() throws Throwable {
    assertCaught(ReverseOrderPartialReducer.class);
  }

  @Test
  public void keysEmittedUnderAnotherKeyAreCaught() throws Throwable {
    assertCaught(RenamingSumReducer.class);
  }

  @Test
  public void aViolationTheReducerSwallowsIsCaughtAsWell() throws Throwable {
    assertCaught(SwallowingReverseOrderSumReducer.class);
  }

  @Test
  public void oldApiPartialReducersAreCheckedToo() throws Throwable {
    assertCaught(OldApiShiftingReducer.class);
  }

  @Test
  public void aKeyRewrittenInPlaceIsCaught() throws Throwable {
    assertCaught(KeyRewritingSumReducer.class);
  }

  @Test
  public void aKeyRewrittenInPlaceIsCaughtInTheOldApi() throws Throwable {
    assertCaught(OldApiKeyRewritingSumReducer.class);
  }

  @Test
  public void anOutputKeyChangedAfterItsWriteIsNoViolation() throws Throwable {
    SyntheticShuffle s = shuffle(ReusedOutputKeySumReducer.class, false);
    assertOutputRight(s);
    assertEquals(0, s.counter(MarcoCounter.CONTRACT_VIOLATIONS));
    assertTrue(
        "it reduced",
        s.counter(MarcoCounter.PARTIAL_OUTPUT_RECORDS)
            < s.counter(MarcoCounter.PARTIAL_INPUT_RECORDS));
  }

  @Test
  public void aKeyEmittedBeforeTheFirstGroupIsCaught() throws Throwable {
    assertCaught(SetupEmittingReducer.class);
  }

  @Test
  public void strictContractFailsTheAttempt() throws Throwable {
    SyntheticShuffle s = shuffle(ReverseOrderPartialReducer.class, true);
    try {
      assertOutputRight(s);
      fail("a strict contract must fail the attempt");
    } catch (IOException e) {
      Throwable cause = e instanceof MarcoContractViolationException ? e : e.getCause();
      assertTrue(String.valueOf(cause), cause instanceof MarcoContractViolationException);
      assertTrue(
          cause.getMessage(),
          cause
              .getMessage()
              .contains(ReverseOrderPartialReducer.class.getName() + " broke its contract"));
    }
    assertEquals(0, s.manager.mergesRunning());
  }

  /** Groups words by their first letter, as a combiner grouping comparator may. */
  public static class FirstLetterComparator extends WritableComparator {
    public FirstLetterComparator() {
      super(Text.class, true);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public int compare(WritableComparable a, WritableComparable b) {
      return Character.compare(a.toString().charAt(0), b.toString().charAt(0));
    }
  }

  @Test
  public void eachRuleIsCheckedWithTheJobsComparators() throws IOException {
    JobConf conf = SyntheticShuffle.baseConf(1);
    conf.setMapOutputKeyClass(Text.class);
    conf.setCombinerKeyGroupingComparator(FirstLetterComparator.class);
    MarcoPartialReducerContract<Text> contract =
        new MarcoPartialReducerContract<>(conf, "com.acme.P");
    Text groupKey = new Text("b0");
    contract.startGroup(groupKey);
    groupKey.set("c0"); // what the reducer does with the object afterwards does not count
    contract.check(new Text("b1")); // another key of the same group: allowed
    contract.startGroup(new Text("b9"));
    contract.check(new Text("b1")); // the same key again: allowed
    contract.startGroup(new Text("b2"));
    try {
      contract.check(new Text("b0"));
      fail("a key smaller than the one before");
    } catch (MarcoContractViolationException e) {
      assertEquals(
          "partial reducer com.acme.P broke its contract: "
              + MarcoPartialReducerContract.KEY_ORDER_RULE,
          e.getMessage());
    }
    MarcoPartialReducerContract<Text> other = new MarcoPartialReducerContract<>(conf, "com.acme.P");
    other.startGroup(new Text("b1"));
    try {
      other.check(new Text("c1"));
      fail("a key of another group");
    } catch (MarcoContractViolationException e) {
      assertEquals(
          "partial reducer com.acme.P broke its contract: "
              + MarcoPartialReducerContract.KEY_GROUP_RULE,
          e.getMessage());
    }
    assertTrue("the violation is kept", other.violation() != null);
  }

  @Test
  public void aCorrectPartialReducerPassesTheCheck() throws Throwable {
    SyntheticShuffle s = shuffle(TestMarcoMergeManager.SumReducer.class, false);
    assertOutputRight(s);
    assertEquals(0, s.counter(MarcoCounter.CONTRACT_VIOLATIONS));
    assertTrue(
        s.counter(MarcoCounter.PARTIAL_OUTPUT_RECORDS)
            < s.counter(MarcoCounter.PARTIAL_INPUT_RECORDS));
  }
}
