/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.differential;

import static org.apache.hadoop.mapreduce.marco.testing.DifferentialRun.MARCO;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.apache.hadoop.mapreduce.marco.MarcoJob;
import org.apache.hadoop.mapreduce.marco.testing.DifferentialResult;
import org.apache.hadoop.mapreduce.marco.testing.DifferentialRun;
import org.apache.hadoop.mapreduce.marco.testing.InputFiles;
import org.apache.hadoop.mapreduce.marco.testing.JobFactory;
import org.apache.hadoop.mapreduce.marco.testing.MiniMrClusterResource;
import org.apache.hadoop.mapreduce.marco.testing.SlowTest;
import org.apache.hadoop.mapreduce.task.reduce.ReverseOrderPartialReducer;
import org.apache.hadoop.util.NativeCodeLoader;
import org.apache.hadoop.util.VersionInfo;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The same jobs through Hadoop's stock Shuffle and through MaRCO on a real YARN mini cluster
 * (HTTP shuffle between two NodeManagers); every output must be byte-equal to the stock one
 * and to the output computed without MapReduce, and MaRCO's counters must show that partial
 * invocations really ran. Each test combines several aspects, because every mini-cluster job
 * costs one JVM per task on a small machine.
 */
@Category(SlowTest.class)
public class TestEdgeCasesMiniClusterDifferential {
  @ClassRule
  public static final MiniMrClusterResource CLUSTER =
      new MiniMrClusterResource("marco-differential");

  /**
   * New API with combiner and partial reducer; 12 maps, so the default thresholds (4, 4, then
   * 8; stop at 0.9) start invocations in every reduce; 2 reducers; skewed keys; DefaultCodec
   * map output.
   */
  @Test
  public void newApiCombinerAndPartialReducerOverManyMapsSkewedCompressed() throws Exception {
    int reducers = 2;
    List<List<String>> input = SkewedWords.generate(12, 3000, List.of(), 1);
    DifferentialRun run =
        differential(
                "new-api-sum",
                (conf, in, out) -> {
                  compressMapOutput(conf, DefaultCodec.class);
                  return WordSum.create(conf, in, out, reducers, true, true);
                })
            .variant(
                TestEdgeCasesLocalDifferential.ABANDON,
                TestEdgeCasesLocalDifferential.ABANDON_WITH_SLOW_PARTIAL_REDUCER);
    InputFiles.write(CLUSTER.fileSystem(), run.input(), input);

    DifferentialResult result = run.run();

    assertEquals(SkewedWords.expectedCounts(input, reducers), result.output().text());
    result.assertPartialWorkInEveryReduce(MARCO, true);
    assertTrue(
        "no invocation was abandoned at shuffle end",
        result.marco(TestEdgeCasesLocalDifferential.ABANDON, MarcoCounter.ABANDONED_INVOCATIONS)
            > 0);
  }

  /** A partial reducer that emits its keys in reverse order, on real YARN containers. */
  @Test
  public void partialReducerBreakingTheContractLeavesTheOutputRight() throws Exception {
    int reducers = 2;
    List<List<String>> input = SkewedWords.generate(12, 3000, List.of(), 8);
    DifferentialRun run =
        differential(
            "reverse-order",
            (conf, in, out) -> {
              lowThresholds(conf);
              Job job = WordSum.create(conf, in, out, reducers, true, false);
              MarcoJob.setPartialReducerClass(job, ReverseOrderPartialReducer.class);
              return job;
            });
    InputFiles.write(CLUSTER.fileSystem(), run.input(), input);

    DifferentialResult result = run.run();

    assertEquals(SkewedWords.expectedCounts(input, reducers), result.output().text());
    assertEquals(
        "each reduce's first attempt caught its partial reducer once",
        firstAttempts(result, MARCO, reducers),
        result.marco(MARCO, MarcoCounter.CONTRACT_VIOLATIONS));
  }

  /**
   * Old API with an old-API partial reducer and no combiner; Gzip map output ({@link
   * #onDiskCodec}); a 1 MB shuffle
   * memory budget so map outputs (about 160 KB per reducer each) exceed the single-shuffle
   * limit and go to disk, with io.sort.factor 3 forcing on-disk merges; two empty input files
   * (zero-record map outputs, which often arrive first and go straight to the final merge);
   * thresholds 2, so the four outputs with records start invocations in every reduce before the
   * last arrival. Variants: partial reduce off (partial sort only) and the first invocation of
   * every reduce failing.
   */
  @Test
  public void oldApiPartialReducerCompressedOnDiskWithEmptyMapOutputs() throws Exception {
    int reducers = 2;
    List<List<String>> input = SkewedWords.generate(6, 20_000, List.of(1, 4), 2);
    Path timelines = CLUSTER.testDir("old-api-sum-on-disk-timelines");
    DifferentialRun run =
        differential(
                "old-api-sum-on-disk",
                (conf, in, out) -> {
                  compressMapOutput(conf, onDiskCodec());
                  conf.set(MarcoConfig.TIMELINE_DIR, timelines.toString());
                  conf.setLong(MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, 1 << 20);
                  conf.setFloat(MRJobConfig.SHUFFLE_INPUT_BUFFER_PERCENT, 0.5f);
                  conf.setInt(MRJobConfig.IO_SORT_FACTOR, 3);
                  lowThresholds(conf);
                  return OldApiWordSum.create(conf, in, out, reducers, false, true);
                })
            .variant(
                "no-partial-reduce",
                conf -> conf.setBoolean(MarcoConfig.PARTIAL_REDUCE_ENABLED, false))
            .variant(
                "fail-first-invocation", conf -> conf.setInt(MarcoConfig.TEST_FAIL_INVOCATION, 1));
    InputFiles.write(CLUSTER.fileSystem(), run.input(), input);

    DifferentialResult result = run.run();

    assertEquals(SkewedWords.expectedCounts(input, reducers), result.output().text());
    result.assertPartialWorkInEveryReduce(MARCO, true);
    result.assertPartialWorkInEveryReduce("no-partial-reduce", false);
    assertEquals(
        "partial sort only must keep every record",
        result.marco("no-partial-reduce", MarcoCounter.PARTIAL_INPUT_RECORDS),
        result.marco("no-partial-reduce", MarcoCounter.PARTIAL_OUTPUT_RECORDS));
    assertEquals(
        "one failed invocation per reduce's first attempt",
        firstAttempts(result, "fail-first-invocation", reducers),
        result.marco("fail-first-invocation", MarcoCounter.FAILED_INVOCATIONS));
    String timelineText = timelineText(timelines);
    assertTrue(
        "no map output took the on-disk path: the memory budget did not force it",
        timelineText.contains("\"where\":\"disk\""));
    // Each reduce of the three MaRCO runs learnt from the map-completion events that every map
    // had completed (before its last map output arrived, whose event comes first).
    assertEquals(
        "reduces that saw the maps complete",
        3 * reducers,
        timelineText.split("\"event\":\"maps-complete\"", -1).length - 1);
  }

  /**
   * No out-of-memory that stock would not have, at the default heap limit. One word, so one group
   * holds every record, and a partial reducer that keeps about 4 KB per value of its group before
   * summing, next to shuffle buffers of 30% of a 64 MB reduce heap; the final reducer streams.
   * Stock never runs the partial reducer and succeeds. MaRCO must succeed on each reduce's first
   * attempt, not through a retry without partial work, with partial work backing off: before the
   * heap runs out, or, where the guard's reading trails the partial reducer's copies by a young
   * generation, once it has. TestMarcoHeapGuard shows the guard's signal itself on this JVM's
   * collections.
   */
  @Test
  public void heavyPartialReducerBacksOffInsteadOfRunningTheReduceOutOfMemory() throws Exception {
    List<List<String>> input = new ArrayList<>();
    String line = String.join(" ", Collections.nCopies(10, "a"));
    for (int map = 0; map < 12; map++) {
      input.add(Collections.nCopies(40_000, line));
    }
    DifferentialRun run =
        differential(
            "heap-guard",
            (conf, in, out) -> {
              conf.set(
                  MRJobConfig.REDUCE_JAVA_OPTS,
                  conf.get(MRJobConfig.REDUCE_JAVA_OPTS) + " -Xmx64m");
              conf.setFloat(MRJobConfig.SHUFFLE_INPUT_BUFFER_PERCENT, 0.3f);
              // The reduce's first attempt must be the one that finishes, in both runs: no
              // speculative copy (the partial reducer makes the reduce look slow), and no
              // preemption for maps of this job that lack room while the other run's tasks hold
              // the cluster (they wait for it instead).
              conf.setBoolean(MRJobConfig.REDUCE_SPECULATIVE, false);
              conf.setInt(MRJobConfig.MR_JOB_REDUCER_PREEMPT_DELAY_SEC, 600);
              Job job = WordSum.create(conf, in, out, 1, false, false);
              MarcoJob.setPartialReducerClass(job, CopyingSumPartialReducer.class);
              return job;
            });
    InputFiles.write(CLUSTER.fileSystem(), run.input(), input);

    DifferentialResult result = run.run();

    assertEquals("a\t" + 12 * 40_000 * 10 + "\n", result.output().text());
    assertEquals("stock lost no reduce attempt", 0, failedReduces(result.stockCounters()));
    assertEquals(
        "with the guard a MaRCO reduce attempt failed", 0, failedReduces(result.counters(MARCO)));
    assertEquals(
        "a MaRCO reduce succeeded only in a retry without partial work (attempts killed: "
            + result.counters(MARCO).findCounter(JobCounter.NUM_KILLED_REDUCES).getValue()
            + ")",
        0,
        result.marco(MARCO, MarcoCounter.RETRIES_WITHOUT_PARTIAL_WORK));
    assertTrue(
        "partial work never backed off ("
            + result.marco(MARCO, MarcoCounter.INVOCATIONS)
            + " invocations committed)",
        result.marco(MARCO, MarcoCounter.HEAP_BACKOFFS) > 0);
  }

  /**
   * The reduces of a variant whose first attempt finished: only those run partial work, as a retry
   * (after the AppMaster preempted an early reduce for a map, say) shuffles as stock does. At least
   * one, or the variant tested nothing.
   */
  private static long firstAttempts(DifferentialResult result, String variant, int reducers) {
    long retries = result.marco(variant, MarcoCounter.RETRIES_WITHOUT_PARTIAL_WORK);
    assertTrue(variant + ": every reduce finished in a retry", retries < reducers);
    return reducers - retries;
  }

  private static long failedReduces(Counters counters) {
    return counters.findCounter(JobCounter.NUM_FAILED_REDUCES).getValue();
  }

  /** Every reduce's MaRCO timeline under dir ({@code <job id>/<attempt id>.jsonl}), concatenated. */
  private static String timelineText(Path dir) throws IOException {
    FileSystem fs = CLUSTER.fileSystem();
    StringBuilder text = new StringBuilder();
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(dir, true);
    while (files.hasNext()) {
      try (FSDataInputStream in = fs.open(files.next().getPath())) {
        text.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    }
    return text.toString();
  }

  /**
   * Old-API secondary sort (custom sort comparator, grouping comparator and partitioner) with
   * encrypted intermediate data, no partial reducer (so MaRCO does partial sort only),
   * 2 reducers, thresholds 2.
   */
  @Test
  public void oldApiSecondarySortEncryptedPartialSortOnly() throws Exception {
    int reducers = 2;
    List<List<String>> input = GroupedNumbers.generate(6, 2000, 12, 3);
    DifferentialRun run =
        differential(
            "old-api-secondary-sort",
            (conf, in, out) -> {
              conf.setBoolean(MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA, true);
              lowThresholds(conf);
              return OldApiSecondarySort.create(conf, in, out, reducers);
            });
    InputFiles.write(CLUSTER.fileSystem(), run.input(), input);

    DifferentialResult result = run.run();

    assertEquals(GroupedNumbers.expected(input, reducers), result.output().text());
    result.assertPartialWorkInEveryReduce(MARCO, false);
    assertEquals(
        result.marco(MARCO, MarcoCounter.PARTIAL_INPUT_RECORDS),
        result.marco(MARCO, MarcoCounter.PARTIAL_OUTPUT_RECORDS));
  }

  /**
   * New API without combiner or partial reducer; 4 reducers but 2 keys, so at least 2 reduces
   * see only empty partitions (and every map writes zero-record outputs for them). MaRCO with
   * the default thresholds (4 maps: no invocation before the stop fraction) and with control
   * off (threshold 1, stop fraction 1.0: an invocation per arrival).
   */
  @Test
  public void newApiEmptyPartitionsWithAndWithoutControl() throws Exception {
    int reducers = 4;
    List<String> keys = List.of("alpha", "beta");
    List<List<String>> input = KeyedValues.generate(4, 3000, keys, 4);
    DifferentialRun run =
        differential(
                "new-api-empty-partitions",
                (conf, in, out) -> SortedValues.create(conf, in, out, reducers))
            .variant("no-control", conf -> conf.setBoolean(MarcoConfig.CONTROL_ENABLED, false));
    InputFiles.write(CLUSTER.fileSystem(), run.input(), input);

    DifferentialResult result = run.run();

    assertEquals(KeyedValues.expected(input, reducers), result.output().text());
    // Over the job, not per reduce: at least two of the four reduces get no record at all.
    assertTrue(
        "MaRCO-no-control ran no invocation",
        result.marco("no-control", MarcoCounter.INVOCATIONS) > 0);
  }

  private static DifferentialRun differential(String test, JobFactory factory) throws Exception {
    return new DifferentialRun(
        CLUSTER::newJobConf, CLUSTER.fileSystem(), CLUSTER.testDir(test), factory);
  }

  /**
   * Gzip, except on Hadoop 3.3 without the native library: its Gzip has no pure-Java compressor,
   * so empty map outputs fail their fetches there under Hadoop's own shuffle as under MaRCO.
   * DefaultCodec (zlib, pure Java) keeps the test's compressed on-disk path on that version.
   */
  private static Class<? extends CompressionCodec> onDiskCodec() {
    return VersionInfo.getVersion().startsWith("3.3.") && !NativeCodeLoader.isNativeCodeLoaded()
        ? DefaultCodec.class
        : GzipCodec.class;
  }

  static void compressMapOutput(Configuration conf, Class<? extends CompressionCodec> codec) {
    conf.setBoolean(MRJobConfig.MAP_OUTPUT_COMPRESS, true);
    conf.setClass(MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC, codec, CompressionCodec.class);
  }

  /** Start thresholds of 2 throughout: several invocations with few (slow) map tasks. */
  static void lowThresholds(Configuration conf) {
    conf.setInt(MarcoConfig.START_THRESHOLD_INITIAL, 2);
    conf.setInt(MarcoConfig.START_THRESHOLD, 2);
  }
}
