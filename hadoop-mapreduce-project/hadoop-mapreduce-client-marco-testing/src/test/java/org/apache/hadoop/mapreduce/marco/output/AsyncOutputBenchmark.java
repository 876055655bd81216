/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.output;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.marco.testing.LocalModeConf;

/**
 * Benchmark (not a test): a binary-sort job (the paper's: 100-byte records, 10-byte keys,
 * identity map and reduce) under Hadoop's LocalJobRunner, writing through
 * {@link ThrottledOutputFormat} (a slow synchronous output path), with and without
 * {@link AsyncOutputFormat}. Runs alternate (sync, async, sync, ...) on the same input and the
 * outputs are compared. Prints per run the job's wall time and the time the reduce threads
 * spent inside {@code context.write} (summed over reducers; what asynchronous output is meant
 * to remove, and, unlike wall time, hardly affected by other load on the machine), and medians.
 *
 * <pre>
 * java ... AsyncOutputBenchmark [records] [reducers] [output bytes/s per reduce] [runs] [workdir]
 * </pre>
 */
public final class AsyncOutputBenchmark {
  private static final int KEY_BYTES = 10;
  private static final int VALUE_BYTES = 90;
  private static final int INPUT_FILES = 4;

  private static final String COUNTERS = "AsyncOutputBenchmark";
  private static final String WRITE_CALL_MS = "WRITE_CALL_MS";

  private AsyncOutputBenchmark() {}

  /** Identity reduce that measures how long its {@code context.write} calls take. */
  public static class TimedIdentityReducer
      extends Reducer<BytesWritable, BytesWritable, BytesWritable, BytesWritable> {
    private long writeNanos;

    @Override
    protected void reduce(BytesWritable key, Iterable<BytesWritable> values, Context context)
        throws IOException, InterruptedException {
      for (BytesWritable value : values) {
        long start = System.nanoTime();
        context.write(key, value);
        writeNanos += System.nanoTime() - start;
      }
    }

    @Override
    protected void cleanup(Context context) {
      context.getCounter(COUNTERS, WRITE_CALL_MS).increment(writeNanos / 1_000_000);
    }
  }

  /** Wall time of one job and its reducers' time inside write calls. */
  private static final class Timing {
    final long jobMs;
    final long writeCallMs;

    Timing(long jobMs, long writeCallMs) {
      this.jobMs = jobMs;
      this.writeCallMs = writeCallMs;
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && (args[0].equals("--help") || args[0].equals("-h"))) {
      System.out.println(
          "usage: AsyncOutputBenchmark [records=400000] [reducers=2]"
              + " [output-bytes-per-second-per-reduce=4194304] [runs-per-variant=3]"
              + " [workdir=target/async-output-benchmark]");
      return;
    }
    long records = args.length > 0 ? Long.parseLong(args[0]) : 400_000;
    int reducers = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    long bytesPerSecond = args.length > 2 ? Long.parseLong(args[2]) : 4L << 20;
    int runs = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    File workDir =
        new File(args.length > 4 ? args[4] : "target/async-output-benchmark").getAbsoluteFile();
    FileUtil.fullyDelete(workDir);
    try {
      Configuration base = LocalModeConf.newConf(workDir);
      FileSystem fs = FileSystem.getLocal(base);
      Path input = new Path(new File(workDir, "input").toURI());
      generate(fs, base, input, records);
      List<Long> sync = new ArrayList<>();
      List<Long> async = new ArrayList<>();
      List<Long> syncWrites = new ArrayList<>();
      List<Long> asyncWrites = new ArrayList<>();
      for (int run = 0; run < runs; run++) {
        Timing syncRun = runJob(workDir, input, reducers, bytesPerSecond, false, run);
        Timing asyncRun = runJob(workDir, input, reducers, bytesPerSecond, true, run);
        sync.add(syncRun.jobMs);
        syncWrites.add(syncRun.writeCallMs);
        async.add(asyncRun.jobMs);
        asyncWrites.add(asyncRun.writeCallMs);
        requireSameRecords(
            fs,
            base,
            new Path(new File(workDir, "out-sync-" + run).toURI()),
            new Path(new File(workDir, "out-async-" + run).toURI()));
      }
      long syncMedian = median(sync);
      long asyncMedian = median(async);
      System.out.printf(
          Locale.ROOT,
          "binary-sort %d records x %d B, %d reducers, output"
              + " throttled to %.1f MiB/s per reduce%n",
          records,
          KEY_BYTES + VALUE_BYTES,
          reducers,
          bytesPerSecond / 1048576.0);
      System.out.println(
          "sync  job ms: "
              + sync
              + " median "
              + syncMedian
              + "; reduce time in write calls ms: "
              + syncWrites
              + " median "
              + median(syncWrites));
      System.out.println(
          "async job ms: "
              + async
              + " median "
              + asyncMedian
              + "; reduce time in write calls ms: "
              + asyncWrites
              + " median "
              + median(asyncWrites));
      System.out.printf(
          Locale.ROOT,
          "async speedup: %.2fx (%.1f%% less time)%n",
          (double) syncMedian / asyncMedian,
          100.0 * (syncMedian - asyncMedian) / syncMedian);
    } finally {
      FileUtil.fullyDelete(workDir);
    }
  }

  private static void generate(FileSystem fs, Configuration conf, Path dir, long records)
      throws Exception {
    Random random = new Random(42);
    BytesWritable key = new BytesWritable(new byte[KEY_BYTES]);
    BytesWritable value = new BytesWritable(new byte[VALUE_BYTES]);
    for (int f = 0; f < INPUT_FILES; f++) {
      try (SequenceFile.Writer writer =
          SequenceFile.createWriter(
              conf,
              SequenceFile.Writer.file(new Path(dir, "part-" + f)),
              SequenceFile.Writer.keyClass(BytesWritable.class),
              SequenceFile.Writer.valueClass(BytesWritable.class))) {
        for (long r = f; r < records; r += INPUT_FILES) {
          random.nextBytes(key.getBytes());
          random.nextBytes(value.getBytes());
          writer.append(key, value);
        }
      }
    }
  }

  private static Timing runJob(
      File workDir, Path input, int reducers, long bytesPerSecond, boolean async, int run)
      throws Exception {
    Configuration conf = LocalModeConf.newConf(workDir);
    conf.setLong(ThrottledOutputFormat.BYTES_PER_SECOND, bytesPerSecond);
    conf.setInt("mapreduce.local.reduce.tasks.maximum", reducers);
    Job job = Job.getInstance(conf, "binary-sort " + (async ? "async" : "sync"));
    job.setInputFormatClass(SequenceFileInputFormat.class);
    job.setMapperClass(Mapper.class);
    job.setReducerClass(TimedIdentityReducer.class);
    job.setOutputKeyClass(BytesWritable.class);
    job.setOutputValueClass(BytesWritable.class);
    job.setNumReduceTasks(reducers);
    job.setOutputFormatClass(ThrottledOutputFormat.class);
    if (async) {
      AsyncOutput.enable(job);
    }
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(
        job, new Path(new File(workDir, "out-" + (async ? "async-" : "sync-") + run).toURI()));
    long start = System.nanoTime();
    if (!job.waitForCompletion(false)) {
      throw new IllegalStateException(job.getJobName() + " failed");
    }
    return new Timing(
        (System.nanoTime() - start) / 1_000_000,
        job.getCounters().findCounter(COUNTERS, WRITE_CALL_MS).getValue());
  }

  /**
   * Sequence files carry a random sync marker, so outputs are compared record by record, part
   * file by part file.
   */
  private static void requireSameRecords(FileSystem fs, Configuration conf, Path a, Path b)
      throws Exception {
    FileStatus[] partsA = fs.listStatus(a, p -> p.getName().startsWith("part-"));
    FileStatus[] partsB = fs.listStatus(b, p -> p.getName().startsWith("part-"));
    Arrays.sort(partsA);
    Arrays.sort(partsB);
    if (partsA.length != partsB.length) {
      throw new IllegalStateException(a + " and " + b + " have different part files");
    }
    BytesWritable keyA = new BytesWritable();
    BytesWritable valueA = new BytesWritable();
    BytesWritable keyB = new BytesWritable();
    BytesWritable valueB = new BytesWritable();
    for (int i = 0; i < partsA.length; i++) {
      try (SequenceFile.Reader readerA =
              new SequenceFile.Reader(conf, SequenceFile.Reader.file(partsA[i].getPath()));
          SequenceFile.Reader readerB =
              new SequenceFile.Reader(conf, SequenceFile.Reader.file(partsB[i].getPath()))) {
        boolean moreA;
        boolean moreB;
        do {
          moreA = readerA.next(keyA, valueA);
          moreB = readerB.next(keyB, valueB);
          if (moreA != moreB || moreA && (!keyA.equals(keyB) || !valueA.equals(valueB))) {
            throw new IllegalStateException(
                partsA[i].getPath() + " and " + partsB[i].getPath() + " differ");
          }
        } while (moreA);
      }
    }
  }

  private static long median(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }
}
