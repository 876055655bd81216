/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.advise;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.marco.differential.SkewedWords;
import org.apache.hadoop.mapreduce.marco.differential.WordSum;
import org.apache.hadoop.mapreduce.marco.testing.InputFiles;
import org.apache.hadoop.mapreduce.marco.testing.MiniMrClusterResource;
import org.apache.hadoop.mapreduce.marco.testing.SlowTest;
import org.apache.hadoop.mapreduce.v2.jobhistory.JobHistoryUtils;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The advisor on the history a real stock job leaves: a word sum with a combiner, run with
 * Hadoop's own shuffle on a mini YARN cluster, read back from where the AppMaster wrote it.
 */
@Category(SlowTest.class)
public class TestAdviseMiniCluster {
  @ClassRule
  public static final MiniMrClusterResource CLUSTER = new MiniMrClusterResource("marco-advise");

  private static final long HISTORY_WAIT_MS = 60_000;

  @Test
  public void aStockJobsRealHistoryGivesASaneBreakdownAndAdvice() throws Exception {
    JobConf conf = CLUSTER.newJobConf();
    Path dir = CLUSTER.testDir("stock-word-sum");
    Path input = new Path(dir, "input");
    InputFiles.write(CLUSTER.fileSystem(), input, SkewedWords.generate(3, 2000, List.of(), 5));
    Job job = WordSum.create(conf, input, new Path(dir, "out"), 2, true, false);
    assertTrue("the stock job succeeds", job.waitForCompletion(false));
    String id = job.getJobID().toString();
    Path history = awaitHistory(CLUSTER.fileSystem(), conf, id);

    ByteArrayOutput out = new ByteArrayOutput();
    ByteArrayOutput err = new ByteArrayOutput();
    int status =
        new MarcoAdvise(conf)
            .run(new String[] {history.toString(), "--json"}, out.stream(), err.stream());
    assertEquals(err.text(), MarcoAdvise.OK, status);
    JsonNode jobs = new ObjectMapper().readTree(out.text()).get("jobs");
    assertEquals(1, jobs.size());
    JsonNode a = jobs.get(0);
    assertEquals(id, a.get("id").asText());
    assertEquals("SUCCEEDED", a.get("state").asText());
    assertEquals(3, a.get("maps").asInt());
    assertEquals(2, a.get("reduces").asInt());
    assertFalse("a stock run has no MaRCO counters", a.get("marco_counters").asBoolean());
    assertTrue(a.get("not_applicable").isNull());

    JsonNode b = a.get("breakdown_s");
    double sum = 0;
    for (String phase :
        List.of(
            "startup",
            "map",
            "exposed_shuffle",
            "final_merge",
            "final_reduce",
            "output_write",
            "cleanup")) {
      assertTrue(phase + " >= 0: " + b, b.get(phase).asDouble() >= 0);
      sum += b.get(phase).asDouble();
    }
    double jobSeconds = (a.get("finish_ms").asLong() - a.get("submit_ms").asLong()) / 1000.0;
    assertEquals("the phases add up to the job's time", jobSeconds, sum, 1e-6);
    assertEquals(jobSeconds, b.get("job").asDouble(), 1e-6);
    assertTrue("maps take time: " + b, b.get("map").asDouble() > 0);
    assertTrue("a job this small spends most of its time starting: " + b, sum < 600);
    assertTrue("the reduce's CPU is in its history", a.get("idle_cpu_core_s").isNumber());

    JsonNode p = a.get("predicted");
    assertTrue(p.toString(), p.get("speedup").asDouble() >= 1.0);
    assertTrue(
        p.toString(),
        p.get("saving_s").asDouble()
            <= b.get("final_merge").asDouble() + b.get("final_reduce").asDouble() + 1e-9);
    assertEquals("combiner_could_serve", a.get("partial_reducer").get("kind").asText());
    assertEquals(
        WordSum.SumReducer.class.getName(), a.get("partial_reducer").get("class").asText());
  }

  /**
   * The job's history once the AppMaster has moved it, with its configuration, to the
   * intermediate done directory (or the JobHistoryServer on to its done directory); the client
   * may see the job succeed a moment before.
   */
  private static Path awaitHistory(FileSystem fs, JobConf conf, String id)
      throws IOException, InterruptedException {
    List<Path> roots =
        List.of(
            new Path(JobHistoryUtils.getConfiguredHistoryIntermediateDoneDirPrefix(conf)),
            new Path(JobHistoryUtils.getConfiguredHistoryServerDoneDirPrefix(conf)));
    long deadline = System.currentTimeMillis() + HISTORY_WAIT_MS;
    while (System.currentTimeMillis() < deadline) {
      for (Path root : roots) {
        Path found = find(fs, root, id);
        if (found != null) {
          return found;
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no history of " + id + " under " + roots + " after 60 s");
  }

  private static Path find(FileSystem fs, Path root, String id) throws IOException {
    try {
      RemoteIterator<LocatedFileStatus> files = fs.listFiles(root, true);
      while (files.hasNext()) {
        Path file = files.next().getPath();
        Path conf = new Path(file.getParent(), id + HistoryFiles.CONF_SUFFIX);
        if (file.getName().startsWith(id + "-")
            && file.getName().endsWith(HistoryFiles.SUFFIX)
            && fs.exists(conf)) {
          return file;
        }
      }
    } catch (FileNotFoundException e) {
      // not created yet
    }
    return null;
  }
}
