/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.engine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.LocalDirAllocator;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MROutputFiles;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoSettings;
import org.apache.hadoop.mapreduce.marco.PartialReducerSpec;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.MarcoMergeManager;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.mapreduce.task.reduce.MergeManagerImpl;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;
import org.apache.hadoop.marco.benchmarks.jobs.LongSumReducer;
import org.apache.hadoop.util.Progress;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * {@code merge-throughput}: the reduce-side merge path of Hadoop's {@code MergeManagerImpl}
 * against MaRCO's, on identical in-memory map outputs, side by side in one run with interleaved
 * repetitions. Each repetition feeds every map output the way a fetcher does (reserve, shuffle the
 * IFile bytes, commit), closes the manager and reads the reducer's whole input back; throughput is
 * raw map-output bytes / that time. It also runs MaRCO with a partial reducer that does no useful
 * work (identity), with adaptive control on and off, to show what adaptive control saves.
 */
public class MergeThroughput extends Configured implements Tool {

  /** A partial reducer that copies every record: pure overhead, as in binary-sort. */
  public static class IdentityPartialReducer
      extends Reducer<Text, LongWritable, Text, LongWritable> {}

  private static final class Variant {
    final String name;
    final boolean stock;
    final Class<?> partialReducer;
    final boolean adaptive;
    final List<Double> seconds = new ArrayList<>();
    final List<Double> cpuSeconds = new ArrayList<>();

    Variant(String name, boolean stock, Class<?> partialReducer, boolean adaptive) {
      this.name = name;
      this.stock = stock;
      this.partialReducer = partialReducer;
      this.adaptive = adaptive;
    }

    double mean() {
      return mean(seconds);
    }

    double meanCpu() {
      return mean(cpuSeconds);
    }

    private static double mean(List<Double> values) {
      return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }
  }

  private int maps = 40;
  private int recordsPerMap = 100_000;
  private int distinctKeys = 20_000;
  private int reps = 3;
  private long memoryMb = 256;
  private long arrivalGapMillis = 0;

  @Override
  public int run(String[] args) throws Exception {
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--maps":
          maps = Integer.parseInt(args[++i]);
          break;
        case "--records":
          recordsPerMap = Integer.parseInt(args[++i]);
          break;
        case "--keys":
          distinctKeys = Integer.parseInt(args[++i]);
          break;
        case "--reps":
          reps = Integer.parseInt(args[++i]);
          break;
        case "--memory-mb":
          memoryMb = Long.parseLong(args[++i]);
          break;
        case "--arrival-gap-ms":
          arrivalGapMillis = Long.parseLong(args[++i]);
          break;
        default:
          System.err.println(
              "Usage: merge-throughput [--maps N] [--records PER_MAP] [--keys DISTINCT] [--reps N]"
                  + " [--memory-mb SHUFFLE_HEAP_MB] [--arrival-gap-ms MS]\n"
                  + "  --arrival-gap-ms: pause between map outputs, as the network would, so"
                  + " partial invocations (and adaptive control) run as in a job; compare CPU, not"
                  + " wall, then");
          return 2;
      }
    }
    List<Variant> variants =
        Arrays.asList(
            new Variant("stock MergeManagerImpl", true, null, true),
            new Variant("MaRCO partial sort only", false, null, true),
            new Variant("MaRCO sum partial reducer", false, LongSumReducer.class, true),
            new Variant(
                "MaRCO identity partial reducer, adaptive on",
                false,
                IdentityPartialReducer.class,
                true),
            new Variant(
                "MaRCO identity partial reducer, adaptive off",
                false,
                IdentityPartialReducer.class,
                false));

    File localDir = Files.createTempDirectory("marco-merge-bench").toFile();
    try {
      List<byte[]> outputs = new ArrayList<>();
      long rawBytes = buildMapOutputs(outputs);
      System.out.printf(
          Locale.ROOT,
          "merge-throughput: %d map outputs x %d records (%d distinct "
              + "keys), %.1f MB raw, shuffle heap %d MB, %d repetitions + 1 warm-up%n",
          maps,
          recordsPerMap,
          distinctKeys,
          rawBytes / 1e6,
          memoryMb,
          reps);
      if (arrivalGapMillis > 0) {
        System.out.printf(
            Locale.ROOT,
            "map outputs arrive %d ms apart: wall time includes "
                + "%.1f s of waiting; CPU is the cost%n",
            arrivalGapMillis,
            maps * arrivalGapMillis / 1e3);
      }
      for (int rep = 0; rep <= reps; rep++) {
        for (Variant v : variants) {
          long cpuBefore = processCpuNanos();
          double s = runOnce(v, outputs, localDir);
          double cpu = (processCpuNanos() - cpuBefore) / 1e9;
          if (rep > 0) {
            v.seconds.add(s);
            v.cpuSeconds.add(cpu);
          }
          System.out.printf(
              Locale.ROOT,
              "  rep %d %-46s %7.3f s wall %7.3f s CPU%s%n",
              rep,
              v.name,
              s,
              cpu,
              rep == 0 ? " (warm-up)" : "");
        }
      }
      report(variants, rawBytes);
    } finally {
      FileUtil.fullyDelete(localDir);
    }
    return 0;
  }

  private long buildMapOutputs(List<byte[]> outputs) throws IOException {
    JobConf conf = new JobConf(false);
    Random random = new Random(42);
    long raw = 0;
    for (int m = 0; m < maps; m++) {
      Text[] keys = new Text[recordsPerMap];
      for (int r = 0; r < recordsPerMap; r++) {
        keys[r] = new Text(String.format(Locale.ROOT, "key-%08d", random.nextInt(distinctKeys)));
      }
      Arrays.sort(keys);
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      IFile.Writer<Text, LongWritable> writer =
          new IFile.Writer<>(
              conf,
              new FSDataOutputStream(bytes, null),
              Text.class,
              LongWritable.class,
              null,
              null);
      LongWritable one = new LongWritable(1);
      for (Text k : keys) {
        writer.append(k, one);
      }
      writer.close();
      raw += writer.getRawLength();
      outputs.add(bytes.toByteArray());
      outputs.add(Long.toString(writer.getRawLength()).getBytes());
    }
    return raw;
  }

  private JobConf conf(Variant v, File localDir) {
    JobConf conf = new JobConf(getConf());
    conf.set(MRConfig.LOCAL_DIR, localDir.getAbsolutePath());
    conf.setNumMapTasks(maps);
    conf.setMapOutputKeyClass(Text.class);
    conf.setMapOutputValueClass(LongWritable.class);
    conf.setLong("mapreduce.reduce.memory.totalbytes", memoryMb << 20);
    if (v.partialReducer != null) {
      conf.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, v.partialReducer, Reducer.class);
    }
    conf.setBoolean(MarcoConfig.ADAPTIVE_ENABLED, v.adaptive);
    return conf;
  }

  @SuppressWarnings("unchecked")
  private double runOnce(Variant v, List<byte[]> outputs, File localDir) throws Exception {
    JobConf conf = conf(v, localDir);
    TaskAttemptID reduceId = new TaskAttemptID("bench", 1, TaskType.REDUCE, 0, 0);
    MROutputFiles files = new MROutputFiles();
    files.setConf(conf);
    Counters counters = new Counters();
    org.apache.hadoop.fs.LocalFileSystem local = FileSystem.getLocal(conf);
    List<Throwable> failures = new ArrayList<>();
    long start = System.nanoTime();
    MergeManager<Text, LongWritable> manager;
    if (v.stock) {
      manager =
          new MergeManagerImpl<>(
              reduceId,
              conf,
              local,
              new LocalDirAllocator(MRConfig.LOCAL_DIR),
              Reporter.NULL,
              null,
              null,
              null,
              counters.findCounter("bench", "spilled"),
              counters.findCounter("bench", "combine"),
              counters.findCounter("bench", "merged"),
              failures::add,
              new Progress(),
              files);
    } else {
      MarcoSettings settings = MarcoSettings.from(conf);
      manager =
          new MarcoMergeManager<>(
              reduceId,
              conf,
              local.getRaw(),
              files,
              null,
              Reporter.NULL,
              failures::add,
              settings,
              PartialReducerSpec.resolve(conf, settings),
              null,
              counters.findCounter("bench", "spilled"),
              counters.findCounter("bench", "merged"),
              new Progress());
    }
    ShuffleClientMetrics metrics = ShuffleClientMetrics.create(reduceId, conf);
    MapHost host = new MapHost("bench", "http://bench/");
    for (int m = 0; m < maps; m++) {
      byte[] bytes = outputs.get(2 * m);
      long raw = Long.parseLong(new String(outputs.get(2 * m + 1)));
      TaskAttemptID mapId = new TaskAttemptID("bench", 1, TaskType.MAP, m, 0);
      MapOutput<Text, LongWritable> out;
      while ((out = manager.reserve(mapId, raw, 0)) == null) {
        manager.waitForResource();
        Thread.sleep(1);
      }
      out.shuffle(host, new ByteArrayInputStream(bytes), bytes.length, raw, metrics, Reporter.NULL);
      out.commit();
      if (arrivalGapMillis > 0) {
        Thread.sleep(arrivalGapMillis);
      }
    }
    RawKeyValueIterator merged = closeManager(manager);
    long records = 0;
    while (merged.next()) {
      merged.getKey();
      merged.getValue();
      records++;
    }
    merged.close();
    double seconds = (System.nanoTime() - start) / 1e9;
    if (!failures.isEmpty()) {
      throw new IOException(v.name + " failed", failures.get(0));
    }
    if (records == 0) {
      throw new IllegalStateException(v.name + " produced no records");
    }
    return seconds;
  }

  /** CPU time of this whole JVM (all threads, GC included): the work a variant costs. */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static RawKeyValueIterator closeManager(MergeManager<Text, LongWritable> manager)
      throws Exception {
    try {
      return manager.close();
    } catch (Exception | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IOException(t);
    }
  }

  private static void report(List<Variant> variants, long rawBytes) {
    Map<String, Variant> byName = new LinkedHashMap<>();
    variants.forEach(v -> byName.put(v.name, v));
    double stock = variants.get(0).mean();
    System.out.println();
    double stockCpu = variants.get(0).meanCpu();
    System.out.println(
        "| variant | wall s, mean (min-max) | MB/s wall | CPU s, mean | MB per CPU-s"
            + " | vs stock (wall) | vs stock (CPU) |");
    System.out.println("|---|---|---|---|---|---|---|");
    for (Variant v : variants) {
      double min = v.seconds.stream().mapToDouble(Double::doubleValue).min().orElse(0);
      double max = v.seconds.stream().mapToDouble(Double::doubleValue).max().orElse(0);
      System.out.printf(
          Locale.ROOT,
          "| %s | %.3f (%.3f-%.3f) | %.1f | %.3f | %.1f | %.2f | %.2f |%n",
          v.name,
          v.mean(),
          min,
          max,
          rawBytes / 1e6 / v.mean(),
          v.meanCpu(),
          rawBytes / 1e6 / v.meanCpu(),
          stock / v.mean(),
          stockCpu / v.meanCpu());
    }
    Variant sortOnly = byName.get("MaRCO partial sort only");
    Variant adaptiveOn = byName.get("MaRCO identity partial reducer, adaptive on");
    Variant adaptiveOff = byName.get("MaRCO identity partial reducer, adaptive off");
    System.out.printf(
        Locale.ROOT,
        "%nmerge path throughput, MaRCO partial sort only / stock: " + "%.2f (wall), %.2f (CPU)%n",
        stock / sortOnly.mean(),
        stockCpu / sortOnly.meanCpu());
    System.out.printf(
        Locale.ROOT,
        "useless partial reduce vs partial sort only (time ratio): "
            + "adaptive on %.3f (wall) %.3f (CPU); adaptive off %.3f (wall) %.3f (CPU)%n",
        adaptiveOn.mean() / sortOnly.mean(),
        adaptiveOn.meanCpu() / sortOnly.meanCpu(),
        adaptiveOff.mean() / sortOnly.mean(),
        adaptiveOff.meanCpu() / sortOnly.meanCpu());
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new MergeThroughput(), args));
  }
}
