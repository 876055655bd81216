/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.apache.hadoop.mapreduce.task.reduce.MarcoCpuShareThreadFactory.niceOf;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoSettings;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Partial threads really run at the configured nice value and in the configured cpu cgroup, as
 * read back from /proc.
 */
public class TestMarcoCpuShareThreadFactory {

  /** Runs one thread from the factory; returns what {@code probe} saw inside it. */
  private static <T> T insideFactoryThread(int nice, String cgroup, Callable<T> probe)
      throws Exception {
    AtomicReference<T> seen = new AtomicReference<>();
    Thread t =
        new MarcoCpuShareThreadFactory("test-partial", nice, cgroup)
            .newThread(
                () -> {
                  try {
                    seen.set(probe.call());
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                });
    t.start();
    t.join();
    return seen.get();
  }

  /** Runs one thread from the factory and returns the nice value it had while running. */
  private static int niceInsideFactoryThread(int nice) throws Exception {
    return insideFactoryThread(
        nice, "", () -> niceOf(MarcoCpuShareThreadFactory.currentThreadTid()));
  }

  @Test
  public void partialThreadsRunAtNice19ByDefault() throws Exception {
    assumeTrue("Linux /proc", new File("/proc/thread-self").exists());
    int nice = MarcoSettings.from(new Configuration(false)).effectivePartialNice();
    assertEquals(19, nice);
    assertEquals(19, niceInsideFactoryThread(nice));
  }

  /**
   * Runs {@code probe} in a plain thread (not one of the factory's) that first sets its own nice
   * to {@code nice}; threads it creates inherit that nice, as Linux threads do.
   */
  private static <T> T inThreadAtNice(int nice, Callable<T> probe) throws Exception {
    AtomicReference<T> seen = new AtomicReference<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread t =
        new Thread(
            () -> {
              try {
                MarcoCpuShareThreadFactory.lowerOwnPriority(nice);
                assertEquals(
                    "the creating thread's own nice",
                    nice,
                    niceOf(MarcoCpuShareThreadFactory.currentThreadTid()));
                seen.set(probe.call());
              } catch (Exception | AssertionError e) {
                failure.set(e);
              }
            });
    t.start();
    t.join();
    if (failure.get() instanceof AssertionError) {
      throw (AssertionError) failure.get();
    }
    if (failure.get() != null) {
      throw (Exception) failure.get();
    }
    return seen.get();
  }

  @Test
  public void withoutControlPartialThreadsKeepTheNiceOfTheThreadThatCreatedThem() throws Exception {
    assumeTrue("Linux /proc", new File("/proc/thread-self").exists());
    Configuration conf = new Configuration(false);
    conf.setBoolean(MarcoConfig.CONTROL_ENABLED, false);
    int nice = MarcoSettings.from(conf).effectivePartialNice();
    assertEquals(0, nice);
    // The creator runs at a nice that is neither 0 nor the default 19, so a factory thread that
    // set any nice of its own (rather than leaving it alone) would show a different one.
    int creatorNice = niceOf(MarcoCpuShareThreadFactory.currentThreadTid()) + 3;
    assumeTrue("room to lower this JVM's priority by 3", creatorNice < 19);
    assertEquals(
        creatorNice, (int) inThreadAtNice(creatorNice, () -> niceInsideFactoryThread(nice)));
  }

  @Test
  public void aFactoryThreadRunsAtItsNiceAndTheCallingThreadKeepsItsOwn() throws Exception {
    assumeTrue("Linux /proc", new File("/proc/thread-self").exists());
    int before = niceOf(MarcoCpuShareThreadFactory.currentThreadTid());
    assumeTrue("this JVM runs below nice 10", before < 10);
    assertEquals(10, niceInsideFactoryThread(10));
    assertEquals(before, niceOf(MarcoCpuShareThreadFactory.currentThreadTid()));
  }

  /**
   * Setting a partial thread's priority starts no process: a child would count the reduce's
   * memory twice ({@link ChildProcessWatch}).
   */
  @Test
  public void changingAThreadsPriorityStartsNoProcess() throws Exception {
    assumeTrue("Linux /proc with children lists", ChildProcessWatch.available());
    assertEquals("no child before", Set.of(), ChildProcessWatch.childrenOfThisJvm());
    Set<String> seen =
        ChildProcessWatch.childrenSeenDuring(
            () -> {
              for (int i = 0; i < 100; i++) {
                int nice = 10 + i % 5;
                assertEquals(nice, niceInsideFactoryThread(nice));
              }
            });
    assertEquals("children seen while 100 threads lowered their priority", Set.of(), seen);
  }

  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private static final Path CPU_ROOT = Paths.get("/sys/fs/cgroup/cpu");

  /** The calling thread's cgroup in the v1 hierarchy that holds the cpu controller. */
  private static String ownCpuCgroup() throws Exception {
    for (String line : Files.readAllLines(Paths.get("/proc/thread-self/cgroup"))) {
      String[] f = line.split(":", 3);
      if (java.util.Arrays.asList(f[1].split(",")).contains("cpu")) {
        return f[2];
      }
    }
    throw new IllegalStateException("no cpu controller in /proc/thread-self/cgroup");
  }

  /** Runs one partial thread joining {@code cgroup}; returns its cpu cgroup while it ran. */
  private static String cgroupInsideFactoryThread(String cgroup, AtomicBoolean ran)
      throws Exception {
    return insideFactoryThread(
        0,
        cgroup,
        () -> {
          ran.set(true);
          return ownCpuCgroup();
        });
  }

  @Test
  public void partialThreadsJoinTheConfiguredCpuCgroupAndTheCallerStaysWhereItWas()
      throws Exception {
    assumeTrue(
        "root and a cgroup v1 cpu hierarchy at " + CPU_ROOT,
        new File("/proc/thread-self").exists() && Files.isWritable(CPU_ROOT.resolve("tasks")));
    Path cgroup =
        CPU_ROOT.resolve("marco-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
    Files.createDirectory(cgroup);
    try {
      Files.write(cgroup.resolve("cpu.shares"), "2".getBytes(StandardCharsets.US_ASCII));
      String before = ownCpuCgroup();
      AtomicBoolean ran = new AtomicBoolean();
      assertEquals("/" + cgroup.getFileName(), cgroupInsideFactoryThread(cgroup.toString(), ran));
      assertTrue(ran.get());
      assertEquals(before, ownCpuCgroup());
    } finally {
      // The thread has ended, but the kernel may take a moment to drop it from the cgroup.
      for (int i = 0; i < 50 && !new File(cgroup.toString()).delete(); i++) {
        Thread.sleep(100);
      }
      assertFalse("cgroup left behind: " + cgroup, Files.exists(cgroup));
    }
  }

  /**
   * A relative cgroup is a child of the one the JVM is in when the thread starts: the node's own
   * group on a cluster whose nodes share one machine, so that partial work yields to its own node.
   */
  @Test
  public void aRelativeCgroupIsAChildOfTheCgroupTheJvmIsIn() throws Exception {
    MarcoCgroupV1Host.assumeWritable();
    MarcoCgroupV1Host host = new MarcoCgroupV1Host();
    MarcoCpuCgroup origin = MarcoCpuCgroup.ofThisProcess(MarcoCpuCgroup.Version.V1);
    Path node = host.create("node");
    Path partial = Files.createDirectory(node.resolve("partial"));
    try {
      Files.write(partial.resolve("cpu.shares"), "2".getBytes(StandardCharsets.US_ASCII));
      MarcoCpuCgroup.at(node).addProcess(ProcessHandle.current().pid());
      AtomicBoolean ran = new AtomicBoolean();
      assertEquals(
          "/" + node.getFileName() + "/partial", cgroupInsideFactoryThread("partial", ran));
      assertTrue(ran.get());
    } finally {
      origin.addProcess(ProcessHandle.current().pid());
      for (int i = 0; i < 50 && !new File(partial.toString()).delete(); i++) {
        Thread.sleep(100);
      }
      host.removeAll();
    }
  }

  @Test
  public void aCgroupThatCannotBeJoinedLeavesTheThreadWorkingWhereItWas() throws Exception {
    assumeTrue("Linux /proc", new File("/proc/thread-self").exists());
    File notACgroup = tmp.newFolder("not-a-cgroup");
    AtomicBoolean ran = new AtomicBoolean();
    assertEquals(ownCpuCgroup(), cgroupInsideFactoryThread(notACgroup.getPath(), ran));
    assertTrue(ran.get());
    assertFalse("no tasks file may be created", new File(notACgroup, "tasks").exists());
  }

  /**
   * A thread working when its factory's threads are raised leaves the cgroup and takes back the
   * nice value it had before, while it works on; a thread started after that never lowers.
   */
  @Test
  public void raisedThreadsLeaveTheCgroupAndTakeBackTheirNice() throws Exception {
    MarcoCgroupV1Host.assumeWritable();
    MarcoCgroupV1Host host = new MarcoCgroupV1Host();
    try {
      Path cgroup = host.create("raise");
      String origin = ownCpuCgroup();
      int containerNice = niceOf(MarcoCpuShareThreadFactory.currentThreadTid());
      MarcoCpuShareThreadFactory factory =
          new MarcoCpuShareThreadFactory("test-partial", 19, cgroup.toString());
      CountDownLatch lowered = new CountDownLatch(1);
      CountDownLatch raised = new CountDownLatch(1);
      AtomicReference<String> where = new AtomicReference<>();
      AtomicReference<Integer> tid = new AtomicReference<>();
      Thread working =
          factory.newThread(
              () -> {
                tid.set(MarcoCpuShareThreadFactory.currentThreadTid());
                lowered.countDown();
                try {
                  raised.await();
                  where.set(ownCpuCgroup());
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      working.start();
      lowered.await();
      assertEquals(19, niceOf(tid.get()));
      assertEquals(
          "/" + cgroup.getFileName(),
          MarcoCgroupV1Host.cpuCgroupOf("/proc/self/task/" + tid.get() + "/cgroup"));

      assertEquals(1, factory.raiseToContainerShare());
      assertEquals(containerNice, niceOf(tid.get()));
      raised.countDown();
      working.join();
      assertEquals(origin, where.get());

      AtomicReference<Integer> lateNice = new AtomicReference<>();
      AtomicReference<String> lateCgroup = new AtomicReference<>();
      Thread late =
          factory.newThread(
              () -> {
                lateNice.set(niceOf(MarcoCpuShareThreadFactory.currentThreadTid()));
                try {
                  lateCgroup.set(ownCpuCgroup());
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      late.start();
      late.join();
      assertEquals(containerNice, (int) lateNice.get());
      assertEquals(origin, lateCgroup.get());
    } finally {
      host.removeAll();
    }
  }
}
