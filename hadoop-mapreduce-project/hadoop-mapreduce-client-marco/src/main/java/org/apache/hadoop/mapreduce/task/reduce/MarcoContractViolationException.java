/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;

/**
 * A partial reducer emitted a record its contract forbids: its run would not be a sorted run of
 * the groups it was given, so the invocation fails and its inputs go to the final merge as they
 * are.
 */
final class MarcoContractViolationException extends IOException {
  private static final long serialVersionUID = 1L;

  MarcoContractViolationException(String message) {
    super(message);
  }
}
