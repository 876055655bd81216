/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.testing;

import java.io.IOException;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.util.StringUtils;

/**
 * Everything a finished job says about why it failed: its state, its failure info plus the
 * diagnostics of every failed task attempt (where a task's exception message ends up on YARN),
 * and under the local runner, which reports neither, what the runner logged ({@link
 * LocalRunnerLog}).
 */
@InterfaceAudience.Private
public final class JobDiagnostics {
  private JobDiagnostics() {}

  /** The failure text of a finished job. */
  public static String of(Job job) throws IOException, InterruptedException {
    return of(job, null);
  }

  /**
   * The failure text of a finished job, followed by what the local runner logged while it ran
   * ({@code log} may be null, or empty on YARN).
   */
  public static String of(Job job, LocalRunnerLog log) throws IOException, InterruptedException {
    StringBuilder text = new StringBuilder();
    text.append("job ")
        .append(job.getJobID())
        .append(" state ")
        .append(job.getJobState())
        .append(": ")
        .append(job.getStatus().getFailureInfo());
    int from = 0;
    TaskCompletionEvent[] events;
    while ((events = job.getTaskCompletionEvents(from, 100)).length > 0) {
      for (TaskCompletionEvent event : events) {
        if (event.getStatus() == TaskCompletionEvent.Status.FAILED
            || event.getStatus() == TaskCompletionEvent.Status.TIPFAILED) {
          for (String diagnostic : job.getTaskDiagnostics(event.getTaskAttemptId())) {
            text.append('\n').append(event.getTaskAttemptId()).append(": ").append(diagnostic);
          }
        }
      }
      from += events.length;
    }
    String logged = log == null ? "" : log.text();
    if (!logged.isEmpty()) {
      text.append("\nthe local runner logged:\n").append(logged);
    }
    return text.toString();
  }

  /**
   * Runs a job that must fail and returns why: the submission exception's message chain if
   * the client refused it, else {@link #of}. Throws AssertionError if the job succeeds.
   */
  public static String ofExpectedFailure(Job job) throws IOException, InterruptedException {
    try (LocalRunnerLog log = LocalRunnerLog.capture()) {
      try {
        job.submit();
      } catch (IOException | RuntimeException | ClassNotFoundException e) {
        return "submission failed: " + StringUtils.stringifyException(e);
      }
      boolean succeeded;
      try {
        succeeded = job.waitForCompletion(false);
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException("unreachable: the job was already submitted", e);
      }
      if (succeeded) {
        throw new AssertionError(
            "job "
                + job.getJobName()
                + " ("
                + job.getJobID()
                + ") succeeded but was expected to fail");
      }
      return of(job, log);
    }
  }
}
