/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.advise;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.jobhistory.EventWriter.WriteMode;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;

/**
 * Histories written with Hadoop's EventWriter, in both encodings, read back into a breakdown and
 * advice: a stock job, failed, killed and speculative attempts, uber and map-only jobs, MaRCO's
 * counters, the partial reducer from the job's configuration, and bad files.
 */
@RunWith(Parameterized.class)
public class TestHistoryFiles {
  @Parameterized.Parameters(name = "{0}")
  public static Collection<Object[]> modes() {
    return Arrays.asList(new Object[][] {{WriteMode.JSON}, {WriteMode.BINARY}});
  }

  private final WriteMode mode;
  private FileSystem fs;
  private File dir;

  public TestHistoryFiles(WriteMode mode) {
    this.mode = mode;
  }

  @Before
  public void setUp() throws IOException {
    fs = FileSystem.getLocal(new Configuration());
    dir = new File("target/test-history-files-" + mode).getAbsoluteFile();
    FileUtil.fullyDelete(dir);
    assertTrue(dir.mkdirs());
  }

  @After
  public void tearDown() {
    FileUtil.fullyDelete(dir);
  }

  private Path dir() {
    return new Path(dir.toURI());
  }

  /**
   * Two maps (2-10 s, 3-12 s), two reduces: the critical one starts at 4 s, ends its shuffle at
   * 20 s, its merge at 21 s, finishes at 30 s with 12 s of CPU; the job ends at 32 s.
   */
  static HistoryBuilder stockJob(int serial, String name) {
    return new HistoryBuilder(serial, name, false, 2, 2)
        .map(0, 2, 10)
        .map(1, 3, 12)
        .reduce(0, 4, 20, 21, 30, 12.0)
        .reduce(1, 4, 18, 19, 25, 8.0);
  }

  private JobRun read(HistoryBuilder b) throws Exception {
    return HistoryFiles.read(fs, b.write(fs, dir(), mode));
  }

  @Test
  public void aStockJobGivesTheHarnessBreakdownAndACpuBoundPrediction() throws Exception {
    JobRun job = read(stockJob(1, "stock word count").finished(32, new Counters()));
    assertEquals("job_1700000000000_0001", job.id());
    assertEquals("stock word count", job.name());
    assertEquals("alice", job.user());
    assertFalse("a stock run has no MaRCO counters", job.ranWithMarco());
    assertNull("no configuration beside it", job.conf());

    Breakdown b = Breakdown.of(job);
    assertEquals(2, b.startup(), 1e-9);
    assertEquals(10, b.map(), 1e-9);
    assertEquals(8, b.exposedShuffle(), 1e-9);
    assertEquals(1, b.finalMerge(), 1e-9);
    assertEquals(9, b.finalReduce(), 1e-9);
    assertEquals(0, b.outputWrite(), 1e-9);
    assertEquals(2, b.cleanup(), 1e-9);
    assertEquals(32, b.wall(), 1e-9);
    // Its fetchers used 12 - 10 = 2 s of CPU over its 16 s shuffle: 1 s in the exposed 8 s.
    assertEquals(7, b.idleCpu(), 1e-9);
    assertEquals(10, b.finalCpu(), 1e-9);

    Advice a = Advice.of(job);
    assertEquals(SpeedupModel.Bound.CPU, a.prediction().bound());
    assertEquals(7, a.prediction().savingSeconds(), 1e-9);
    assertEquals(32.0 / 25, a.prediction().speedup(), 1e-9);
    assertEquals(PartialReducer.Kind.UNKNOWN, a.partialReducer().kind());
  }

  @Test
  public void moreCoresPerReduceMakeTheSameJobNetworkBound() throws Exception {
    HistoryBuilder b =
        stockJob(2, "two cores")
            .conf(MRJobConfig.REDUCE_CPU_VCORES, "2")
            .finished(32, new Counters());
    Advice a = Advice.of(read(b));
    assertEquals(SpeedupModel.Bound.NETWORK, a.prediction().bound());
    assertEquals(32.0 / 24, a.prediction().speedup(), 1e-9);
    assertEquals(PartialReducer.Kind.NONE, a.partialReducer().kind());
    // Without a partial reducer only the 1 s merge can move.
    assertEquals(1, a.sortOnly().savingSeconds(), 1e-9);
    assertTrue(a.recommendation(), a.recommendation().startsWith("give it a partial reducer"));
  }

  @Test
  public void failedKilledAndSpeculativeAttemptsCountButTheSuccessfulOneTimesTheTask()
      throws Exception {
    HistoryBuilder b =
        new HistoryBuilder(3, "retried", false, 2, 2)
            .map(0, 2, 10)
            .taskStarted(TaskType.MAP, 1, 3)
            .attemptStarted(TaskType.MAP, 1, 0, 3)
            .attemptEnded(TaskType.MAP, 1, 0, "FAILED", 5)
            .attemptStarted(TaskType.MAP, 1, 1, 5)
            .mapAttemptFinished(1, 1, 12)
            .taskFinished(TaskType.MAP, 1, 1, 12)
            .reduce(1, 4, 18, 19, 25, 8.0)
            .taskStarted(TaskType.REDUCE, 0, 4)
            .attemptStarted(TaskType.REDUCE, 0, 0, 4)
            .attemptStarted(TaskType.REDUCE, 0, 1, 14)
            .reduceAttemptFinished(0, 0, 20, 21, 30, 12.0)
            .taskFinished(TaskType.REDUCE, 0, 0, 30)
            .attemptEnded(TaskType.REDUCE, 0, 1, "KILLED", 30)
            .finished(32, new Counters());
    JobRun job = read(b);
    assertEquals(1, job.failedAttempts());
    assertEquals(1, job.killedAttempts());
    assertEquals(2, job.maps().size());
    assertEquals(2, job.reduces().size());
    Breakdown br = Breakdown.of(job);
    assertEquals(10, br.map(), 1e-9);
    assertEquals(8, br.exposedShuffle(), 1e-9);
    assertEquals(9, br.finalReduce(), 1e-9);
  }

  @Test
  public void anUberJobIsNotApplicable() throws Exception {
    HistoryBuilder b =
        new HistoryBuilder(4, "tiny", true, 1, 1)
            .map(0, 2, 3)
            .reduce(0, 3, 3.5, 3.6, 4, 0.5)
            .finished(5, new Counters());
    Advice a = Advice.of(read(b));
    assertNull(a.prediction());
    assertTrue(a.recommendation(), a.recommendation().contains("uber job"));
  }

  @Test
  public void aMapOnlyJobIsNotApplicable() throws Exception {
    HistoryBuilder b = new HistoryBuilder(5, "grep", false, 1, 0).map(0, 2, 9);
    Advice a = Advice.of(read(b.finished(10, new Counters())));
    assertNull(a.prediction());
    assertTrue(a.recommendation(), a.recommendation().contains("map-only"));
  }

  @Test
  public void marcoCountersAndTheConfiguredPartialReducerAreReported() throws Exception {
    Counters marco = new Counters();
    marco.findCounter(MarcoCounter.INVOCATIONS).setValue(3);
    HistoryBuilder b =
        stockJob(6, "marco run")
            .conf(MarcoConfig.PARTIAL_REDUCER_CLASS, "org.example.Sum")
            .finished(32, marco);
    Advice a = Advice.of(read(b));
    assertTrue(a.job().ranWithMarco());
    assertEquals(PartialReducer.Kind.DECLARED, a.partialReducer().kind());
    assertEquals("org.example.Sum", a.partialReducer().className());
    assertTrue(a.recommendation(), a.recommendation().startsWith("run it with MaRCO, worth it"));
  }

  @Test
  public void aCombinerCouldServeOrServesThroughUseCombiner() throws Exception {
    HistoryBuilder could =
        stockJob(7, "combiner").conf(MRJobConfig.COMBINE_CLASS_ATTR, "org.example.Comb");
    assertEquals(
        PartialReducer.Kind.COMBINER_COULD_SERVE,
        Advice.of(read(could.finished(32, new Counters()))).partialReducer().kind());
    HistoryBuilder serves =
        stockJob(8, "old api combiner")
            .conf(JobConfKeys.OLD_API_COMBINER, "org.example.OldComb")
            .conf(MarcoConfig.PARTIAL_REDUCER_USE_COMBINER, "true");
    PartialReducer p = Advice.of(read(serves.finished(32, new Counters()))).partialReducer();
    assertEquals(PartialReducer.Kind.COMBINER, p.kind());
    assertEquals("org.example.OldComb", p.className());
  }

  @Test
  public void aDirectoryIsSearchedRecursivelyAndFiltered() throws Exception {
    File nested = new File(dir, "2026/01/31/000000");
    assertTrue(nested.mkdirs());
    stockJob(9, "nightly etl")
        .finished(32, new Counters())
        .write(fs, new Path(nested.toURI()), mode);
    stockJob(10, "adhoc").finished(32, new Counters()).write(fs, dir(), mode);
    List<Path> found = HistoryFiles.find(fs, dir());
    assertEquals(2, found.size());

    ByteArrayOutput out = new ByteArrayOutput();
    int status =
        new MarcoAdvise(new Configuration())
            .run(new String[] {"--name", "^nightly", dir.toString()}, out.stream(), System.err);
    assertEquals(MarcoAdvise.OK, status);
    assertTrue(out.text(), out.text().contains("job_1700000000000_0009"));
    assertFalse(out.text(), out.text().contains("job_1700000000000_0010"));
  }

  @Test
  public void aCutShortHistoryIsAnErrorNamingTheFile() throws Exception {
    Path file = stockJob(11, "cut").finished(32, new Counters()).write(fs, dir(), mode);
    File local = new File(file.toUri());
    byte[] all = Files.readAllBytes(local.toPath());
    String text = new String(all, StandardCharsets.ISO_8859_1);
    int events = text.indexOf('\n', text.indexOf('\n') + 1) + 1;
    // Half way into the events, past the version line and the schema.
    Files.write(local.toPath(), Arrays.copyOf(all, (events + all.length) / 2));
    assertBadInput(local.toString(), "cut short");
    // As copied without its checksum file.
    Files.delete(new File(local.getParent(), "." + local.getName() + ".crc").toPath());
    assertBadInput(local.toString(), "cut short");
    // Cut in the schema, the file still starts as a history does.
    Files.write(local.toPath(), Arrays.copyOf(all, events / 2));
    assertBadInput(local.toString(), "cut short");
  }

  @Test
  public void aFileThatIsNoHistoryIsAnErrorNamingTheFile() throws Exception {
    File notes = new File(dir, "notes.jhist");
    Files.write(notes.toPath(), "just some notes\n".getBytes(StandardCharsets.UTF_8));
    assertBadInput(notes.toString(), "not a MapReduce job history file");
    assertBadInput(new File(dir, "missing.jhist").toString(), "no such file");
    File empty = new File(dir, "empty");
    assertTrue(empty.mkdirs());
    assertBadInput(empty.toString(), "no job history");
  }

  private static void assertBadInput(String path, String problem) {
    ByteArrayOutput out = new ByteArrayOutput();
    ByteArrayOutput err = new ByteArrayOutput();
    int status =
        new MarcoAdvise(new Configuration()).run(new String[] {path}, out.stream(), err.stream());
    assertEquals(err.text(), MarcoAdvise.BAD_INPUT, status);
    assertTrue(err.text(), err.text().contains(path));
    assertTrue(err.text(), err.text().contains(problem));
  }
}
