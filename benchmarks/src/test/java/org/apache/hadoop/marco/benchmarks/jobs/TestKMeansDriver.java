/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.marco.MarcoJob;
import org.apache.hadoop.mapreduce.marco.testing.DifferentialResult;
import org.apache.hadoop.mapreduce.marco.testing.LocalModeConf;
import org.apache.hadoop.marco.benchmarks.BenchmarkCase;
import org.apache.hadoop.util.ToolRunner;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The k-means driver: rounds, convergence, and every round's files equal under MaRCO. */
public class TestKMeansDriver {
  @Rule public final TemporaryFolder temp = new TemporaryFolder();

  private static final BenchmarkCase KMEANS =
      BenchmarkCase.all().stream().filter(c -> c.name().equals("k-means")).findFirst().get();

  private Configuration conf(boolean marco, int maxIterations, double threshold) {
    Configuration conf = LocalModeConf.newConf(temp.getRoot());
    if (marco) {
      MarcoJob.useMarcoShuffle(conf);
    } else {
      MarcoJob.useStockShuffle(conf);
    }
    conf.setInt(KMeans.MAX_ITERATIONS, maxIterations);
    conf.setDouble(KMeans.THRESHOLD, threshold);
    return conf;
  }

  /** A k-means driver that adds every round's job to {@code rounds}. */
  private static KMeans recording(List<Job> rounds) {
    return new KMeans() {
      @Override
      public Job createJob(Configuration conf, Path input, Path output, String... extraArgs)
          throws IOException {
        Job job = super.createJob(conf, input, output, extraArgs);
        rounds.add(job);
        return job;
      }
    };
  }

  /** All files of all rounds (parts and centroids), concatenated in path order. */
  private static byte[] roundFiles(FileSystem fs, Path output) throws Exception {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    FileStatus[] rounds = fs.listStatus(output);
    Arrays.sort(rounds);
    for (FileStatus round : rounds) {
      FileStatus[] files =
          fs.listStatus(
              round.getPath(),
              p -> p.getName().startsWith("part-") || p.getName().startsWith("centroids-"));
      Arrays.sort(files);
      for (FileStatus file : files) {
        all.write(file.getPath().getName().getBytes());
        try (InputStream in = fs.open(file.getPath())) {
          IOUtils.copyBytes(in, all, 4096, false);
        }
      }
    }
    return all.toByteArray();
  }

  @Test
  public void everyRoundIsByteIdenticalUnderMarcoAndStock() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    Path input = new Path(new File(temp.getRoot(), "input").toURI());
    KMEANS.writeInput(fs, input);
    Path stockOut = new Path(new File(temp.getRoot(), "stock").toURI());
    Path marcoOut = new Path(new File(temp.getRoot(), "marco").toURI());
    String[] stockArgs = {input.toString(), stockOut.toString()};
    String[] marcoArgs = {input.toString(), marcoOut.toString()};

    Configuration stock = conf(false, 3, 0);
    Configuration marco = conf(true, 3, 0);
    for (Configuration c : new Configuration[] {stock, marco}) {
      c.setInt("mapreduce.job.reduces", 2);
      c.setLong("mapreduce.input.fileinputformat.split.maxsize", 20_000);
    }
    List<Job> stockRounds = new ArrayList<>();
    List<Job> marcoRounds = new ArrayList<>();
    assertEquals(0, ToolRunner.run(stock, recording(stockRounds), stockArgs));
    assertEquals(0, ToolRunner.run(marco, recording(marcoRounds), marcoArgs));
    // Each run went through the shuffle it is named after: the k-means rounds are what differs.
    for (Job round : stockRounds) {
      DifferentialResult.assertStockShuffle("stock " + round.getJobName(), round.getCounters());
    }
    for (Job round : marcoRounds) {
      DifferentialResult.assertMarcoShuffle("MaRCO " + round.getJobName(), round.getCounters());
    }
    assertEquals(3, stockRounds.size());
    assertEquals(3, marcoRounds.size());

    // Threshold 0: no movement is below it, so the driver must run every round, each from the
    // centroids the one before found.
    assertRoundsThatMovedTheCentroids(stock, input, stockOut, 3);
    assertRoundsThatMovedTheCentroids(marco, input, marcoOut, 3);
    byte[] stockFiles = roundFiles(fs, stockOut);
    assertTrue(new String(stockFiles).contains("centroids-r-"));
    assertArrayEquals(stockFiles, roundFiles(fs, marcoOut));
  }

  /**
   * {@code output} holds exactly {@code rounds} rounds, and every round's centroids (read back
   * from its files) moved away from the previous round's: a driver that stopped early, or that
   * ran each round from the same centroids, fails here.
   */
  private static void assertRoundsThatMovedTheCentroids(
      Configuration conf, Path input, Path output, int rounds) throws Exception {
    FileSystem fs = output.getFileSystem(conf);
    assertFalse(
        "more rounds than the limit", fs.exists(new Path(output, "iteration-" + (rounds + 1))));
    Centroids previous = Centroids.firstMovies(conf, input, Centroids.DEFAULT_K);
    for (int round = 1; round <= rounds; round++) {
      Path roundOutput = new Path(output, "iteration-" + round);
      assertTrue("round " + round + " missing in " + output, fs.exists(roundOutput));
      Centroids next = KMeans.readCentroids(conf, roundOutput, previous);
      // 1 - cosine of a vector with itself rounds to about 1e-16, not to 0.
      assertTrue(
          "round " + round + " left every centroid where it was",
          next.maxMovement(previous) > 1e-9);
      previous = next;
    }
  }

  @Test
  public void stopsAfterOneRoundWhenEveryMovementIsBelowTheThreshold() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    Path input = new Path(new File(temp.getRoot(), "input").toURI());
    KMEANS.writeInput(fs, input);
    Path out = new Path(new File(temp.getRoot(), "out").toURI());
    assertEquals(
        0,
        ToolRunner.run(
            conf(false, 5, 1.5), new KMeans(), new String[] {input.toString(), out.toString()}));
    assertTrue(fs.exists(new Path(out, "iteration-1")));
    assertFalse(fs.exists(new Path(out, "iteration-2")));
  }

  @Test
  public void badArgumentsGiveUsageAndExitCodeTwo() throws Exception {
    assertEquals(2, ToolRunner.run(new Configuration(), new KMeans(), new String[] {"only"}));
  }
}
