/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.task.reduce.MarcoCpuCgroup.Version;
import org.apache.hadoop.test.GenericTestUtils.LogCapturer;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.slf4j.LoggerFactory;

/**
 * The whole reduce JVM in the shuffle cgroup from shuffle start to its last map output: a cgroup
 * that cannot be joined leaves it where it was with one WARN; on a host with a writable cgroup v1
 * cpu hierarchy every thread really moves there and back, and a partial thread started meanwhile
 * still joins the partial cgroup.
 */
public class TestMarcoShuffleCpuCgroup {
  private static final TaskAttemptID REDUCE = new TaskAttemptID("test", 1, TaskType.REDUCE, 0, 0);

  @Rule public TemporaryFolder tmp = new TemporaryFolder();
  @Rule public final SyntheticShuffleDir localDir = new SyntheticShuffleDir("marco-cgroup");

  private final MarcoCgroupV1Host host = new MarcoCgroupV1Host();
  private LogCapturer logs;

  /** The cpu cgroup this JVM ran in before a test moved it (null if none could), and its dir. */
  private String origin;

  private Path originDir;

  @Before
  public void captureLogs() {
    logs = LogCapturer.captureLogs(LoggerFactory.getLogger(MarcoShuffleCpuCgroup.class));
  }

  @After
  public void removeWhatWasMade() throws InterruptedException, IOException {
    logs.stopCapturing();
    // A test that failed halfway may have left the JVM in a cgroup about to be removed.
    if (origin != null && !origin.equals(MarcoCgroupV1Host.cpuCgroupOf("/proc/self/cgroup"))) {
      MarcoCpuCgroup.at(originDir).addProcess(ProcessHandle.current().pid());
    }
    host.removeAll();
  }

  /**
   * Skips the calling test unless this host has a writable cgroup v1 cpu hierarchy; notes the
   * cgroup this JVM runs in, to be put back there after the test; makes a shuffle cgroup.
   */
  private Path shuffleCgroupOnV1Host() throws IOException {
    MarcoCgroupV1Host.assumeWritable();
    origin = MarcoCgroupV1Host.cpuCgroupOf("/proc/self/cgroup");
    originDir = MarcoCpuCgroup.ofThisProcess(Version.V1).dir();
    return host.create("shuffle");
  }

  @Test
  public void noCgroupConfiguredDoesNothing() {
    MarcoShuffleCpuCgroup.join("", REDUCE).leave();
    assertEquals("", logs.getOutput());
  }

  @Test
  public void aCgroupThatCannotBeJoinedWarnsOnceWithTheFixAndTheReduceStays() throws Exception {
    File notACgroup = tmp.newFolder("not-a-cgroup");
    MarcoShuffleCpuCgroup cgroup = MarcoShuffleCpuCgroup.join(notACgroup.getPath(), REDUCE);
    cgroup.leave();
    String out = logs.getOutput();
    assertEquals(out, 1, out.split("cannot join", -1).length - 1);
    assertTrue(
        out,
        out.contains("cannot join cpu cgroup " + notACgroup + " for the shuffle")
            && out.contains("echo 128 > " + notACgroup + "/cpu.shares")
            && out.contains(MarcoConfig.SHUFFLE_CPU_CGROUP));
    assertFalse("no move back for a reduce that never left", out.contains("back in"));
    assertEquals("no file may be created", 0, notACgroup.list().length);
  }

  @Test
  public void everyThreadShufflesInTheCgroupPartialThreadsInTheirsAndAllComeBack()
      throws Exception {
    Path shuffle = shuffleCgroupOnV1Host();
    Path partial = host.create("partial");
    // A thread from before the shuffle start, e.g. a GC or the task's umbilical thread.
    CountDownLatch end = new CountDownLatch(1);
    Thread before = new Thread(() -> awaitQuietly(end));
    before.setDaemon(true);
    before.start();
    CountDownLatch partialMayEnd = new CountDownLatch(1);
    AtomicReference<String> partialInside = new AtomicReference<>();
    MarcoShuffleCpuCgroup cgroup = MarcoShuffleCpuCgroup.join(shuffle.toString(), REDUCE);
    MarcoShuffleCpuCgroup second = null;
    try {
      assertEquals(
          Collections.singleton("/" + shuffle.getFileName()),
          new HashSet<>(MarcoCgroupV1Host.cpuCgroupsOfAllThreads()));
      // Partial threads are made after shuffle start, in the shuffle cgroup, and move on.
      CountDownLatch partialJoined = new CountDownLatch(1);
      Thread partialThread =
          new MarcoCpuShareThreadFactory("test-partial", 0, partial.toString())
              .newThread(
                  () -> {
                    try {
                      partialInside.set(MarcoCgroupV1Host.cpuCgroupOf("/proc/thread-self/cgroup"));
                    } catch (Exception e) {
                      partialInside.set(e.toString());
                    }
                    partialJoined.countDown();
                    awaitQuietly(partialMayEnd);
                  });
      partialThread.start();
      partialJoined.await();
      assertEquals("/" + partial.getFileName(), partialInside.get());
      List<String> all = MarcoCgroupV1Host.cpuCgroupsOfAllThreads();
      assertEquals(all.toString(), 1, Collections.frequency(all, "/" + partial.getFileName()));
      assertEquals(
          all.toString(), all.size() - 1, Collections.frequency(all, "/" + shuffle.getFileName()));

      // A second reduce of this JVM (LocalJobRunner): the last to end the shuffle moves back.
      second = MarcoShuffleCpuCgroup.join(shuffle.toString(), REDUCE);
      second.leave();
      assertEquals("/" + shuffle.getFileName(), MarcoCgroupV1Host.cpuCgroupOf("/proc/self/cgroup"));

      cgroup.leave();
      // cgroup.procs moves all threads, a partial thread still running included: at shuffle end
      // partial work is done or abandoned.
      assertEquals(
          Collections.singleton(origin), new HashSet<>(MarcoCgroupV1Host.cpuCgroupsOfAllThreads()));
      String out = logs.getOutput();
      assertTrue(
          out,
          out.contains("MaRCO: reduce " + REDUCE)
              && out.contains(
                  "joined cpu cgroup " + shuffle + " for the shuffle, from " + originDir));
      assertTrue(out, out.contains("back in cpu cgroup " + originDir + " for the final merge"));
      assertFalse(out, out.contains("cannot"));
    } finally {
      if (second != null) {
        second.leave();
      }
      cgroup.leave();
      partialMayEnd.countDown();
      end.countDown();
    }
  }

  /**
   * The task's main thread leaves the shuffle cgroup right after the join, so that Hadoop's
   * event fetcher and fetchers, which it starts next, are born at the container's share: a
   * fetcher starved of CPU leaves the throttled link idle while the maps run. Threads born
   * before that (the partial threads) and the JVM's own stay in the cgroup.
   */
  @Test
  public void threadsStartedByTheMainThreadAfterTheJoinRunAtTheContainersShare() throws Exception {
    Path shuffle = shuffleCgroupOnV1Host();
    String inShuffle = "/" + shuffle.getFileName();
    CountDownLatch end = new CountDownLatch(1);
    AtomicReference<String> mainAt = new AtomicReference<>();
    AtomicReference<String> fetcherAt = new AtomicReference<>();
    AtomicReference<String> partialAt = new AtomicReference<>();
    CountDownLatch started = new CountDownLatch(2);
    // The test's own thread stays put; "main" plays the reduce task's main thread.
    Thread main =
        new Thread(
            () -> {
              MarcoShuffleCpuCgroup cgroup = MarcoShuffleCpuCgroup.join(shuffle.toString(), REDUCE);
              Thread partial =
                  new Thread(
                      () -> {
                        partialAt.set(threadCgroup());
                        started.countDown();
                        awaitQuietly(end);
                      },
                      "MaRCO partial 1");
              partial.setDaemon(true);
              partial.start();
              cgroup.keepCurrentThreadAtContainerShare();
              mainAt.set(threadCgroup());
              Thread fetcher =
                  new Thread(
                      () -> {
                        fetcherAt.set(threadCgroup());
                        started.countDown();
                        awaitQuietly(end);
                      },
                      "fetcher#1");
              fetcher.setDaemon(true);
              fetcher.start();
              awaitQuietly(end);
              cgroup.leave();
            },
            "main of the reduce");
    main.start();
    try {
      started.await();
      assertEquals("the main thread", origin, mainAt.get());
      assertEquals("a fetcher it starts", origin, fetcherAt.get());
      assertEquals("a partial thread born before", inShuffle, partialAt.get());
      List<String> all = MarcoCgroupV1Host.cpuCgroupsOfAllThreads();
      assertEquals(
          "the main thread and the fetcher: " + all, 2, Collections.frequency(all, origin));
      assertEquals(
          "the rest of the JVM stays: " + all,
          all.size() - 2,
          Collections.frequency(all, inShuffle));
      end.countDown();
      main.join();
      assertEquals(
          Collections.singleton(origin), new HashSet<>(MarcoCgroupV1Host.cpuCgroupsOfAllThreads()));
      assertFalse(logs.getOutput(), logs.getOutput().contains("cannot"));
    } finally {
      end.countDown();
      main.join();
    }
  }

  /**
   * A reduce is needed from its last map output on: the JVM leaves the shuffle cgroup then, in the
   * fetcher's commit, and not at close(). What comes between (the fetchers' shutdown, the status
   * update to the AM, whose RPC thread was in the cgroup) must not wait at the low share.
   */
  @Test
  public void theJvmLeavesTheShuffleCgroupWhenTheLastMapOutputArrives() throws Throwable {
    Path shuffle = shuffleCgroupOnV1Host();
    JobConf conf = SyntheticShuffle.baseConf(3);
    conf.set(MarcoConfig.SHUFFLE_CPU_CGROUP, shuffle.toString());
    SyntheticShuffle s = localDir.shuffle(conf, null);
    List<String> words = Arrays.asList("a", "b");
    s.start();
    s.fetch(0, words);
    s.fetch(1, words);
    assertEquals(
        "two of three map outputs in",
        "/" + shuffle.getFileName(),
        MarcoCgroupV1Host.cpuCgroupOf("/proc/self/cgroup"));
    s.fetch(2, words);
    assertEquals(
        "the last map output in, before close()",
        origin,
        MarcoCgroupV1Host.cpuCgroupOf("/proc/self/cgroup"));
    Map<String, List<Long>> expected = new TreeMap<>();
    expected.put("a", Arrays.asList(1L, 1L, 1L));
    expected.put("b", Arrays.asList(1L, 1L, 1L));
    assertEquals(expected, s.finish());
    String out = logs.getOutput();
    assertEquals(out, 1, out.split("back in cpu cgroup " + originDir, -1).length - 1);
  }

  private static String threadCgroup() {
    try {
      return MarcoCgroupV1Host.cpuCgroupOf("/proc/thread-self/cgroup");
    } catch (IOException e) {
      return e.toString();
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
