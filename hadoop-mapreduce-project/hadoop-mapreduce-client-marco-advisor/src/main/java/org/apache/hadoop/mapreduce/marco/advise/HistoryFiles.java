/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.advise;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.jobhistory.EventReader;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.JobInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.TaskAttemptInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.TaskInfo;

/**
 * Job history files (.jhist) on any Hadoop file system, read with Hadoop's own JobHistoryParser,
 * so both of its encodings (JSON and binary Avro) are read alike. The job's configuration is the
 * {@code JOBID_conf.xml} the AppMaster writes next to the history, in the JobHistoryServer's done
 * directory as in its intermediate one.
 */
@InterfaceAudience.Private
final class HistoryFiles {
  static final String SUFFIX = ".jhist";
  static final String CONF_SUFFIX = "_conf.xml";

  /** The first line of a history file in each encoding (EventWriter's). */
  static final String JSON_VERSION = "Avro-Json";

  static final String BINARY_VERSION = "Avro-Binary";
  private static final int VERSIONS_MAX_LENGTH = BINARY_VERSION.length();

  private HistoryFiles() {}

  /** The history files at {@code path}: the file itself, or every *.jhist under a directory. */
  static List<Path> find(FileSystem fs, Path path) throws AdviseException {
    List<Path> found = new ArrayList<>();
    try {
      FileStatus status = fs.getFileStatus(path);
      if (!status.isDirectory()) {
        found.add(status.getPath());
        return found;
      }
      RemoteIterator<LocatedFileStatus> files = fs.listFiles(path, true);
      while (files.hasNext()) {
        Path file = files.next().getPath();
        if (file.getName().endsWith(SUFFIX)) {
          found.add(file);
        }
      }
    } catch (FileNotFoundException e) {
      throw new AdviseException(path.toString(), "no such file or directory");
    } catch (IOException e) {
      throw new AdviseException(path.toString(), "cannot list it: " + e.getMessage(), e);
    }
    if (found.isEmpty()) {
      throw new AdviseException(
          path.toString(),
          "no job history (*"
              + SUFFIX
              + ") under this directory; give the JobHistoryServer's"
              + " done directory (mapreduce.jobhistory.done-dir) or a .jhist file");
    }
    found.sort(null);
    return found;
  }

  /** One history file as a JobRun, with its configuration where it lies next to it. */
  static JobRun read(FileSystem fs, Path file) throws AdviseException {
    String source = file.toString();
    FSDataInputStream in;
    try {
      in = fs.open(file);
    } catch (FileNotFoundException e) {
      throw new AdviseException(source, "no such file");
    } catch (IOException e) {
      throw new AdviseException(source, "cannot open it: " + e.getMessage(), e);
    }
    EventReader reader;
    try {
      reader = new EventReader(in);
    } catch (IOException | RuntimeException e) {
      IOUtils.closeStream(in);
      if (e instanceof ChecksumException || startsLikeHistory(fs, file)) {
        throw corrupt(source, e);
      }
      throw new AdviseException(
          source,
          "not a MapReduce job history file ("
              + e.getMessage()
              + "); a .jhist starts with a line 'Avro-Json' or 'Avro-Binary' and Avro's schema",
          e);
    }
    JobHistoryParser parser = new JobHistoryParser(in);
    JobInfo info;
    try {
      info = parser.parse(reader);
    } catch (IOException | RuntimeException e) {
      throw corrupt(source, e);
    }
    if (parser.getParseException() != null) {
      throw corrupt(source, parser.getParseException());
    }
    if (info.getJobId() == null) {
      throw new AdviseException(source, "the history has no job-submitted event");
    }
    if (info.getFinishTime() <= 0) {
      throw new AdviseException(
          source,
          "the history of "
              + info.getJobId()
              + " ends before the job did (no job-finished, -failed or -killed event): the file"
              + " is cut short, or the job still runs");
    }
    return toJobRun(info, readConf(fs, file, info.getJobId().toString()), source);
  }

  /** True when the file's first line is one a history file starts with. */
  private static boolean startsLikeHistory(FileSystem fs, Path file) {
    byte[] head = new byte[VERSIONS_MAX_LENGTH + 1];
    try (FSDataInputStream in = fs.open(file)) {
      int n = in.read(head);
      String first = new String(head, 0, Math.max(n, 0), StandardCharsets.UTF_8).split("\n", 2)[0];
      return first.equals(JSON_VERSION) || first.equals(BINARY_VERSION);
    } catch (IOException e) {
      return false;
    }
  }

  private static AdviseException corrupt(String source, Exception e) {
    return new AdviseException(
        source,
        "the history is cut short or corrupt ("
            + e
            + "): copy the file again from the JobHistoryServer's done directory",
        e);
  }

  private static JobRun toJobRun(JobInfo info, Map<String, String> conf, String source) {
    List<JobRun.TaskSpan> maps = new ArrayList<>();
    List<JobRun.ReduceSpan> reduces = new ArrayList<>();
    int failed = 0;
    int killed = 0;
    for (TaskInfo task : info.getAllTasks().values()) {
      for (TaskAttemptInfo attempt : task.getAllTaskAttempts().values()) {
        String status = attempt.getTaskStatus();
        failed += "FAILED".equals(status) ? 1 : 0;
        killed += "KILLED".equals(status) ? 1 : 0;
      }
      // Of speculative or retried attempts, the successful one is the task's time.
      TaskAttemptInfo ok =
          task.getSuccessfulAttemptId() == null
              ? null
              : task.getAllTaskAttempts().get(task.getSuccessfulAttemptId());
      if (ok == null) {
        continue;
      }
      if (task.getTaskType() == TaskType.MAP) {
        maps.add(new JobRun.TaskSpan(ok.getStartTime(), ok.getFinishTime()));
      } else if (task.getTaskType() == TaskType.REDUCE) {
        reduces.add(
            new JobRun.ReduceSpan(
                ok.getAttemptId().toString(),
                ok.getHostname(),
                ok.getStartTime(),
                ok.getShuffleFinishTime(),
                ok.getSortFinishTime(),
                ok.getFinishTime(),
                counter(ok.getCounters(), JobRun.TASK_GROUP, JobRun.CPU_MILLISECONDS),
                counter(ok.getCounters(), JobRun.OUTPUT_WRITE_GROUP, JobRun.OUTPUT_WRITE_MILLIS)));
      }
    }
    return new JobRun(
        info.getJobId().toString(),
        info.getJobname(),
        info.getUsername(),
        info.getJobQueueName(),
        info.getJobStatus(),
        info.getSubmitTime(),
        info.getFinishTime(),
        info.getUberized(),
        maps,
        reduces,
        failed,
        killed,
        flatten(info.getTotalCounters()),
        conf,
        source);
  }

  private static long counter(Counters counters, String group, String name) {
    if (counters == null || counters.getGroup(group).findCounter(name, false) == null) {
      return -1;
    }
    return counters.getGroup(group).findCounter(name, false).getValue();
  }

  private static Map<String, Long> flatten(Counters counters) {
    Map<String, Long> out = new HashMap<>();
    if (counters != null) {
      for (CounterGroup group : counters) {
        for (Counter c : group) {
          out.put(group.getName() + "." + c.getName(), c.getValue());
        }
      }
    }
    return out;
  }

  /** The keys the advice reads from JOBID_conf.xml next to the history; null if there is none. */
  private static Map<String, String> readConf(FileSystem fs, Path history, String jobId)
      throws AdviseException {
    Path confFile = new Path(history.getParent(), jobId + CONF_SUFFIX);
    Configuration conf = new Configuration(false);
    try (InputStream in = fs.open(confFile)) {
      conf.addResource(in, confFile.toString());
      return JobConfKeys.select(conf);
    } catch (FileNotFoundException e) {
      return null;
    } catch (IOException | RuntimeException e) {
      throw new AdviseException(
          confFile.toString(), "not a readable job configuration: " + e.getMessage(), e);
    }
  }
}
