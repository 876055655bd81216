/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;

/** A merge stopped on request (a partial invocation still running at shuffle end). */
final class MarcoAbandonedMergeException extends IOException {
  private static final long serialVersionUID = 1L;

  MarcoAbandonedMergeException(long recordsRead) {
    super("merge abandoned after " + recordsRead + " records");
  }
}
