/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.testing;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.hadoop.classification.InterfaceAudience;

/**
 * Byte comparison of two job outputs that, on mismatch, names the first differing record
 * (line) of each side, so a failing differential test says what MaRCO got wrong.
 */
@InterfaceAudience.Private
public final class OutputDiff {
  private OutputDiff() {}

  /** Null when equal, else a message with the first differing line and its number. */
  public static String describe(
      String expectedName, JobOutput expected, String actualName, JobOutput actual) {
    byte[] a = expected.bytes();
    byte[] b = actual.bytes();
    if (Arrays.equals(a, b)) {
      return null;
    }
    int at = 0;
    int limit = Math.min(a.length, b.length);
    while (at < limit && a[at] == b[at]) {
      at++;
    }
    int lineStart = at;
    while (lineStart > 0 && a[lineStart - 1] != '\n') {
      lineStart--;
    }
    long lineNumber = 1;
    for (int i = 0; i < lineStart; i++) {
      if (a[i] == '\n') {
        lineNumber++;
      }
    }
    return String.format(
        "outputs differ at byte %d (line %d); %s has %d bytes in %d part files (%s), %s has %d"
            + " bytes in %d part files (%s)%n  %s: %s%n  %s: %s",
        at,
        lineNumber,
        expectedName,
        a.length,
        expected.partFiles(),
        expected.dir(),
        actualName,
        b.length,
        actual.partFiles(),
        actual.dir(),
        expectedName,
        lineAt(a, lineStart),
        actualName,
        lineAt(b, lineStart));
  }

  private static String lineAt(byte[] data, int start) {
    if (start >= data.length) {
      return "<end of output>";
    }
    int end = start;
    while (end < data.length && data[end] != '\n') {
      end++;
    }
    return "\"" + new String(data, start, end - start, StandardCharsets.UTF_8) + "\"";
  }
}
