/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.test;

/**
 * JUnit category of tests that start real daemons (MiniMRYarnCluster, MiniDFSCluster) and take
 * tens of seconds each. Selected or excluded through the {@code marco.test.groups} and
 * {@code marco.test.excludedGroups} Maven properties.
 */
public interface SlowTest {}
