/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
/** Public API of the MaRCO shuffle: configuration keys, partial-reducer setters, counters. */
package org.apache.hadoop.mapreduce.marco;
