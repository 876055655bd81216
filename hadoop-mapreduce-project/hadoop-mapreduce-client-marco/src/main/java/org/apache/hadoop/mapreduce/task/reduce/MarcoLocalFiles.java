/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.nio.file.Files;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.io.nativeio.NativeIO;

/**
 * Creates the engine's local files (partial runs, spills, map outputs fetched to disk) without
 * starting a process. Without Hadoop's native library (the Maven Central jars have none),
 * RawLocalFileSystem sets each new file's permission by running chmod: the JVM forks, and until
 * the child has replaced itself with its program it shares the JVM's memory, which Hadoop's
 * process-tree accounting (the task's physical-memory counters, the NodeManager's memory check)
 * adds to the task's, so a sample in that moment counts the reduce twice. A MaRCO reduce writes
 * a local file for every partial run and every fetch that goes to disk. Here the JVM creates (or
 * empties) the file and any missing parent directory itself, with the modes new files and
 * directories get under the process umask (not Hadoop's fs.permissions.umask-mode; a file already
 * there keeps its mode: only this task reads them), and the file system then opens the file for
 * append, which sets no permission; its bytes still count in the file system's statistics (the
 * task's FILE_BYTES_WRITTEN).
 */
final class MarcoLocalFiles {
  private MarcoLocalFiles() {}

  /** Creates {@code path} and its parent directories, replacing a file already there. */
  static FSDataOutputStream create(FileSystem fs, Path path) throws IOException {
    if (!(fs instanceof RawLocalFileSystem) || NativeIO.isAvailable()) {
      return fs.create(path);
    }
    java.nio.file.Path file = ((RawLocalFileSystem) fs).pathToFile(path).toPath();
    // Hadoop's mkdirs sets a new directory's permission with chmod as well.
    Files.createDirectories(file.getParent());
    Files.newOutputStream(file).close();
    return fs.append(path);
  }
}
