/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MROutputFiles;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.apache.hadoop.mapreduce.marco.MarcoSettings;
import org.apache.hadoop.mapreduce.marco.PartialReducerSpec;
import org.apache.hadoop.util.Progress;

/**
 * Drives a {@link MarcoMergeManager} the way Hadoop's fetchers do (reserve, shuffle the IFile
 * bytes of a map output, commit), with map outputs of (Text word, LongWritable count) built in
 * the test, and reads the final merge back.
 */
final class SyntheticShuffle {
  final JobConf conf;
  final Counters counters = new Counters();
  final Reporter reporter;
  TaskAttemptID reduceId = new TaskAttemptID("1", 1, TaskType.REDUCE, 0, 0);
  private final CompressionCodec codec;
  private final ShuffleClientMetrics metrics;
  private final List<Throwable> reported = new ArrayList<>();
  MarcoMergeManager<Text, LongWritable> manager;

  SyntheticShuffle(JobConf conf, File localDir, CompressionCodec codec) {
    this.conf = conf;
    this.codec = codec;
    conf.set(MRConfig.LOCAL_DIR, localDir.getAbsolutePath());
    conf.setMapOutputKeyClass(Text.class);
    conf.setMapOutputValueClass(LongWritable.class);
    this.reporter = new CountingReporter(counters);
    this.metrics = ShuffleClientMetrics.create(reduceId, conf);
  }

  static JobConf baseConf(int maps) {
    JobConf conf = new JobConf(false);
    conf.setNumMapTasks(maps);
    conf.setLong("mapreduce.reduce.memory.totalbytes", 64L << 20);
    // Synthetic map outputs arrive back to back, so the finish forecast (on by default) would
    // find every invocation after the first late; the tests of the forecast turn it on.
    conf.setBoolean(MarcoConfig.START_ONLY_WITHIN_SHUFFLE, false);
    return conf;
  }

  /** Makes the shuffle that of attempt {@code attempt} of its reduce task (call before start). */
  SyntheticShuffle attempt(int attempt) {
    reduceId = new TaskAttemptID("1", 1, TaskType.REDUCE, 0, attempt);
    return this;
  }

  MarcoMergeManager<Text, LongWritable> start() throws IOException {
    MROutputFiles files = new MROutputFiles();
    files.setConf(conf);
    MarcoSettings settings = MarcoSettings.from(conf);
    manager =
        new MarcoMergeManager<>(
            reduceId,
            conf,
            FileSystem.getLocal(conf).getRaw(),
            files,
            codec,
            reporter,
            reported::add,
            settings,
            PartialReducerSpec.resolve(conf, settings),
            conf.getCombinerClass(),
            counters.findCounter(TaskCounter.SPILLED_RECORDS),
            counters.findCounter(TaskCounter.MERGED_MAP_OUTPUTS),
            new Progress());
    return manager;
  }

  /** {@code count} words drawn from w0..w(distinct-1) with a generator seeded by {@code seed}. */
  static List<String> randomWords(int seed, int count, int distinct) {
    List<String> words = new ArrayList<>();
    Random r = new Random(seed);
    for (int j = 0; j < count; j++) {
      words.add("w" + r.nextInt(distinct));
    }
    return words;
  }

  /** A map output holding {@code words} (sorted here, as a map's spill is) with count 1 each. */
  byte[][] mapOutput(List<String> words) throws IOException {
    List<String> sorted = new ArrayList<>(words);
    sorted.sort((a, b) -> new Text(a).compareTo(new Text(b)));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    IFile.Writer<Text, LongWritable> writer =
        new IFile.Writer<>(
            conf, new FSDataOutputStream(bytes, null), Text.class, LongWritable.class, codec, null);
    for (String w : sorted) {
      writer.append(new Text(w), new LongWritable(1));
    }
    writer.close();
    return new byte[][] {bytes.toByteArray(), longBytes(writer.getRawLength())};
  }

  private static byte[] longBytes(long v) {
    return Long.toString(v).getBytes();
  }

  /** The size the manager reserves for a map output holding {@code words}. */
  long rawLength(List<String> words) throws IOException {
    return Long.parseLong(new String(mapOutput(words)[1]));
  }

  /** Fetches one map output as a fetcher would; returns its description (MEMORY or DISK). */
  String fetch(int mapIndex, List<String> words) throws IOException {
    MapOutput<Text, LongWritable> out = reserveAndShuffle(mapIndex, words);
    if (out == null) {
      return "WAIT";
    }
    out.commit();
    return out.getDescription();
  }

  /**
   * Reserves and shuffles one map output without committing it (a fetch in flight), or returns
   * null when the manager says WAIT.
   */
  MapOutput<Text, LongWritable> reserveAndShuffle(int mapIndex, List<String> words)
      throws IOException {
    return reserveAndShuffle(mapIndex, 0, words);
  }

  /** As above, for attempt {@code attempt} of the map (a re-executed map's output). */
  MapOutput<Text, LongWritable> reserveAndShuffle(int mapIndex, int attempt, List<String> words)
      throws IOException {
    byte[][] output = mapOutput(words);
    long raw = Long.parseLong(new String(output[1]));
    TaskAttemptID mapId = new TaskAttemptID("1", 1, TaskType.MAP, mapIndex, attempt);
    MapOutput<Text, LongWritable> out = manager.reserve(mapId, raw, 0);
    if (out != null) {
      out.shuffle(
          new MapHost("host", "http://host/"),
          new ByteArrayInputStream(output[0]),
          output[0].length,
          raw,
          metrics,
          reporter);
    }
    return out;
  }

  /** Blocks until no invocation or spill is running. */
  void awaitIdle() throws IOException, InterruptedException {
    manager.awaitIdle();
  }

  /**
   * {@link #finish} on {@code executor}, as a reduce closes its shuffle while a partial
   * invocation may still run; its Throwables come back as the Future's cause.
   */
  Future<Map<String, List<Long>>> finishOn(ExecutorService executor) {
    return executor.submit(
        () -> {
          try {
            return finish();
          } catch (Exception | Error e) {
            throw e;
          } catch (Throwable t) {
            throw new IOException(t);
          }
        });
  }

  /** Closes the shuffle and reads the reducer's input back as word -> list of counts. */
  Map<String, List<Long>> finish() throws Throwable {
    RawKeyValueIterator it = manager.close();
    Map<String, List<Long>> result = new TreeMap<>((a, b) -> new Text(a).compareTo(new Text(b)));
    Text previous = null;
    DataInputBuffer buf = new DataInputBuffer();
    while (it.next()) {
      DataInputBuffer k = it.getKey();
      buf.reset(k.getData(), k.getPosition(), k.getLength() - k.getPosition());
      Text key = new Text();
      key.readFields(buf);
      if (previous != null && previous.compareTo(key) > 0) {
        throw new AssertionError("reducer input out of order: " + previous + " before " + key);
      }
      previous = key;
      DataInputBuffer v = it.getValue();
      buf.reset(v.getData(), v.getPosition(), v.getLength() - v.getPosition());
      LongWritable value = new LongWritable();
      value.readFields(buf);
      result.computeIfAbsent(key.toString(), x -> new ArrayList<>()).add(value.get());
    }
    it.close();
    if (!reported.isEmpty()) {
      throw reported.get(0);
    }
    return result;
  }

  /** Group {@code group} of every timeline event that {@code event} matches, in order, parsed. */
  <T> List<T> timelineValues(Pattern event, int group, Function<String, T> parse) {
    List<T> values = new ArrayList<>();
    for (String e : manager.timelineEvents()) {
      Matcher m = event.matcher(e);
      if (m.find()) {
        values.add(parse.apply(m.group(group)));
      }
    }
    return values;
  }

  long counter(MarcoCounter c) {
    return counters.findCounter(c).getValue();
  }

  /** A Reporter whose counters are real, so tests can read what the engine counted. */
  static final class CountingReporter implements Reporter {
    private final Counters counters;

    CountingReporter(Counters counters) {
      this.counters = counters;
    }

    @Override
    public void setStatus(String status) {}

    @Override
    public Counters.Counter getCounter(Enum<?> name) {
      return counters.findCounter(name);
    }

    @Override
    public Counters.Counter getCounter(String group, String name) {
      return counters.findCounter(group, name);
    }

    @Override
    public synchronized void incrCounter(Enum<?> key, long amount) {
      counters.incrCounter(key, amount);
    }

    @Override
    public synchronized void incrCounter(String group, String counter, long amount) {
      counters.incrCounter(group, counter, amount);
    }

    @Override
    public org.apache.hadoop.mapred.InputSplit getInputSplit() {
      throw new UnsupportedOperationException("reduce side");
    }

    @Override
    public float getProgress() {
      return 0;
    }

    @Override
    public void progress() {}
  }
}
