/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import org.apache.hadoop.classification.VisibleForTesting;

/**
 * The bookkeeping steps of {@link MarcoMergeManager} after a merge, where a test can make one
 * throw to show that no count goes wrong and nothing hangs, or park the thread that reaches it.
 * Production code runs {@link #NONE}.
 */
@VisibleForTesting
interface MarcoMergeSteps {
  enum Step {
    /** An invocation's run is being committed. */
    INVOCATION_COMMIT,
    /** A memory spill's run is being committed. */
    SPILL_COMMIT,
    /** Merged inputs are being released. */
    RELEASE,
    /**
     * On a partial thread, holding no lock: its merge is done and its outcome not yet handed to
     * the coordinator. A test may park the thread here for as long as it likes.
     */
    OUTCOME_HANDOFF
  }

  MarcoMergeSteps NONE = step -> {};

  void at(Step step);
}
