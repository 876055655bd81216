/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.stagger;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.JobInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.TaskAttemptInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.TaskInfo;
import org.apache.hadoop.mapreduce.v2.jobhistory.JobHistoryUtils;

/**
 * When and where a finished job's reduce attempts were launched, read from its job history
 * file ({@code .jhist}): the end of the map phase (last map task finish) and, per node, the
 * reduce attempts launched before it.
 */
final class ReduceLaunches {
  private final long mapPhaseEnd;
  private final Map<String, Integer> earlyPerNode = new TreeMap<>();
  private final Map<String, Integer> allPerNode = new TreeMap<>();
  private int succeededReduceTasks;

  private ReduceLaunches(JobInfo job) {
    long lastMap = 0;
    for (TaskInfo task : job.getAllTasks().values()) {
      if (task.getTaskType() == TaskType.MAP) {
        lastMap = Math.max(lastMap, task.getFinishTime());
      }
    }
    mapPhaseEnd = lastMap;
    for (TaskInfo task : job.getAllTasks().values()) {
      if (task.getTaskType() != TaskType.REDUCE) {
        continue;
      }
      if ("SUCCEEDED".equals(task.getTaskStatus())) {
        succeededReduceTasks++;
      }
      for (TaskAttemptInfo attempt : task.getAllTaskAttempts().values()) {
        // One NodeManager per host in a real cluster; in a mini cluster they share a host name
        // and differ by port, so the node is host:http-port.
        String node = attempt.getTrackerName() + ":" + attempt.getHttpPort();
        allPerNode.merge(node, 1, Integer::sum);
        if (attempt.getStartTime() < mapPhaseEnd) {
          earlyPerNode.merge(node, 1, Integer::sum);
        }
      }
    }
  }

  /**
   * Finds the job's history file below the cluster's intermediate-done or done directory (the
   * history server moves it from one to the other at any time) and parses it.
   */
  static ReduceLaunches of(Configuration clusterConf, JobID jobId) throws IOException {
    Path[] roots = {
      new Path(JobHistoryUtils.getConfiguredHistoryIntermediateDoneDirPrefix(clusterConf)),
      new Path(JobHistoryUtils.getConfiguredHistoryServerDoneDirPrefix(clusterConf))
    };
    for (int pass = 0; pass < 3; pass++) {
      for (Path root : roots) {
        FileSystem fs = root.getFileSystem(clusterConf);
        Path file = find(fs, root, jobId.toString());
        if (file != null) {
          try {
            return new ReduceLaunches(new JobHistoryParser(fs, file).parse());
          } catch (FileNotFoundException movedMeanwhile) {
            // the history server moved it between listing and opening: look again
          }
        }
      }
    }
    throw new IOException("No .jhist file of " + jobId + " under " + roots[0] + " or " + roots[1]);
  }

  private static Path find(FileSystem fs, Path root, String jobId) throws IOException {
    if (!fs.exists(root)) {
      return null;
    }
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(root, true);
    while (files.hasNext()) {
      Path path = files.next().getPath();
      if (path.getName().startsWith(jobId) && path.getName().endsWith(".jhist")) {
        return path;
      }
    }
    return null;
  }

  /** Finish time of the last map task. */
  long mapPhaseEnd() {
    return mapPhaseEnd;
  }

  /** Reduce attempts launched before the map phase ended, per node. */
  Map<String, Integer> earlyReducesPerNode() {
    return earlyPerNode;
  }

  /** Reduce tasks that succeeded (each may have had several attempts, e.g. speculative). */
  int succeededReduceTasks() {
    return succeededReduceTasks;
  }

  @Override
  public String toString() {
    return "map phase end "
        + mapPhaseEnd
        + ", "
        + succeededReduceTasks
        + " reduce tasks succeeded, reduce attempts per node "
        + allPerNode
        + ", of which launched while maps ran "
        + earlyPerNode;
  }
}
