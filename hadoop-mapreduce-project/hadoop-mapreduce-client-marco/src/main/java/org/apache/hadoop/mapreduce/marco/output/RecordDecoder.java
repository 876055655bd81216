/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.output;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.SerializationFactory;

/**
 * Turns a {@link RecordBatch} back into records on the background thread and hands them to a
 * {@link RecordSink}. Like a reducer, it reuses one key and one value object per class (kept
 * apart, since keys and values often share a class), so writers see Hadoop's usual contract.
 */
final class RecordDecoder<K, V> {
  private final SerializationFactory serializations;
  private final DataInputBuffer in = new DataInputBuffer();
  private final Map<Class<?>, Deserializer<Object>> deserializers = new HashMap<>();
  private final Map<Class<?>, Object> reusedKeys = new HashMap<>();
  private final Map<Class<?>, Object> reusedValues = new HashMap<>();

  RecordDecoder(Configuration conf) {
    serializations = new SerializationFactory(conf);
  }

  /** Writes every record of the batch; returns how many. */
  @SuppressWarnings("unchecked")
  int writeAll(RecordBatch batch, RecordSink<K, V> sink) throws IOException, InterruptedException {
    byte[] data = batch.data.getData();
    int offset = 0;
    for (int field = 0; field < batch.fields(); field += 2) {
      int keyLength = batch.fieldLength(field);
      K key = (K) read(batch.fieldClass(field), data, offset, keyLength, reusedKeys);
      offset += keyLength;
      int valueLength = batch.fieldLength(field + 1);
      V value = (V) read(batch.fieldClass(field + 1), data, offset, valueLength, reusedValues);
      offset += valueLength;
      sink.write(key, value);
    }
    return batch.fields() / 2;
  }

  private Object read(
      Class<?> cls, byte[] data, int offset, int length, Map<Class<?>, Object> reused)
      throws IOException {
    if (cls == null) {
      return null;
    }
    if (cls == NullWritable.class) {
      return NullWritable.get();
    }
    in.reset(data, offset, length);
    Object record = deserializer(cls).deserialize(reused.get(cls));
    reused.put(cls, record);
    return record;
  }

  @SuppressWarnings("unchecked")
  private Deserializer<Object> deserializer(Class<?> cls) throws IOException {
    Deserializer<Object> deserializer = deserializers.get(cls);
    if (deserializer == null) {
      // The encoder found a serializer for this class in the same configuration.
      deserializer = (Deserializer<Object>) serializations.getDeserializer(cls);
      deserializer.open(in);
      deserializers.put(cls, deserializer);
    }
    return deserializer;
  }
}
