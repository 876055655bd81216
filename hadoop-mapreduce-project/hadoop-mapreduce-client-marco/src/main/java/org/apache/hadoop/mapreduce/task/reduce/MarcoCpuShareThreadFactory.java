/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Threads born at a chosen CPU share: each sets its own Linux scheduling priority (nice) when it
 * starts and may join a cpu cgroup. The partial sort/reduce threads start low, so maps on the
 * node win the CPU (paper section 3.2); the memory-spill thread starts at the container's own
 * share (nice 0, no cgroup), because fetchers wait for it. On Linux a Java thread is a task
 * with its own id, and setpriority on that id affects that thread only. Nice only ranks threads
 * of one scheduling group, though, and YARN containers each get their own: so the threads can
 * also join a low-share cpu cgroup shared by all partial threads of the node
 * ({@link MarcoConfig#PARTIAL_CPU_CGROUP}), of cgroup v1 or v2 ({@link MarcoCpuCgroup}).
 */
final class MarcoCpuShareThreadFactory implements ThreadFactory {
  private static final Logger LOG = LoggerFactory.getLogger(MarcoCpuShareThreadFactory.class);

  private final String namePrefix;
  private final int nice;

  /** Null for none. */
  private final MarcoCpuCgroup cpuCgroup;

  /** One WARN per factory (per reduce) where threads cannot join: they all fail alike. */
  private final AtomicBoolean cgroupWarned = new AtomicBoolean();

  private final AtomicInteger count = new AtomicInteger();

  /** {@code cpuCgroup}: a cpu cgroup directory the threads join, empty for none. */
  MarcoCpuShareThreadFactory(String namePrefix, int nice, String cpuCgroup) {
    this.namePrefix = namePrefix;
    this.nice = nice;
    this.cpuCgroup = cpuCgroup.isEmpty() ? null : MarcoCpuCgroup.at(Paths.get(cpuCgroup));
  }

  @Override
  public Thread newThread(Runnable work) {
    Thread t =
        new Thread(
            () -> {
              lowerOwnPriority(nice);
              joinCpuCgroup();
              work.run();
            },
            namePrefix + "-" + count.incrementAndGet());
    t.setDaemon(true);
    return t;
  }

  /** The kernel task id of the calling thread, or -1 where /proc/thread-self does not exist. */
  static int currentThreadTid() {
    try {
      Path self = Files.readSymbolicLink(Paths.get("/proc/thread-self"));
      return Integer.parseInt(self.getFileName().toString());
    } catch (IOException | UnsupportedOperationException | NumberFormatException e) {
      return -1;
    }
  }

  /**
   * Moves the calling thread (only it) into the cpu cgroup; logs and carries on at its
   * container's share where that is impossible.
   */
  private void joinCpuCgroup() {
    if (cpuCgroup == null) {
      return;
    }
    Path dir = cpuCgroup.dir();
    int tid = currentThreadTid();
    try {
      if (tid < 0) {
        throw new IOException("no /proc/thread-self on this OS");
      }
      cpuCgroup.addThread(tid);
      LOG.info("MaRCO: partial thread {} joined cpu cgroup {}", tid, dir);
    } catch (IOException e) {
      if (cgroupWarned.compareAndSet(false, true)) {
        LOG.warn(
            "MaRCO: partial threads cannot join cpu cgroup {} ({}); they compete at their"
                + " container's share. Fix: {}, or unset {}",
            dir,
            e,
            fix(cpuCgroup),
            MarcoConfig.PARTIAL_CPU_CGROUP);
      }
    }
  }

  private static String fix(MarcoCpuCgroup cgroup) {
    Path dir = cgroup.dir();
    if (cgroup.version() == MarcoCpuCgroup.Version.V2) {
      return "make it a threaded child of the "
          + MarcoConfig.SHUFFLE_CPU_CGROUP
          + " cgroup "
          + "(cgroup v2 moves a thread only within its process's threaded subtree, and a "
          + "container's cgroup has none) on every NodeManager host (mkdir "
          + dir
          + " && echo threaded > "
          + dir
          + "/cgroup.type && echo +cpu > "
          + dir.getParent()
          + "/cgroup.subtree_control && echo 1 > "
          + dir
          + "/cpu.weight)";
    }
    return "create it on every NodeManager host (mkdir "
        + dir
        + " && echo 2 > "
        + dir
        + "/cpu.shares), its tasks file writable by the task user";
  }

  /** Sets the calling thread's nice value; logs and carries on where that is impossible. */
  static void lowerOwnPriority(int nice) {
    if (nice == 0) {
      return;
    }
    int tid = currentThreadTid();
    if (tid < 0) {
      LOG.warn(
          "MaRCO: cannot lower the priority of partial threads on this OS (no "
              + "/proc/thread-self); they run at normal priority");
      return;
    }
    try {
      Process renice =
          new ProcessBuilder("renice", "-n", Integer.toString(nice), "-p", Integer.toString(tid))
              .redirectErrorStream(true)
              .start();
      String output = new String(renice.getInputStream().readAllBytes()).trim();
      if (!renice.waitFor(10, TimeUnit.SECONDS) || renice.exitValue() != 0) {
        LOG.warn(
            "MaRCO: renice of partial thread {} failed ({}); it runs at normal priority",
            tid,
            output);
      }
    } catch (IOException e) {
      LOG.warn(
          "MaRCO: cannot run renice ({}); partial threads run at normal priority. Install"
              + " util-linux on the NodeManagers.",
          e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
