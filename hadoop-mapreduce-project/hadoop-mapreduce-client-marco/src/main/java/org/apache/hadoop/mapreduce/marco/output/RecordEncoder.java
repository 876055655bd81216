/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.output;

import java.io.IOException;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.io.serializer.Serializer;

/**
 * Copies records into a {@link RecordBatch} with Hadoop's serializations (the job's
 * {@code io.serializations}), on the reducer's thread: reducers reuse their key and value
 * objects, so the background writer must get copies. Null and {@link NullWritable} fields are
 * passed as markers without bytes.
 */
final class RecordEncoder {
  private final SerializationFactory serializations;
  private final Map<Class<?>, Serializer<Object>> serializers = new HashMap<>();
  private final BatchStream stream = new BatchStream();

  RecordEncoder(Configuration conf) {
    serializations = new SerializationFactory(conf);
  }

  void append(Object key, Object value, RecordBatch batch) throws IOException {
    stream.target = batch;
    appendField(key, batch);
    appendField(value, batch);
  }

  private void appendField(Object field, RecordBatch batch) throws IOException {
    if (field == null || field instanceof NullWritable) {
      batch.addField(field == null ? null : NullWritable.class, 0);
      return;
    }
    int start = batch.bytes();
    serializer(field.getClass()).serialize(field);
    batch.addField(field.getClass(), batch.bytes() - start);
  }

  @SuppressWarnings("unchecked")
  private Serializer<Object> serializer(Class<?> cls) throws IOException {
    Serializer<Object> serializer = serializers.get(cls);
    if (serializer == null) {
      serializer = (Serializer<Object>) serializations.getSerializer(cls);
      if (serializer == null) {
        throw new IOException(
            "Asynchronous output cannot copy records of "
                + cls.getName()
                + ": no serialization in "
                + CommonConfigurationKeys.IO_SERIALIZATIONS_KEY
                + " accepts it. Add one there, or write this job's output synchronously ("
                + org.apache.hadoop.mapreduce.marco.MarcoConfig.ASYNC_OUTPUT_ENABLED
                + "=false).");
      }
      serializer.open(stream);
      serializers.put(cls, serializer);
    }
    return serializer;
  }

  /** Serializers are opened once on this stream; it writes into the batch being filled. */
  private static final class BatchStream extends OutputStream {
    private RecordBatch target;

    @Override
    public void write(int b) throws IOException {
      target.data.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      target.data.write(b, off, len);
    }
  }
}
