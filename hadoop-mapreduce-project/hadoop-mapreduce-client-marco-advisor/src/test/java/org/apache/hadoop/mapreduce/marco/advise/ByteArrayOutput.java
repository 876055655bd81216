/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.advise;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** A PrintStream whose text a test reads back. */
final class ByteArrayOutput {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream stream = new PrintStream(bytes, true, StandardCharsets.UTF_8);

  PrintStream stream() {
    return stream;
  }

  String text() {
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
