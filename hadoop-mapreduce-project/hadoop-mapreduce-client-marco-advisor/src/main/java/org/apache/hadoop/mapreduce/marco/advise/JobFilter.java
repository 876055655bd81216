/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.advise;

import java.util.regex.Pattern;
import org.apache.hadoop.classification.InterfaceAudience;

/**
 * Which jobs to advise on: of a user, whose name matches a regular expression, started (submitted,
 * for history files) in a time range; null selects all. {@code limit} caps the jobs a
 * JobHistoryServer lists.
 */
@InterfaceAudience.Private
record JobFilter(String user, Pattern name, Long startedFrom, Long startedTo, int limit) {
  static final int DEFAULT_LIMIT = 100;

  boolean nameMatches(String jobName) {
    return name == null || name.matcher(jobName == null ? "" : jobName).find();
  }

  boolean matches(JobRun job) {
    return (user == null || user.equals(job.user()))
        && nameMatches(job.name())
        && (startedFrom == null || job.submit() >= startedFrom)
        && (startedTo == null || job.submit() <= startedTo);
  }
}
