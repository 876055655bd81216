/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.output;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.io.DataOutputBuffer;

/**
 * Serialized records handed from the reducer to the background writer in one piece: their bytes
 * back to back, and per field (key, then value) its class and length. A class of {@code null}
 * marks a null field (no bytes); the class list travels with the batch, so the two threads share
 * no mutable table.
 */
final class RecordBatch {
  final DataOutputBuffer data = new DataOutputBuffer();
  private final List<Class<?>> fieldClasses = new ArrayList<>();
  private int[] fieldLengths = new int[128];

  void addField(Class<?> cls, int length) {
    int index = fieldClasses.size();
    if (index == fieldLengths.length) {
      fieldLengths = Arrays.copyOf(fieldLengths, index * 2);
    }
    fieldClasses.add(cls);
    fieldLengths[index] = length;
  }

  int fields() {
    return fieldClasses.size();
  }

  Class<?> fieldClass(int field) {
    return fieldClasses.get(field);
  }

  int fieldLength(int field) {
    return fieldLengths[field];
  }

  int bytes() {
    return data.getLength();
  }

  void clear() {
    data.reset();
    fieldClasses.clear();
  }
}
