/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.engine;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.apache.hadoop.mapreduce.marco.testing.InputFiles;
import org.apache.hadoop.mapreduce.marco.testing.JobOutput;
import org.apache.hadoop.mapreduce.marco.testing.LocalModeConf;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;
import org.apache.hadoop.marco.benchmarks.jobs.WordCount;
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
}
