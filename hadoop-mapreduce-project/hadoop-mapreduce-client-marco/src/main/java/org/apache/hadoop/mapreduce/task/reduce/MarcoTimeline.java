/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-reduce event timeline (arrivals, invocations, stop point, shuffle end, final merge),
 * one JSON object per line: {@code {"ts":<epoch ms>,"event":"arrival","map":"attempt_..",...}}.
 * Written to the container log directory ({@code marco-timeline.jsonl}) and, when
 * {@code mapreduce.marco.timeline.dir} is set, to {@code <dir>/<job id>/<attempt id>.jsonl}. That
 * copy goes to a file system, often HDFS, whose write takes hundreds of milliseconds on a busy
 * cluster: it runs in the background, beside the reducer, and the shuffle plugin's close waits
 * for it ({@link #awaitCopy}).
 */
final class MarcoTimeline {
  private static final Logger LOG = LoggerFactory.getLogger(MarcoTimeline.class);
  static final String LOCAL_FILE_NAME = "marco-timeline.jsonl";

  /** The suffix of a copy still being written, Hadoop's own. */
  static final String COPYING_SUFFIX = "._COPYING_";

  /** How long the task waits, after its reducer, for the copy to end before it goes on. */
  static final long COPY_WAIT_MILLIS = 60_000;

  private final List<String> lines = new ArrayList<>();

  /** The copy to {@code mapreduce.marco.timeline.dir} started by {@link #write}, or null. */
  private volatile Thread copy;

  /** Records an event with attribute name/value pairs (numbers and booleans unquoted). */
  synchronized void event(String type, Object... attributes) {
    StringBuilder json = new StringBuilder(96);
    json.append("{\"ts\":").append(System.currentTimeMillis());
    json.append(",\"event\":\"").append(type).append('"');
    for (int i = 0; i + 1 < attributes.length; i += 2) {
      json.append(",\"").append(attributes[i]).append("\":");
      Object value = attributes[i + 1];
      if (value instanceof Number || value instanceof Boolean) {
        json.append(value);
      } else {
        json.append('"').append(escape(String.valueOf(value))).append('"');
      }
    }
    lines.add(json.append('}').toString());
  }

  synchronized List<String> events() {
    return new ArrayList<>(lines);
  }

  private static String escape(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"");
  }

  /**
   * Writes the timeline to the container log directory, and starts its copy to {@code
   * timelineDir} unless that is empty; a failure is logged, never fails the task.
   */
  void write(Configuration conf, TaskAttemptID reduceId, String timelineDir) {
    byte[] bytes = (String.join("\n", events()) + "\n").getBytes(StandardCharsets.UTF_8);
    String logDir = System.getProperty("yarn.app.container.log.dir");
    if (logDir != null) {
      try {
        Files.write(new File(logDir, LOCAL_FILE_NAME).toPath(), bytes);
      } catch (IOException e) {
        LOG.warn("MaRCO: could not write the timeline to {}", logDir, e);
      }
    }
    if (timelineDir.isEmpty()) {
      return;
    }
    Path target =
        new Path(new Path(timelineDir, reduceId.getJobID().toString()), reduceId + ".jsonl");
    Thread thread = new Thread(() -> copy(conf, target, bytes), "MaRCO timeline copy");
    // Not a daemon: where the reducer throws, Hadoop skips the plugin's close, and the JVM then
    // ends once its last non-daemon thread does; a daemon copy would be cut off halfway.
    thread.setDaemon(false);
    thread.start();
    copy = thread;
  }

  /**
   * Writes {@code bytes} to {@code target} by way of {@code <target>._COPYING_}, as {@code hdfs
   * dfs -put} does: a copy cut off halfway is never mistaken for a timeline.
   */
  private static void copy(Configuration conf, Path target, byte[] bytes) {
    Path copying = target.suffix(COPYING_SUFFIX);
    FileSystem fs = null;
    try {
      fs = target.getFileSystem(conf);
      try (OutputStream out = fs.create(copying, true)) {
        out.write(bytes);
      }
      fs.delete(target, false);
      if (!fs.rename(copying, target)) {
        throw new IOException("could not rename " + copying + " to " + target);
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "MaRCO: could not write the timeline to {} (check mapreduce.marco.timeline.dir and its"
              + " permissions)",
          target,
          e);
      removeQuietly(fs, copying);
    }
  }

  private static void removeQuietly(FileSystem fs, Path path) {
    if (fs == null) {
      return;
    }
    try {
      fs.delete(path, false);
    } catch (IOException | RuntimeException e) {
      LOG.warn("MaRCO: could not remove the unfinished timeline copy {}", path, e);
    }
  }

  /**
   * Waits for the copy {@link #write} started, if any, at most {@code millis}; one still running
   * then is logged and left to finish on its own (the JVM waits for it before it exits). Returns
   * whether no copy runs.
   */
  boolean awaitCopy(long millis) throws InterruptedException {
    Thread thread = copy;
    if (thread == null) {
      return true;
    }
    thread.join(millis);
    if (thread.isAlive()) {
      LOG.warn(
          "MaRCO: the timeline copy to mapreduce.marco.timeline.dir still runs after {} ms; the"
              + " task goes on without it",
          millis);
      return false;
    }
    return true;
  }
}
