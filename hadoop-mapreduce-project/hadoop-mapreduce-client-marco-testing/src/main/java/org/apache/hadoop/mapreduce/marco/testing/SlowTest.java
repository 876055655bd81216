/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.testing;

import org.apache.hadoop.classification.InterfaceAudience;

/**
 * JUnit category of this project's tests that start real daemons (MiniMRYarnCluster,
 * MiniDFSCluster) and take tens of seconds each. Selected or excluded through the {@code
 * marco.test.groups} and {@code marco.test.excludedGroups} Maven properties.
 */
@InterfaceAudience.Private
public interface SlowTest {}
