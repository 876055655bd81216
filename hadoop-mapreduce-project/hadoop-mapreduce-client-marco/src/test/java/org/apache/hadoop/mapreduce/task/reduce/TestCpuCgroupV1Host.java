/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.mapreduce.task.reduce.CpuCgroup.Version;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * {@link CpuCgroup} on the host's cgroup v1 cpu hierarchy (skipped without one writable): a
 * thread and a child process really move into a new cgroup and back, as /proc shows.
 */
public class TestCpuCgroupV1Host {
  private final CgroupV1Host host = new CgroupV1Host();
  private Process child;

  @Before
  public void needsTheHierarchy() {
    CgroupV1Host.assumeWritable();
  }

  @After
  public void removeWhatWasMade() throws InterruptedException {
    if (child != null) {
      child.destroyForcibly();
      child.waitFor();
    }
    host.removeAll();
  }

  @Test
  public void aThreadMovesThereAndBackAloneOthersStay() throws Exception {
    Path dir = host.create("thread");
    CpuCgroup there = CpuCgroup.at(dir);
    CpuCgroup back = CpuCgroup.ofThisProcess(Version.V1);
    String origin = CgroupV1Host.cpuCgroupOf("/proc/thread-self/cgroup");
    AtomicReference<String> inside = new AtomicReference<>();
    AtomicReference<String> after = new AtomicReference<>();
    AtomicReference<String> callerMeanwhile = new AtomicReference<>();
    AtomicReference<Exception> failure = new AtomicReference<>();
    Thread t =
        new Thread(
            () -> {
              try {
                int tid = CpuShareThreadFactory.currentThreadTid();
                there.addThread(tid);
                inside.set(CgroupV1Host.cpuCgroupOf("/proc/thread-self/cgroup"));
                callerMeanwhile.set(CgroupV1Host.cpuCgroupOf("/proc/self/cgroup"));
                back.addThread(tid);
                after.set(CgroupV1Host.cpuCgroupOf("/proc/thread-self/cgroup"));
              } catch (Exception e) {
                failure.set(e);
              }
            });
    t.start();
    t.join();
    assertNull(failure.get());
    assertEquals("/" + dir.getFileName(), inside.get());
    assertEquals("the main thread stays", origin, callerMeanwhile.get());
    assertEquals(origin, after.get());
  }

  @Test
  public void aProcessMovesThereAndBack() throws Exception {
    Path dir = host.create("process");
    String origin = CgroupV1Host.cpuCgroupOf("/proc/self/cgroup");
    child = new ProcessBuilder("sleep", "60").start();
    String childCgroup = "/proc/" + child.pid() + "/cgroup";
    assertEquals(origin, CgroupV1Host.cpuCgroupOf(childCgroup));
    CpuCgroup.at(dir).addProcess(child.pid());
    assertEquals("/" + dir.getFileName(), CgroupV1Host.cpuCgroupOf(childCgroup));
    assertEquals("this JVM stays", origin, CgroupV1Host.cpuCgroupOf("/proc/self/cgroup"));
    CpuCgroup.ofThisProcess(Version.V1).addProcess(child.pid());
    assertEquals(origin, CgroupV1Host.cpuCgroupOf(childCgroup));
  }
}
