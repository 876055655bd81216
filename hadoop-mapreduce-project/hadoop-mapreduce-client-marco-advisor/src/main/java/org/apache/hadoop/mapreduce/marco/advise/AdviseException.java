/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.advise;

import org.apache.hadoop.classification.InterfaceAudience;

/** Input the advisor cannot read: names the file or URL, the problem and, where known, the fix. */
@InterfaceAudience.Private
class AdviseException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String source;

  AdviseException(String source, String problem) {
    super(source + ": " + problem);
    this.source = source;
  }

  AdviseException(String source, String problem, Throwable cause) {
    super(source + ": " + problem, cause);
    this.source = source;
  }

  /** The file or URL that could not be read. */
  String source() {
    return source;
  }

  /** The problem, without the source. */
  String problem() {
    return getMessage().substring(source.length() + 2);
  }
}
