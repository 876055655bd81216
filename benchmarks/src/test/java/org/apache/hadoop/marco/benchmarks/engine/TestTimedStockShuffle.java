/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.engine;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalDirAllocator;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MROutputFiles;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.apache.hadoop.mapreduce.marco.testing.InputFiles;
import org.apache.hadoop.mapreduce.marco.testing.JobOutput;
import org.apache.hadoop.mapreduce.marco.testing.LocalModeConf;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;
import org.apache.hadoop.marco.benchmarks.jobs.WordCount;
import org.apache.hadoop.util.Progress;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class TestTimedStockShuffle {
  private static final String PLUGIN = MRConfig.SHUFFLE_CONSUMER_PLUGIN;

  @Rule public final TemporaryFolder temp = new TemporaryFolder();

  private Path input() throws IOException {
    Path dir = new Path(new File(temp.getRoot(), "input").toURI());
    List<List<String>> files = new ArrayList<>();
    for (int f = 0; f < 6; f++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 2000; i++) {
        lines.add("word" + (i * 7 + f) % 997 + " other" + i % 31 + " file" + f);
      }
      files.add(lines);
    }
    InputFiles.write(FileSystem.getLocal(new Configuration()), dir, files);
    return dir;
  }

  private Job wordCount(Path input, String name, Class<?> plugin) throws IOException {
    Configuration conf = LocalModeConf.newConf(new File(temp.getRoot(), name + "-work"));
    conf.setInt("mapreduce.job.reduces", 2);
    conf.setClass(PLUGIN, plugin, org.apache.hadoop.mapred.ShuffleConsumerPlugin.class);
    // A shuffle buffer smaller than the map outputs, so Hadoop's in-memory merges run.
    conf.set("mapreduce.reduce.shuffle.input.buffer.percent", "0.0005");
    return new WordCount().createJob(conf, input, new Path(new File(temp.getRoot(), name).toURI()));
  }

  private static byte[] output(Job job) throws IOException {
    Path dir = FileOutputFormat.getOutputPath(job);
    return JobOutput.read(dir.getFileSystem(job.getConfiguration()), dir).bytes();
  }

  private static boolean hasGroup(Counters counters, Class<? extends Enum<?>> group) {
    for (String name : counters.getGroupNames()) {
      if (name.equals(group.getName())) {
        return true;
      }
    }
    return false;
  }

  @Test
  public void countsFetchWaitsInHadoopsOwnShuffleWithoutChangingTheOutput() throws Exception {
    Path input = input();
    Job stock = wordCount(input, "stock", Shuffle.class);
    Job timed = wordCount(input, "timed", TimedStockShuffle.class);
    assertTrue(stock.waitForCompletion(false));
    assertTrue(timed.waitForCompletion(false));

    byte[] expected = output(stock);
    assertTrue(expected.length > 0);
    assertArrayEquals(expected, output(timed));
    Counters counters = timed.getCounters();
    assertTrue("the stock shuffle's counters", hasGroup(counters, StockShuffleCounter.class));
    assertFalse("Hadoop's own merge manager, not MaRCO's", hasGroup(counters, MarcoCounter.class));
    assertFalse(hasGroup(stock.getCounters(), StockShuffleCounter.class));
  }

  private static final Pattern ARRIVAL =
      Pattern.compile(
          "\\{\"ts\":(\\d+),\"event\":\"arrival\",\"map\":\"(attempt_\\w+_m_\\d+_\\d+)\","
              + "\"bytes\":(\\d+),\"where\":\"(memory|disk)\",\"arrived\":(\\d+)\\}");

  @Test
  public void writesEveryMapOutputsCommitToTheContainerLogDirectory() throws Exception {
    File logDir = temp.newFolder("container-logs");
    Job job = wordCount(input(), "arrivals", TimedStockShuffle.class);
    job.setNumReduceTasks(1);
    String before = System.getProperty(TimedStockShuffle.CONTAINER_LOG_DIR);
    System.setProperty(TimedStockShuffle.CONTAINER_LOG_DIR, logDir.getPath());
    try {
      assertTrue(job.waitForCompletion(false));
    } finally {
      if (before == null) {
        System.clearProperty(TimedStockShuffle.CONTAINER_LOG_DIR);
      } else {
        System.setProperty(TimedStockShuffle.CONTAINER_LOG_DIR, before);
      }
    }

    List<String> lines =
        Files.readAllLines(new File(logDir, StockArrivals.LOCAL_FILE_NAME).toPath());
    assertEquals("one arrival per map (one per input file)", 6, lines.size());
    Set<String> maps = new HashSet<>();
    long previous = 0;
    long bytes = 0;
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = ARRIVAL.matcher(lines.get(i));
      assertTrue(lines.get(i), m.matches());
      long ts = Long.parseLong(m.group(1));
      assertTrue("in the order committed: " + lines, ts >= previous);
      previous = ts;
      maps.add(m.group(2));
      bytes += Long.parseLong(m.group(3));
      assertEquals(i + 1, Integer.parseInt(m.group(5)));
    }
    assertEquals("every map's output once", 6, maps.size());
    // The shuffled bytes count each uncompressed map output with its 4-byte IFile checksum.
    long shuffled = job.getCounters().findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).getValue();
    assertEquals(shuffled - 4L * maps.size(), bytes);
  }

  /** A reporter whose counters are {@code counters}'. */
  private static Reporter reporter(org.apache.hadoop.mapred.Counters counters) {
    return new Reporter() {
      @Override
      public void setStatus(String status) {}

      @Override
      public void progress() {}

      @Override
      public org.apache.hadoop.mapred.Counters.Counter getCounter(Enum<?> name) {
        return counters.findCounter(name);
      }

      @Override
      public org.apache.hadoop.mapred.Counters.Counter getCounter(String group, String name) {
        return counters.findCounter(group, name);
      }

      @Override
      public void incrCounter(Enum<?> key, long amount) {
        counters.incrCounter(key, amount);
      }

      @Override
      public void incrCounter(String group, String counter, long amount) {
        counters.incrCounter(group, counter, amount);
      }

      @Override
      public InputSplit getInputSplit() {
        throw new UnsupportedOperationException();
      }

      @Override
      public float getProgress() {
        return 0;
      }
    };
  }

  /** The stock variants' merge manager, as a reduce task would create it, outside any job. */
  private MergeManager<Text, Text> mergeManager(org.apache.hadoop.mapred.Counters counters)
      throws IOException {
    JobConf conf = new JobConf();
    conf.set(MRConfig.LOCAL_DIR, new File(temp.getRoot(), "local").getAbsolutePath());
    conf.setLong(MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, 1 << 20);
    TaskAttemptID reduceId = new TaskAttemptID("test", 1, TaskType.REDUCE, 0, 0);
    org.apache.hadoop.mapred.Counters.Counter unused =
        new org.apache.hadoop.mapred.Counters.Counter();
    ShuffleConsumerPlugin.Context<Text, Text> context =
        new ShuffleConsumerPlugin.Context<>(
            reduceId,
            conf,
            FileSystem.getLocal(conf),
            null,
            new LocalDirAllocator(MRConfig.LOCAL_DIR),
            reporter(counters),
            null,
            null,
            null,
            unused,
            unused,
            unused,
            unused,
            unused,
            unused,
            null,
            new Progress(),
            new Progress(),
            null,
            new MROutputFiles(),
            null);
    return new TimedStockShuffle<Text, Text>().createMergeManager(context);
  }

  /** A blocking call of a fetcher thread. */
  private interface FetcherCall {
    void run() throws Exception;
  }

  /**
   * Runs {@code call} on a thread of its own while this thread holds the manager's monitor, and
   * keeps holding it {@code millis} after that thread blocks on it.
   */
  private static void whileHeld(Object manager, long millis, FetcherCall call) throws Exception {
    AtomicReference<Throwable> failed = new AtomicReference<>();
    Thread fetcher =
        new Thread(
            () -> {
              try {
                call.run();
              } catch (Throwable t) {
                failed.set(t);
              }
            },
            "fetcher");
    synchronized (manager) {
      fetcher.start();
      while (fetcher.getState() != Thread.State.BLOCKED) {
        assertTrue("the fetcher is still on its way to the manager", fetcher.isAlive());
        Thread.sleep(1);
      }
      Thread.sleep(millis);
    }
    fetcher.join();
    assertEquals(null, failed.get());
  }

  @Test(timeout = 60_000)
  public void countsTheTimeAFetcherWaitsToEnterTheMergeManager() throws Exception {
    org.apache.hadoop.mapred.Counters counters = new org.apache.hadoop.mapred.Counters();
    MergeManager<Text, Text> manager = mergeManager(counters);
    // Once uncontended, so that the fetcher below blocks on nothing but the manager.
    manager.reserve(new TaskAttemptID("test", 1, TaskType.MAP, 0, 0), 100, 0).abort();

    AtomicReference<MapOutput<Text, Text>> reserved = new AtomicReference<>();
    TaskAttemptID mapId = new TaskAttemptID("test", 1, TaskType.MAP, 1, 0);
    whileHeld(manager, 300, () -> reserved.set(manager.reserve(mapId, 100, 0)));
    assertNotNull("memory was free, so the reservation went through", reserved.get());
    long waited = counters.getCounter(StockShuffleCounter.MERGE_MANAGER_WAIT_MILLIS);
    assertTrue("waited 300 ms or more in reserve, counted " + waited, waited >= 300);

    // A failed fetch gives its memory back through unreserve, which is timed the same way.
    whileHeld(manager, 100, () -> reserved.get().abort());
    long total = counters.getCounter(StockShuffleCounter.MERGE_MANAGER_WAIT_MILLIS);
    assertTrue("waited 100 ms or more in unreserve, counted " + (total - waited), total >= 400);
    assertEquals(0, counters.getCounter(StockShuffleCounter.FETCH_STALLS));
  }
}
