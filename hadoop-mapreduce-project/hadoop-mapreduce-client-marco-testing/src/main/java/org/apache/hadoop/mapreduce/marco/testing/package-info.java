/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
/**
 * The MaRCO test kit for job authors, shipped as {@code hadoop-mapreduce-client-marco-testing}.
 *
 * <ul>
 *   <li>{@link org.apache.hadoop.mapreduce.marco.testing.PartialReducerChecker}: a job's partial
 *       reducer and final reducer on random splits of sample input, without a cluster; a broken
 *       rule is reported with the smallest sample that shows it.</li>
 *   <li>{@link org.apache.hadoop.mapreduce.marco.testing.DifferentialRun}: the job itself, stock
 *       shuffle against MaRCO, on Hadoop's local runner ({@link
 *       org.apache.hadoop.mapreduce.marco.testing.LocalModeConf}) or a mini cluster ({@link
 *       org.apache.hadoop.mapreduce.marco.testing.MiniMrClusterResource}), outputs compared byte
 *       for byte.</li>
 *   <li>{@link org.apache.hadoop.mapreduce.marco.testing.JobFunctions}: a job's map, combine,
 *       partial-reduce and reduce functions run in-process, for unit tests of each.</li>
 * </ul>
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
package org.apache.hadoop.mapreduce.marco.testing;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
