/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FixedLengthInputFormat;
import org.apache.hadoop.mapreduce.marco.MarcoJob;
import org.apache.hadoop.marco.benchmarks.BenchmarkJob;
import org.apache.hadoop.marco.benchmarks.gen.BinaryModel;
import org.apache.hadoop.marco.benchmarks.io.TallyWritable;
import org.apache.hadoop.util.ToolRunner;

/**
 * parametric (the regime map's job): a word count over gen-binary's 100-byte records whose
 * reduce cost per value, values per key and output size are knobs. The map gives each record
 * one of {@code records / values.per.key} keys (from its random first 10 bytes) and emits its
 * other 90 bytes; there is no combiner, so every payload crosses the shuffle. Reducing a value
 * hashes its payload {@code reduce.cost} times over; a key's digest is the sum of its values'
 * digests, so the partial reducer (tallies) is exact and the output is the same however the
 * values were split. The final reducer writes {@code key <TAB> count <TAB> digest}, the digest's
 * hex digits repeated to {@code output.ratio} times the key's input bytes.
 */
public class Parametric extends BenchmarkJob {
  /** Hash passes over a value's 90 payload bytes when it is reduced (0: count only). */
  public static final String REDUCE_COST = "marco.benchmarks.parametric.reduce.cost";

  public static final int DEFAULT_REDUCE_COST = 64;

  /** Mean values per key: the job uses the input's records divided by this many keys. */
  public static final String VALUES_PER_KEY = "marco.benchmarks.parametric.values.per.key";

  public static final int DEFAULT_VALUES_PER_KEY = 100;

  /** Output bytes per input byte of a key (at least the 16 hex digits of its digest). */
  public static final String OUTPUT_RATIO = "marco.benchmarks.parametric.output.ratio";

  public static final float DEFAULT_OUTPUT_RATIO = 0f;

  /** The number of keys, derived at submission from the input size and VALUES_PER_KEY. */
  static final String KEYS = "marco.benchmarks.parametric.keys";

  private static final int KEY_BYTES = 10;

  /** Emits (key id, payload): the key from the record's random first bytes. */
  public static class KeyingMapper
      extends Mapper<LongWritable, BytesWritable, LongWritable, TallyWritable> {
    private final LongWritable key = new LongWritable();
    private final TallyWritable value = new TallyWritable();
    private long keys;

    @Override
    protected void setup(Context context) {
      keys = context.getConfiguration().getLong(KEYS, 1);
    }

    @Override
    protected void map(LongWritable offset, BytesWritable record, Context context)
        throws IOException, InterruptedException {
      byte[] b = record.getBytes();
      long prefix = 0;
      for (int i = 0; i < 8; i++) {
        prefix = (prefix << 8) | (b[i] & 0xff);
      }
      key.set(Math.floorMod(prefix, keys));
      value.setPayload(b, KEY_BYTES, record.getLength() - KEY_BYTES);
      context.write(key, value);
    }
  }

  /** A key's values reduced to one tally: raw payloads digested, tallies added. */
  static final class Tally {
    private final int cost;
    long count;
    long digest;

    Tally(Configuration conf) {
      cost = conf.getInt(REDUCE_COST, DEFAULT_REDUCE_COST);
    }

    void reset() {
      count = 0;
      digest = 0;
    }

    void add(TallyWritable v) {
      if (v.isRaw()) {
        count++;
        digest += digest(v.payload(), cost);
      } else {
        count += v.count();
        digest += v.digest();
      }
    }
  }

  /**
   * {@code passes} rounds of a 64-bit multiply-xorshift hash over the payload, each round seeded
   * with the last: work proportional to {@code passes} whose result the output depends on.
   */
  static long digest(byte[] payload, int passes) {
    long h = 0;
    for (int pass = 0; pass < passes; pass++) {
      h ^= pass;
      for (byte b : payload) {
        h = (h ^ (b & 0xff)) * 0x9E3779B97F4A7C15L;
        h ^= h >>> 29;
      }
    }
    return h;
  }

  /** Partial reducer: one tally per key and run. */
  public static class TallyReducer
      extends Reducer<LongWritable, TallyWritable, LongWritable, TallyWritable> {
    private final TallyWritable out = new TallyWritable();
    private Tally tally;

    @Override
    protected void setup(Context context) {
      tally = new Tally(context.getConfiguration());
    }

    @Override
    protected void reduce(LongWritable key, Iterable<TallyWritable> values, Context context)
        throws IOException, InterruptedException {
      tally.reset();
      for (TallyWritable v : values) {
        tally.add(v);
      }
      out.setTally(tally.count, tally.digest);
      context.write(key, out);
    }
  }

  /** Final reducer: the key's count and digest, the digest padded to the output ratio. */
  public static class OutputReducer
      extends Reducer<LongWritable, TallyWritable, LongWritable, Text> {
    private final Text line = new Text();
    private Tally tally;
    private float ratio;

    @Override
    protected void setup(Context context) {
      tally = new Tally(context.getConfiguration());
      ratio = context.getConfiguration().getFloat(OUTPUT_RATIO, DEFAULT_OUTPUT_RATIO);
    }

    @Override
    protected void reduce(LongWritable key, Iterable<TallyWritable> values, Context context)
        throws IOException, InterruptedException {
      tally.reset();
      for (TallyWritable v : values) {
        tally.add(v);
      }
      String hex = String.format("%016x", tally.digest);
      long length =
          Math.max(hex.length(), Math.round(ratio * tally.count * BinaryModel.RECORD_BYTES));
      StringBuilder s = new StringBuilder().append(tally.count).append('\t');
      for (long i = 0; i < length; i++) {
        s.append(hex.charAt((int) (i % hex.length())));
      }
      line.set(s.toString());
      context.write(key, line);
    }
  }

  @Override
  public String programName() {
    return "parametric";
  }

  @Override
  protected void configure(Job job, String[] extraArgs) throws IOException {
    Configuration conf = job.getConfiguration();
    int cost = conf.getInt(REDUCE_COST, DEFAULT_REDUCE_COST);
    int perKey = conf.getInt(VALUES_PER_KEY, DEFAULT_VALUES_PER_KEY);
    float ratio = conf.getFloat(OUTPUT_RATIO, DEFAULT_OUTPUT_RATIO);
    if (cost < 0 || perKey < 1 || ratio < 0) {
      throw new IllegalArgumentException(
          "parametric needs "
              + REDUCE_COST
              + " >= 0, "
              + VALUES_PER_KEY
              + " >= 1 and "
              + OUTPUT_RATIO
              + " >= 0; got "
              + cost
              + ", "
              + perKey
              + ", "
              + ratio);
    }
    long records = 0;
    for (Path in : FileInputFormat.getInputPaths(job)) {
      ContentSummary size = in.getFileSystem(conf).getContentSummary(in);
      records += size.getLength() / BinaryModel.RECORD_BYTES;
    }
    conf.setLong(KEYS, Math.max(1, records / perKey));
    FixedLengthInputFormat.setRecordLength(conf, BinaryModel.RECORD_BYTES);
    job.setInputFormatClass(FixedLengthInputFormat.class);
    job.setMapperClass(KeyingMapper.class);
    job.setMapOutputKeyClass(LongWritable.class);
    job.setMapOutputValueClass(TallyWritable.class);
    MarcoJob.setPartialReducerClass(job, TallyReducer.class);
    job.setReducerClass(OutputReducer.class);
    job.setOutputKeyClass(LongWritable.class);
    job.setOutputValueClass(Text.class);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Parametric(), args));
  }
}
