/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.io;

import java.nio.charset.StandardCharsets;
import org.apache.hadoop.io.Text;

/**
 * The text generator's line format, {@code host/document <TAB> word word ...}: every line names its
 * document so a split boundary never loses the host. Lines without a tab are all text (so the
 * text jobs also run on plain text files).
 */
public final class DocumentLine {
  private DocumentLine() {}

  /** Byte offset where the words start. */
  public static int textStart(Text line) {
    int tab = line.find("\t");
    return tab < 0 ? 0 : tab + 1;
  }

  /** The words of the line as a string (without the document name). */
  public static String words(Text line) {
    int start = textStart(line);
    return new String(line.getBytes(), start, line.getLength() - start, StandardCharsets.UTF_8);
  }

  /** The host of a {@code host/document} name, or "" when the line has no document name. */
  public static String host(Text line) {
    int tab = line.find("\t");
    if (tab < 0) {
      return "";
    }
    int slash = line.find("/");
    int end = slash < 0 || slash > tab ? tab : slash;
    return new String(line.getBytes(), 0, end, StandardCharsets.UTF_8);
  }
}
