/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.gen;

import java.io.IOException;
import java.util.SplittableRandom;

/**
 * gen-binary: binary-sort's input, fixed 100-byte records of a uniformly random 10-byte key and
 * 90 random bytes, with no separators (read back with a fixed-length input format). Byte budgets
 * are rounded up to whole records.
 */
public class BinaryModel implements DataModel {
  /** Bytes of one record: a 10-byte key, then 90 bytes of value. */
  public static final int RECORD_BYTES = 100;

  @Override
  public void generate(TaskSpec task, RecordSink sink) throws IOException {
    SplittableRandom random = task.random();
    byte[] record = new byte[RECORD_BYTES];
    while (!sink.full()) {
      for (int i = 0; i < RECORD_BYTES; i += 8) {
        long bits = random.nextLong();
        for (int j = i; j < Math.min(i + 8, RECORD_BYTES); j++) {
          record[j] = (byte) bits;
          bits >>>= 8;
        }
      }
      sink.emit(record, RECORD_BYTES);
    }
  }

  public static void main(String[] args) throws Exception {
    GeneratorTool.main("gen-binary", BinaryModel.class, args);
  }
}
