/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;

/**
 * A merge of partial work that ran the heap out ({@link MarcoErrors#isHeapExhaustion}), carried
 * as a recoverable failure: the memory it held is garbage once its stack has unwound, and its
 * inputs, only ever read, are as they were.
 */
final class MarcoOutOfHeapException extends IOException {
  private static final long serialVersionUID = 1L;

  MarcoOutOfHeapException(OutOfMemoryError cause) {
    super("partial work ran out of heap: " + cause, cause);
  }
}
