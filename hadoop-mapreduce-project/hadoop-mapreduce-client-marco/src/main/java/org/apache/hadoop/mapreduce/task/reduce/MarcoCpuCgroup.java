/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * One cpu cgroup directory, of cgroup v1 or v2, that a thread or a whole process of this JVM can
 * be moved into; and the cpu cgroup this process is in now, to come back to.
 *
 * <p>v1 keeps each controller in a hierarchy of its own and moves single threads freely
 * ({@code tasks}); a process ({@code cgroup.procs}) moves with all its threads. v2 has one
 * hierarchy for every controller, recognised by its {@code cgroup.controllers} file; a process
 * moves with all its threads ({@code cgroup.procs}) and a single thread ({@code cgroup.threads})
 * only into a threaded cgroup of the threaded subtree its process is in.
 */
final class MarcoCpuCgroup {
  enum Version {
    V1,
    V2
  }

  static final String PROCS = "cgroup.procs";
  private static final String V1_THREADS = "tasks";
  private static final String V2_THREADS = "cgroup.threads";
  private static final String V2_MARKER = "cgroup.controllers";
  private static final String V2_TYPE = "cgroup.type";

  private final Path dir;
  private final Version version;

  private MarcoCpuCgroup(Path dir, Version version) {
    this.dir = dir;
    this.version = version;
  }

  /** The cgroup at {@code dir}, of the version its files show (v1 where it has none). */
  static MarcoCpuCgroup at(Path dir) {
    return new MarcoCpuCgroup(dir, Files.exists(dir.resolve(V2_MARKER)) ? Version.V2 : Version.V1);
  }

  Path dir() {
    return dir;
  }

  Version version() {
    return version;
  }

  /**
   * Moves the thread with kernel task id {@code tid} here.
   *
   * @throws IOException naming the cause: no such cgroup, no permission, or (v2) not a threaded
   *     cgroup of the thread's own threaded subtree
   */
  void addThread(int tid) throws IOException {
    if (version == Version.V2) {
      String type =
          new String(Files.readAllBytes(dir.resolve(V2_TYPE)), StandardCharsets.US_ASCII).trim();
      if (!type.equals("threaded")) {
        throw new IOException(
            dir
                + " is a v2 cgroup of type '"
                + type
                + "', and v2 moves "
                + "a single thread only into a threaded cgroup (echo threaded > "
                + dir.resolve(V2_TYPE)
                + ")");
      }
    }
    write(version == Version.V1 ? V1_THREADS : V2_THREADS, tid);
  }

  /** Moves the process {@code pid} with all its threads here (v1 and v2 alike). */
  void addProcess(long pid) throws IOException {
    write(PROCS, pid);
  }

  /**
   * Whether this process may move itself here from {@code source}, as far as file permissions
   * tell: v1 needs write access to this cgroup's {@code cgroup.procs}; v2 also to the one of the
   * nearest cgroup above both (its rule for delegated subtrees).
   */
  boolean mayTakeProcessFrom(MarcoCpuCgroup source) {
    if (!Files.isWritable(dir.resolve(PROCS))) {
      return false;
    }
    if (version == Version.V1) {
      return true;
    }
    Path common = dir.toAbsolutePath().normalize();
    Path other = source.dir.toAbsolutePath().normalize();
    while (common != null && !other.startsWith(common)) {
      common = common.getParent();
    }
    return common != null && Files.isWritable(common.resolve(PROCS));
  }

  // WRITE without CREATE: a directory that is no cgroup has no such file, and gets none.
  private void write(String file, long id) throws IOException {
    Files.write(
        dir.resolve(file),
        (id + "\n").getBytes(StandardCharsets.US_ASCII),
        StandardOpenOption.WRITE);
  }

  /**
   * The cpu cgroup this process is in now: in the v1 hierarchy with the cpu controller where the
   * process has one mounted, else in v2.
   */
  static MarcoCpuCgroup ofThisProcess() throws IOException {
    try {
      return ofThisProcess(Version.V1);
    } catch (IOException v1) {
      try {
        return ofThisProcess(Version.V2);
      } catch (IOException v2) {
        v2.addSuppressed(v1);
        throw v2;
      }
    }
  }

  /** The cpu cgroup of {@code version} that this process is in now. */
  static MarcoCpuCgroup ofThisProcess(Version version) throws IOException {
    return of(version, read("/proc/self/cgroup"), read("/proc/self/mountinfo"));
  }

  private static String read(String file) throws IOException {
    try {
      return new String(Files.readAllBytes(Paths.get(file)), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new IOException("no " + file + " (not Linux?)", e);
    }
  }

  /**
   * The cpu cgroup of {@code version} named in {@code procCgroup} (the text of /proc/PID/cgroup),
   * as a directory of one of its mounts in {@code mountinfo} (the text of /proc/PID/mountinfo).
   *
   * @throws IOException where the process has no such cgroup or it is not mounted
   */
  static MarcoCpuCgroup of(Version version, String procCgroup, String mountinfo)
      throws IOException {
    String path = cgroupPath(version, procCgroup);
    Path dir = directory(version, path, mountinfo);
    return new MarcoCpuCgroup(dir, version);
  }

  /**
   * The path of the process's cgroup in the v1 hierarchy with the cpu controller
   * ({@code 4:cpu,cpuacct:/yarn/c1}), or in the v2 hierarchy ({@code 0::/yarn/c1}).
   */
  static String cgroupPath(Version version, String procCgroup) throws IOException {
    for (String line : procCgroup.split("\n")) {
      String[] f = line.split(":", 3);
      if (f.length < 3) {
        continue;
      }
      boolean match =
          version == Version.V2
              ? f[0].equals("0") && f[1].isEmpty()
              : Arrays.asList(f[1].split(",")).contains("cpu");
      if (match) {
        return f[2].trim();
      }
    }
    throw new IOException("this process is in no " + describe(version) + " (/proc/self/cgroup)");
  }

  /**
   * Where cgroup {@code path} of {@code version} is mounted, from mountinfo lines such as
   * {@code 32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu} (v1 with cpu) or
   * {@code 41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw} (v2). A mount of a
   * subtree (root field other than /) serves the cgroups below that root.
   */
  static Path directory(Version version, String path, String mountinfo) throws IOException {
    for (String line : mountinfo.split("\n")) {
      String[] f = line.split(" ");
      int dash = Arrays.asList(f).indexOf("-");
      if (dash < 5 || dash + 3 >= f.length) {
        continue;
      }
      String type = f[dash + 1];
      boolean hierarchy =
          version == Version.V2
              ? type.equals("cgroup2")
              : type.equals("cgroup") && Arrays.asList(f[dash + 3].split(",")).contains("cpu");
      String root = unescape(f[3]);
      boolean below = root.equals("/") || path.equals(root) || path.startsWith(root + "/");
      if (hierarchy && below) {
        String relative = root.equals("/") ? path : path.substring(root.length());
        return Paths.get(unescape(f[4]), relative.replaceFirst("^/+", ""));
      }
    }
    throw new IOException(
        "no mount of the " + describe(version) + " " + path + " (/proc/self/mountinfo)");
  }

  private static String describe(Version version) {
    return version == Version.V2 ? "cgroup v2 hierarchy" : "cgroup v1 hierarchy with cpu";
  }

  /** mountinfo writes space, tab, newline and backslash as octal escapes ({@code \040}). */
  private static String unescape(String field) {
    StringBuilder s = new StringBuilder(field.length());
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '\\'
          && i + 3 < field.length()
          && field.substring(i + 1, i + 4).matches("[0-7]{3}")) {
        s.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        s.append(c);
      }
    }
    return s.toString();
  }
}
