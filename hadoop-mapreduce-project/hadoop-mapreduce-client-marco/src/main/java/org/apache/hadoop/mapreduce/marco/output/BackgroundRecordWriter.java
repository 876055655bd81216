/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.output;

import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a reducer's output on a background thread (the paper's asynchronous reduce output,
 * section 5.2), so the reducer does not wait for the file system.
 *
 * <p>{@link #write} serializes the record into the batch being filled (a copy: reducers reuse
 * their objects); a full batch goes to a bounded queue that the background thread drains into
 * the delegate's record writer. The reducer is at most about {@code bufferBytes} ahead: two
 * queued batches, one being written, one being filled, each a quarter of the buffer.
 *
 * <p>Failures are never lost: the first exception of the delegate (in write or close) stops the
 * background thread, which closes the delegate, and is rethrown (wrapped in an IOException) by
 * the reducer's next {@link #write} or by {@link #close}, so the task fails. {@link #close}
 * returns only when every record has been written and the delegate closed.
 */
final class BackgroundRecordWriter<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(BackgroundRecordWriter.class);
  private static final int QUEUED_BATCHES = 2;
  private static final int MIN_BATCH_BYTES = 4096;

  /** How often a blocked reducer looks at the writer's health and reports progress. */
  private static final long POLL_MS = 200;

  private static final RecordBatch END = new RecordBatch();

  private final RecordSink<K, V> sink;
  private final RecordEncoder encoder;
  private final RecordDecoder<K, V> decoder;
  private final Runnable progress;
  private final int batchBytes;
  private final BlockingQueue<RecordBatch> filled = new ArrayBlockingQueue<>(QUEUED_BATCHES);
  private final BlockingQueue<RecordBatch> spare = new ArrayBlockingQueue<>(QUEUED_BATCHES + 2);
  private final Thread thread;
  private volatile Throwable failure;
  private volatile long recordsWritten;
  private RecordBatch filling = new RecordBatch();
  private boolean closed;

  /**
   * @param progress called while the reducer waits for the writer and the writer is moving, so
   *     a long close does not time the task out (a stuck writer still does, as in Hadoop)
   */
  BackgroundRecordWriter(
      RecordSink<K, V> sink, Configuration conf, int bufferBytes, String name, Runnable progress) {
    this.sink = sink;
    this.encoder = new RecordEncoder(conf);
    this.decoder = new RecordDecoder<>(conf);
    this.progress = progress;
    this.batchBytes = Math.max(MIN_BATCH_BYTES, bufferBytes / (QUEUED_BATCHES + 2));
    this.thread = new Thread(this::drain, name);
    thread.setDaemon(true);
    thread.start();
  }

  void write(K key, V value) throws IOException, InterruptedException {
    if (closed) {
      throw new IOException("write after close of the asynchronous record writer");
    }
    rethrowFailure();
    encoder.append(key, value, filling);
    if (filling.bytes() >= batchBytes) {
      handOver(filling);
      RecordBatch next = spare.poll();
      filling = next != null ? next : new RecordBatch();
    }
  }

  /** Writes what is left, waits for the background thread, closes the delegate. */
  void close() throws IOException, InterruptedException {
    if (closed) {
      return;
    }
    closed = true;
    if (failure == null) {
      if (filling.fields() > 0) {
        handOver(filling);
      }
      handOver(END);
    }
    long seen = -1;
    while (thread.isAlive()) {
      thread.join(POLL_MS);
      seen = reportIfMoving(seen);
    }
    rethrowFailure();
  }

  /** Records the delegate has taken so far. */
  long recordsWritten() {
    return recordsWritten;
  }

  private void handOver(RecordBatch batch) throws IOException, InterruptedException {
    long seen = -1;
    while (!filled.offer(batch, POLL_MS, TimeUnit.MILLISECONDS)) {
      rethrowFailure();
      seen = reportIfMoving(seen);
    }
  }

  private long reportIfMoving(long seen) {
    long now = recordsWritten;
    if (now != seen) {
      progress.run();
    }
    return now;
  }

  private void rethrowFailure() throws IOException {
    Throwable cause = failure;
    if (cause != null) {
      throw new IOException(
          "Asynchronous reduce output failed after " + recordsWritten + " records: " + cause,
          cause);
    }
  }

  private void drain() {
    Throwable error = null;
    try {
      for (RecordBatch batch = filled.take(); batch != END; batch = filled.take()) {
        recordsWritten += decoder.writeAll(batch, sink);
        batch.clear();
        spare.offer(batch);
      }
    } catch (Throwable t) {
      error = t;
    }
    try {
      sink.close();
    } catch (Throwable t) {
      if (error == null) {
        error = t;
      } else {
        error.addSuppressed(t);
      }
    }
    if (error != null) {
      LOG.error("Asynchronous reduce output failed after {} records", recordsWritten, error);
      failure = error;
      // Unblock a reducer waiting for queue space; it then sees the failure.
      filled.clear();
    }
  }
}
