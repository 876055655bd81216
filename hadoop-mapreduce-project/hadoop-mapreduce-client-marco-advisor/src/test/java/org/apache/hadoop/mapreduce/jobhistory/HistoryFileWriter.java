/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.jobhistory;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Writes job history files with Hadoop's own EventWriter, as the AppMaster does; in this package
 * because EventWriter's write is package-private.
 */
public final class HistoryFileWriter {
  private HistoryFileWriter() {}

  public static void write(
      FileSystem fs, Path file, EventWriter.WriteMode mode, List<HistoryEvent> events)
      throws IOException {
    EventWriter writer = new EventWriter(fs.create(file, true), mode);
    try {
      for (HistoryEvent event : events) {
        writer.write(event);
      }
    } finally {
      writer.close();
    }
  }
}
