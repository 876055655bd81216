/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertFalse;
import static org.junit.Assume.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.mapreduce.task.reduce.MarcoCpuCgroup.Version;

/**
 * The host's cgroup v1 cpu hierarchy for tests that really move threads and processes: uniquely
 * named cgroups that {@link #removeAll} takes away again, and where a task is, read from /proc.
 */
final class MarcoCgroupV1Host {
  static final Path CPU_ROOT = Paths.get("/sys/fs/cgroup/cpu");

  private final List<Path> made = new ArrayList<>();

  /** Skips the calling test unless this is Linux with a v1 cpu hierarchy writable by us. */
  static void assumeWritable() {
    assumeTrue(
        "root and a cgroup v1 cpu hierarchy at " + CPU_ROOT,
        new File("/proc/thread-self").exists()
            && Files.isWritable(CPU_ROOT.resolve(MarcoCpuCgroup.PROCS)));
  }

  /** A new cgroup under {@link #CPU_ROOT}; its path in the hierarchy is "/" + its file name. */
  Path create(String role) throws IOException {
    Path dir =
        CPU_ROOT.resolve(
            "marco-test-" + role + "-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
    Files.createDirectory(dir);
    made.add(dir);
    return dir;
  }

  /** The v1 cpu cgroup path of a task, from its /proc/.../cgroup file. */
  static String cpuCgroupOf(String procCgroupFile) throws IOException {
    return MarcoCpuCgroup.cgroupPath(
        Version.V1,
        new String(Files.readAllBytes(Paths.get(procCgroupFile)), StandardCharsets.US_ASCII));
  }

  /** The v1 cpu cgroup path of every thread of this JVM. */
  static List<String> cpuCgroupsOfAllThreads() throws IOException {
    List<String> paths = new ArrayList<>();
    for (File task : new File("/proc/self/task").listFiles()) {
      try {
        paths.add(cpuCgroupOf(task + "/cgroup"));
      } catch (IOException e) {
        // a thread that ended meanwhile
      }
    }
    return paths;
  }

  /** Removes every cgroup made; a task that just ended may keep one busy for a moment. */
  void removeAll() throws InterruptedException {
    for (Path dir : made) {
      for (int i = 0; i < 50 && !new File(dir.toString()).delete(); i++) {
        Thread.sleep(100);
      }
      assertFalse("cgroup left behind: " + dir, Files.exists(dir));
    }
    made.clear();
  }
}
