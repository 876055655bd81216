/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;

/** The bytes of a job's output: its {@code part-*} files concatenated in file-name order. */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class JobOutput {
  private final Path dir;
  private final byte[] bytes;
  private final int partFiles;

  private JobOutput(Path dir, byte[] bytes, int partFiles) {
    this.dir = dir;
    this.bytes = bytes;
    this.partFiles = partFiles;
  }

  /** Reads every {@code part-*} file of {@code dir}; fails if there is none. */
  public static JobOutput read(FileSystem fs, Path dir) throws IOException {
    FileStatus[] parts = fs.listStatus(dir, p -> p.getName().startsWith("part-"));
    if (parts.length == 0) {
      throw new IOException("Job output " + dir + " has no part-* files");
    }
    Arrays.sort(parts, (a, b) -> a.getPath().getName().compareTo(b.getPath().getName()));
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (FileStatus part : parts) {
      try (InputStream in = fs.open(part.getPath())) {
        IOUtils.copyBytes(in, all, 64 * 1024, false);
      }
    }
    return new JobOutput(dir, all.toByteArray(), parts.length);
  }

  public Path dir() {
    return dir;
  }

  public byte[] bytes() {
    return bytes;
  }

  public int partFiles() {
    return partFiles;
  }

  /** The output as UTF-8 text (the test jobs write text). */
  public String text() {
    return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
  }
}
