/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.gen;

import java.io.IOException;

/**
 * A generator's data model: writes one task's records until the sink is full. A model must be
 * deterministic in its {@link TaskSpec} (draw only from {@link TaskSpec#random()} and values
 * derived from the seed) and have a public no-argument constructor.
 */
public interface DataModel {
  void generate(TaskSpec task, RecordSink sink) throws IOException;
}
