/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.output;

import java.io.IOException;

/**
 * Where the background writer puts records: the delegate output format's record writer, new or
 * old API. Called from the background thread only.
 */
interface RecordSink<K, V> {
  void write(K key, V value) throws IOException, InterruptedException;

  void close() throws IOException, InterruptedException;
}
