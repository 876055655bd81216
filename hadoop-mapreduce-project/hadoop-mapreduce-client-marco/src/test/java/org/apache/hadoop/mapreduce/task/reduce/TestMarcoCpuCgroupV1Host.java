/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.mapreduce.task.reduce.MarcoCpuCgroup.Version;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * {@link MarcoCpuCgroup} on the host's cgroup v1 cpu hierarchy (skipped without one writable): a
 * thread and a child process really move into a new cgroup and back, as /proc shows.
 */
public class TestMarcoCpuCgroupV1Host {
  private final MarcoCgroupV1Host host = new MarcoCgroupV1Host();
  private Process child;

  @Before
  public void needsTheHierarchy() {
    MarcoCgroupV1Host.assumeWritable();
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
    MarcoCpuCgroup there = MarcoCpuCgroup.at(dir);
    MarcoCpuCgroup back = MarcoCpuCgroup.ofThisProcess(Version.V1);
    String origin = MarcoCgroupV1Host.cpuCgroupOf("/proc/thread-self/cgroup");
    AtomicReference<String> inside = new AtomicReference<>();
    AtomicReference<String> after = new AtomicReference<>();
    AtomicReference<String> callerMeanwhile = new AtomicReference<>();
    AtomicReference<Exception> failure = new AtomicReference<>();
    Thread t =
        new Thread(
            () -> {
              try {
                int tid = MarcoCpuShareThreadFactory.currentThreadTid();
                there.addThread(tid);
                inside.set(MarcoCgroupV1Host.cpuCgroupOf("/proc/thread-self/cgroup"));
                callerMeanwhile.set(MarcoCgroupV1Host.cpuCgroupOf("/proc/self/cgroup"));
                back.addThread(tid);
                after.set(MarcoCgroupV1Host.cpuCgroupOf("/proc/thread-self/cgroup"));
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
    String origin = MarcoCgroupV1Host.cpuCgroupOf("/proc/self/cgroup");
    child = new ProcessBuilder("sleep", "60").start();
    String childCgroup = "/proc/" + child.pid() + "/cgroup";
    assertEquals(origin, MarcoCgroupV1Host.cpuCgroupOf(childCgroup));
    MarcoCpuCgroup.at(dir).addProcess(child.pid());
    assertEquals("/" + dir.getFileName(), MarcoCgroupV1Host.cpuCgroupOf(childCgroup));
    assertEquals("this JVM stays", origin, MarcoCgroupV1Host.cpuCgroupOf("/proc/self/cgroup"));
    MarcoCpuCgroup.ofThisProcess(Version.V1).addProcess(child.pid());
    assertEquals(origin, MarcoCgroupV1Host.cpuCgroupOf(childCgroup));
  }
}
