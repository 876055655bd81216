/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import java.io.IOException;

/**
 * Sets the nice value of one thread of this JVM with setpriority(2), called through JNA (on the
 * classpath of every Hadoop 3.5 task), in this process. On Linux a Java thread is a kernel task,
 * and PRIO_PROCESS with its task id affects that thread only.
 *
 * <p>Why not the {@code renice} command: a child process started from the JVM is, until it has
 * replaced itself with {@code renice}, a copy sharing the JVM's memory, and Hadoop's process-tree
 * memory accounting (the task's {@code PHYSICAL_MEMORY_BYTES} counters, and the NodeManager's
 * physical memory check, which kills containers over their limit) adds its resident size to the
 * JVM's. A sample that fell into that moment counted the reduce JVM twice.
 */
final class MarcoThreadNice {
  /** The C library's setpriority; errno comes back as a {@link LastErrorException}. */
  public interface CLibrary extends Library {
    int setpriority(int which, int who, int prio) throws LastErrorException;
  }

  private static final int PRIO_PROCESS = 0;

  /** errno values setpriority(2) fails with where the caller lacks the right. */
  private static final int EPERM = 1;

  private static final int EACCES = 13;

  private static final String JNA_PLATFORM_LIBRARY_PATH = "jna.platform.library.path";

  private static final String GLIBC_SONAME = "libc.so.6";

  /** Loaded on first use; guarded by the class. */
  private static CLibrary libc;

  private MarcoThreadNice() {}

  /**
   * Sets thread {@code tid}'s nice value.
   *
   * @throws IOException naming why it could not: no native library, or the kernel's refusal (a
   *     nice value lower than the thread has needs CAP_SYS_NICE or RLIMIT_NICE)
   */
  static void set(int tid, int nice) throws IOException {
    try {
      libc().setpriority(PRIO_PROCESS, tid, nice);
    } catch (LastErrorException e) {
      int errno = e.getErrorCode();
      throw new IOException(
          "setpriority("
              + tid
              + ", "
              + nice
              + ") failed with errno "
              + errno
              + (errno == EPERM || errno == EACCES ? " (not permitted)" : ""),
          e);
    } catch (UnsatisfiedLinkError e) {
      throw new IOException("JNA cannot call the C library's setpriority: " + e, e);
    }
  }

  private static synchronized CLibrary libc() {
    if (libc == null) {
      // Unless told where the platform's libraries are, JNA asks /sbin/ldconfig, a child process,
      // when it first loads one. The C library, named by its soname, needs no search path: the
      // dynamic loader finds it.
      if (System.getProperty(JNA_PLATFORM_LIBRARY_PATH) == null) {
        System.setProperty(JNA_PLATFORM_LIBRARY_PATH, "");
      }
      libc = Native.load(GLIBC_SONAME, CLibrary.class);
    }
    return libc;
  }
}
