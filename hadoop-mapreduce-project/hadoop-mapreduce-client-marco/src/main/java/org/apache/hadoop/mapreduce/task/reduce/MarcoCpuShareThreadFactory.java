/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
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
 * ({@link MarcoConfig#PARTIAL_CPU_CGROUP}), of cgroup v1 or v2 ({@link MarcoCpuCgroup}). A
 * relative path names a child of the cpu cgroup the JVM is in when the first thread starts.
 *
 * <p>At shuffle end what still runs on the partial threads is on the final merge's critical path,
 * so {@link #raiseToContainerShare} brings them back to the container's share.
 */
final class MarcoCpuShareThreadFactory implements ThreadFactory {
  private static final Logger LOG = LoggerFactory.getLogger(MarcoCpuShareThreadFactory.class);

  private final String namePrefix;
  private final int nice;

  /** The cgroup as configured: absolute, relative to this JVM's cpu cgroup, or empty. */
  private final String cpuCgroupPath;

  /** The cgroup the threads join, resolved when the first one starts, or null; guarded by this. */
  private MarcoCpuCgroup cpuCgroup;

  /** Whether {@link #cpuCgroup} has been resolved; guarded by this. */
  private boolean cpuCgroupResolved;

  /** One WARN per factory (per reduce) where threads cannot join: they all fail alike. */
  private final AtomicBoolean cgroupWarned = new AtomicBoolean();

  private final AtomicInteger count = new AtomicInteger();

  /**
   * Kernel task ids of the threads that took the lower share, with the nice value each had
   * before; guarded by this.
   */
  private final Map<Integer, Integer> lowered = new LinkedHashMap<>();

  /** Set once the threads are back at the container's share; guarded by this. */
  private boolean raised;

  /**
   * {@code cpuCgroup}: a cpu cgroup directory the threads join, absolute or relative to this
   * JVM's cpu cgroup, empty for none.
   */
  MarcoCpuShareThreadFactory(String namePrefix, int nice, String cpuCgroup) {
    this.namePrefix = namePrefix;
    this.nice = nice;
    this.cpuCgroupPath = cpuCgroup;
  }

  @Override
  public Thread newThread(Runnable work) {
    Thread t =
        new Thread(
            () -> {
              takeLowerShare();
              work.run();
            },
            namePrefix + "-" + count.incrementAndGet());
    t.setDaemon(true);
    return t;
  }

  /** Lowers the calling thread's share, unless the threads were raised before it got here. */
  private synchronized void takeLowerShare() {
    if (raised || (nice == 0 && cpuCgroupPath.isEmpty())) {
      return;
    }
    int tid = currentThreadTid();
    int before = tid < 0 ? 0 : niceOf(tid);
    lowerOwnPriority(nice);
    joinCpuCgroup();
    if (tid >= 0) {
      lowered.put(tid, before);
    }
  }

  /**
   * Brings every thread of this factory back to the container's share, for good: the nice value
   * it had before, and on cgroup v1 back into this process's own cpu cgroup. On v2 the move of
   * the whole JVM out of the shuffle cgroup at shuffle end has already taken them out of the
   * partial cgroup, its threaded child. Raising a nice value needs CAP_SYS_NICE (or RLIMIT_NICE);
   * without it the threads keep their low priority, which then only ranks them against their own
   * container's threads.
   *
   * @return how many threads were raised
   */
  synchronized int raiseToContainerShare() {
    raised = true;
    MarcoCpuCgroup origin = null;
    if (cpuCgroup != null && cpuCgroup.version() == MarcoCpuCgroup.Version.V1) {
      try {
        origin = MarcoCpuCgroup.ofThisProcess(MarcoCpuCgroup.Version.V1);
      } catch (IOException e) {
        LOG.warn("MaRCO: partial threads cannot leave cpu cgroup {} ({})", cpuCgroup.dir(), e);
      }
    }
    for (Map.Entry<Integer, Integer> thread : lowered.entrySet()) {
      int tid = thread.getKey();
      if (origin != null) {
        try {
          origin.addThread(tid);
        } catch (IOException e) {
          LOG.warn(
              "MaRCO: partial thread {} cannot go back to cpu cgroup {} ({}); it keeps the share"
                  + " of {}",
              tid,
              origin.dir(),
              e,
              cpuCgroup.dir());
        }
      }
      if (nice != thread.getValue()) {
        setNice(tid, thread.getValue());
      }
    }
    int n = lowered.size();
    lowered.clear();
    return n;
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
   * The cgroup to join, resolved once, when the first thread starts: a relative path against the
   * cpu cgroup this process is in then. Null for none, or where this process's own cannot be
   * found (logged).
   */
  private MarcoCpuCgroup cpuCgroup() {
    if (!cpuCgroupResolved) {
      cpuCgroupResolved = true;
      cpuCgroup = resolve(cpuCgroupPath);
    }
    return cpuCgroup;
  }

  private MarcoCpuCgroup resolve(String path) {
    if (path.isEmpty()) {
      return null;
    }
    if (path.startsWith("/")) {
      return MarcoCpuCgroup.at(Paths.get(path));
    }
    try {
      return MarcoCpuCgroup.at(MarcoCpuCgroup.ofThisProcess().dir().resolve(path));
    } catch (IOException e) {
      LOG.warn(
          "MaRCO: partial threads cannot join cpu cgroup {} below this JVM's own ({}); they"
              + " compete at their container's share. Fix: give {} an absolute path, or unset it",
          path,
          e.getMessage(),
          MarcoConfig.PARTIAL_CPU_CGROUP);
      return null;
    }
  }

  /**
   * Moves the calling thread (only it) into the cpu cgroup; logs and carries on at its
   * container's share where that is impossible.
   */
  private void joinCpuCgroup() {
    MarcoCpuCgroup cpuCgroup = cpuCgroup();
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

  /** The nice value of thread {@code tid} of this JVM (0 where /proc cannot tell). */
  static int niceOf(int tid) {
    try {
      String stat =
          new String(
              Files.readAllBytes(Paths.get("/proc/self/task/" + tid + "/stat")),
              StandardCharsets.US_ASCII);
      // Fields after the command name, which is in parentheses and may hold spaces: nice is 19th.
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Integer.parseInt(fields[16]);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
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
    setNice(tid, nice);
  }

  /**
   * Sets the nice value of thread {@code tid} of this JVM, to lower its priority or raise it back,
   * without starting a process ({@link MarcoThreadNice}); logs and carries on where that is
   * impossible.
   */
  private static void setNice(int tid, int nice) {
    try {
      MarcoThreadNice.set(tid, nice);
    } catch (IOException | LinkageError e) {
      LOG.warn(
          "MaRCO: cannot set the nice value of partial thread {} to {} ({}); {}",
          tid,
          nice,
          e instanceof IOException
              ? e.getMessage()
              // Thrown where MarcoThreadNice is first linked on a classpath without it.
              : "JNA (com.sun.jna, shipped with Hadoop) is not on the task's classpath: " + e,
          nice < niceOf(tid)
              ? "it keeps its low priority (raising one needs CAP_SYS_NICE)"
              : "it runs at normal priority");
    }
  }
}
