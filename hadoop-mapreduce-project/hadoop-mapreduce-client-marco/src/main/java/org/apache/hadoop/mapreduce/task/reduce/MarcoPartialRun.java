/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

/** A committed partial run and its level: 1 made from map outputs, n + 1 from level n. */
final class MarcoPartialRun<K, V> {
  final MarcoShuffledRun<K, V> run;
  final int level;

  MarcoPartialRun(MarcoShuffledRun<K, V> run, int level) {
    this.run = run;
    this.level = level;
  }
}
