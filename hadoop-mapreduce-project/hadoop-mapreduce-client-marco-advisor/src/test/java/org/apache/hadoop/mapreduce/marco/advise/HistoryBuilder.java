/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.advise;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.jobhistory.EventWriter;
import org.apache.hadoop.mapreduce.jobhistory.HistoryEvent;
import org.apache.hadoop.mapreduce.jobhistory.HistoryFileWriter;
import org.apache.hadoop.mapreduce.jobhistory.JobFinishedEvent;
import org.apache.hadoop.mapreduce.jobhistory.JobInitedEvent;
import org.apache.hadoop.mapreduce.jobhistory.JobSubmittedEvent;
import org.apache.hadoop.mapreduce.jobhistory.MapAttemptFinishedEvent;
import org.apache.hadoop.mapreduce.jobhistory.ReduceAttemptFinishedEvent;
import org.apache.hadoop.mapreduce.jobhistory.TaskAttemptStartedEvent;
import org.apache.hadoop.mapreduce.jobhistory.TaskAttemptUnsuccessfulCompletionEvent;
import org.apache.hadoop.mapreduce.jobhistory.TaskFinishedEvent;
import org.apache.hadoop.mapreduce.jobhistory.TaskStartedEvent;
import org.apache.hadoop.yarn.api.records.ContainerId;

/**
 * A job's history event by event, written with Hadoop's EventWriter as JSON or binary Avro. Times
 * are seconds after the job's submission.
 */
final class HistoryBuilder {
  static final long T0 = 1_700_000_000_000L;
  private static final int[][] NO_SPLITS = new int[4][0];
  private static final ContainerId CONTAINER = ContainerId.fromString("container_1_0001_01_000002");

  final JobID job;
  private final List<HistoryEvent> events = new ArrayList<>();
  private final Map<String, String> conf = new java.util.TreeMap<>();

  HistoryBuilder(int serial, String name, boolean uber, int maps, int reduces) {
    job = new JobID("1700000000000", serial);
    events.add(
        new JobSubmittedEvent(
            job, name, "alice", T0, "", Collections.emptyMap(), "default", "", "", "", "", ""));
    events.add(new JobInitedEvent(job, at(1), maps, reduces, "INITED", uber));
  }

  static long at(double seconds) {
    return T0 + Math.round(seconds * 1000);
  }

  private TaskAttemptID attempt(TaskType type, int task, int attempt) {
    return new TaskAttemptID(new TaskID(job, type, task), attempt);
  }

  HistoryBuilder taskStarted(TaskType type, int task, double start) {
    events.add(new TaskStartedEvent(new TaskID(job, type, task), at(start), type, ""));
    return this;
  }

  HistoryBuilder attemptStarted(TaskType type, int task, int attempt, double start) {
    events.add(
        new TaskAttemptStartedEvent(
            attempt(type, task, attempt),
            type,
            at(start),
            "tracker",
            8042,
            13562,
            CONTAINER,
            "",
            ""));
    return this;
  }

  /** A successful map: task and attempt started, attempt and task finished. */
  HistoryBuilder map(int task, double start, double finish) {
    taskStarted(TaskType.MAP, task, start).attemptStarted(TaskType.MAP, task, 0, start);
    return mapAttemptFinished(task, 0, finish).taskFinished(TaskType.MAP, task, 0, finish);
  }

  HistoryBuilder mapAttemptFinished(int task, int attempt, double finish) {
    events.add(
        new MapAttemptFinishedEvent(
            attempt(TaskType.MAP, task, attempt),
            TaskType.MAP,
            "SUCCEEDED",
            at(finish),
            at(finish),
            "node1",
            8041,
            "/default-rack",
            "map",
            new Counters(),
            NO_SPLITS));
    return this;
  }

  /** A successful reduce whose attempt used cpuSeconds of CPU (none: no CPU counter). */
  HistoryBuilder reduce(
      int task, double start, double shuffleEnd, double sortEnd, double finish, Double cpuSeconds) {
    taskStarted(TaskType.REDUCE, task, start).attemptStarted(TaskType.REDUCE, task, 0, start);
    return reduceAttemptFinished(task, 0, shuffleEnd, sortEnd, finish, cpuSeconds)
        .taskFinished(TaskType.REDUCE, task, 0, finish);
  }

  HistoryBuilder reduceAttemptFinished(
      int task, int attempt, double shuffleEnd, double sortEnd, double finish, Double cpuSeconds) {
    Counters counters = new Counters();
    if (cpuSeconds != null) {
      counters
          .findCounter(JobRun.TASK_GROUP, JobRun.CPU_MILLISECONDS)
          .setValue(Math.round(cpuSeconds * 1000));
    }
    events.add(
        new ReduceAttemptFinishedEvent(
            attempt(TaskType.REDUCE, task, attempt),
            TaskType.REDUCE,
            "SUCCEEDED",
            at(shuffleEnd),
            at(sortEnd),
            at(finish),
            "node2",
            8041,
            "/default-rack",
            "reduce",
            counters,
            NO_SPLITS));
    return this;
  }

  /** An attempt that failed or was killed (status FAILED or KILLED). */
  HistoryBuilder attemptEnded(TaskType type, int task, int attempt, String status, double end) {
    events.add(
        new TaskAttemptUnsuccessfulCompletionEvent(
            attempt(type, task, attempt),
            type,
            status,
            at(end),
            "node3",
            8041,
            "/default-rack",
            "lost",
            new Counters(),
            NO_SPLITS));
    return this;
  }

  HistoryBuilder taskFinished(TaskType type, int task, int attempt, double finish) {
    events.add(
        new TaskFinishedEvent(
            new TaskID(job, type, task),
            attempt(type, task, attempt),
            at(finish),
            type,
            "SUCCEEDED",
            new Counters()));
    return this;
  }

  HistoryBuilder conf(String key, String value) {
    conf.put(key, value);
    return this;
  }

  /** The job finished at `finish`; totalCounters may carry MaRCO's group. */
  HistoryBuilder finished(double finish, Counters totalCounters) {
    events.add(
        new JobFinishedEvent(
            job, at(finish), 0, 0, 0, 0, 0, 0, new Counters(), new Counters(), totalCounters));
    return this;
  }

  /** Writes JOBID-....jhist and, if any key was set, JOBID_conf.xml into dir; returns the jhist. */
  Path write(FileSystem fs, Path dir, EventWriter.WriteMode mode) throws IOException {
    Path file = new Path(dir, job + "-" + T0 + "-alice-job-" + at(100) + "-1-1-SUCCEEDED.jhist");
    HistoryFileWriter.write(fs, file, mode, events);
    if (!conf.isEmpty()) {
      Configuration c = new Configuration(false);
      conf.forEach(c::set);
      try (FSDataOutputStream out = fs.create(new Path(dir, job + HistoryFiles.CONF_SUFFIX))) {
        c.writeXml(out);
      }
    }
    return file;
  }
}
