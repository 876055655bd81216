/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The child processes this JVM starts while an action runs, read from Linux's per-thread {@code
 * children} lists in /proc. A child of the JVM shares or copies the JVM's memory until it has
 * replaced itself with its program, and Hadoop's process-tree accounting (the task's
 * physical-memory counters, the NodeManager's memory check) adds the child's resident size to the
 * JVM's: a sample in that moment counts the task twice.
 */
final class ChildProcessWatch {
  /** Something to run while the watch looks on. */
  interface Action {
    void run() throws Exception;
  }

  private ChildProcessWatch() {}

  /** Whether this kernel lists a thread's children (CONFIG_PROC_CHILDREN). */
  static boolean available() {
    return new File("/proc/thread-self/children").exists();
  }

  /** The process ids of this JVM's children now. */
  static Set<String> childrenOfThisJvm() {
    Set<String> children = new HashSet<>();
    File[] threads = new File("/proc/self/task").listFiles();
    for (File thread : threads == null ? new File[0] : threads) {
      try {
        String list =
            new String(
                Files.readAllBytes(new File(thread, "children").toPath()),
                StandardCharsets.US_ASCII);
        children.addAll(Arrays.asList(list.trim().split("\\s+")));
      } catch (IOException e) {
        // The thread has ended since the listing.
      }
    }
    children.remove("");
    return children;
  }

  /** A child as "pid: program and arguments", as far as /proc still had it when it was seen. */
  private static String describe(String pid) {
    try {
      byte[] cmdline = Files.readAllBytes(new File("/proc/" + pid + "/cmdline").toPath());
      return pid + ": " + new String(cmdline, StandardCharsets.UTF_8).replace('\0', ' ').trim();
    } catch (IOException e) {
      return pid + ": (ended)";
    }
  }

  /**
   * Runs {@code action} while a thread lists this JVM's children as fast as it can; returns every
   * child it saw, each as {@code "pid: command line"} (a child seen before and after it replaced
   * itself with its program appears twice).
   */
  static Set<String> childrenSeenDuring(Action action) throws Exception {
    AtomicBoolean done = new AtomicBoolean();
    Set<String> seen = ConcurrentHashMap.newKeySet();
    Thread watcher =
        new Thread(
            () -> {
              while (!done.get()) {
                for (String pid : childrenOfThisJvm()) {
                  seen.add(describe(pid));
                }
              }
            });
    watcher.start();
    try {
      action.run();
    } finally {
      done.set(true);
      watcher.join();
    }
    return seen;
  }
}
