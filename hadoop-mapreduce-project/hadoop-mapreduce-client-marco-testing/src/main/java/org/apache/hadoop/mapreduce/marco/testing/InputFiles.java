/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.testing;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Writes job input: one text file per entry, so each file is one split and one map task
 * (files are far below the block size). An empty entry writes an empty file, whose map task
 * produces a zero-record map output for every reducer.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class InputFiles {
  private InputFiles() {}

  /** Writes {@code files.get(i)} as lines of {@code dir/input-NNN.txt}; replaces the directory. */
  public static void write(FileSystem fs, Path dir, List<List<String>> files) throws IOException {
    fs.delete(dir, true);
    fs.mkdirs(dir);
    for (int i = 0; i < files.size(); i++) {
      Path file = new Path(dir, String.format("input-%03d.txt", i));
      try (Writer out = new OutputStreamWriter(fs.create(file), StandardCharsets.UTF_8)) {
        for (String line : files.get(i)) {
          out.write(line);
          out.write('\n');
        }
      }
    }
  }
}
