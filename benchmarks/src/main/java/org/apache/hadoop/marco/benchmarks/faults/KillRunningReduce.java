/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.faults;

import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.mapred.TIPStatus;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * {@code kill-running-reduce JOB_ID DELAY_SECONDS}: once the delay has passed, kills the first
 * reduce attempt that is running and prints {@code killed ATTEMPT_ID}; exits 3 if the job ends
 * before a reduce attempt runs after the delay.
 *
 * <p>The benchmark harness's fault runs (paper section 6.3) start it beside the job. One JVM that
 * asks the ApplicationMaster every {@value #POLL_MS} ms kills within a poll of the deadline; a
 * {@code mapred job -list-attempt-ids} JVM followed by a {@code -kill-task} JVM, seconds each on
 * a busy 2-core machine, often arrived after the reduce had ended.
 */
public class KillRunningReduce extends Configured implements Tool {
  static final long POLL_MS = 250;
  static final int NO_SUCH_JOB = 1;
  static final int USAGE = 2;
  static final int JOB_ENDED_FIRST = 3;

  @Override
  public int run(String[] args) throws Exception {
    JobID jobId;
    long delayNanos;
    try {
      if (args.length != 2) {
        throw new IllegalArgumentException("expected 2 arguments, got " + args.length);
      }
      jobId = JobID.forName(args[0]);
      double delaySeconds = Double.parseDouble(args[1]);
      if (!(delaySeconds >= 0)) {
        throw new IllegalArgumentException("DELAY_SECONDS must be >= 0, got " + args[1]);
      }
      delayNanos = (long) (delaySeconds * 1e9);
    } catch (IllegalArgumentException e) {
      System.err.println(
          "kill-running-reduce: "
              + e.getMessage()
              + "\nUsage: kill-running-reduce"
              + " JOB_ID DELAY_SECONDS  (e.g. job_1795438088293_0004 5.5)");
      return USAGE;
    }
    long deadline = System.nanoTime() + delayNanos;
    Cluster cluster = new Cluster(getConf());
    try {
      Job job = cluster.getJob(jobId);
      if (job == null) {
        System.err.println(
            "kill-running-reduce: no job "
                + jobId
                + " on this cluster; check the "
                + "job id (mapred job -list all)");
        return NO_SUCH_JOB;
      }
      while (!job.isComplete()) {
        if (System.nanoTime() >= deadline) {
          TaskAttemptID attempt = firstRunningReduceAttempt(job);
          if (attempt != null) {
            job.killTask(attempt, false);
            System.out.println("killed " + attempt);
            return 0;
          }
        }
        TimeUnit.MILLISECONDS.sleep(POLL_MS);
      }
      System.out.println("no reduce attempt was running before " + jobId + " ended");
      return JOB_ENDED_FIRST;
    } finally {
      cluster.close();
    }
  }

  private static TaskAttemptID firstRunningReduceAttempt(Job job) throws Exception {
    for (TaskReport report : job.getTaskReports(TaskType.REDUCE)) {
      if (report.getCurrentStatus() == TIPStatus.RUNNING
          && !report.getRunningTaskAttemptIds().isEmpty()) {
        return report.getRunningTaskAttemptIds().iterator().next();
      }
    }
    return null;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new KillRunningReduce(), args));
  }
}
