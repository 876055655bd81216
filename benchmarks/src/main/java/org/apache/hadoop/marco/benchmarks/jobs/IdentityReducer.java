/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import org.apache.hadoop.mapreduce.Reducer;

/**
 * Emits every (key, value) unchanged: the partial reducer of binary-sort, classification and grep,
 * where the paper's partial reduce is "pure overhead". Named so the job setup reads as the paper.
 */
public class IdentityReducer<K, V> extends Reducer<K, V, K, V> {}
