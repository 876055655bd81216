/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.output;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.junit.Test;

public class TestBackgroundRecordWriter {
  private static final int BUFFER = 64 * 1024;
  private final Configuration conf = new Configuration();

  /** Remembers every record as text, in order, and whether and when it was closed. */
  private static class CollectingSink implements RecordSink<Object, Object> {
    final List<String> records = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger closes = new AtomicInteger();
    volatile int recordsAtClose = -1;

    @Override
    public void write(Object key, Object value) throws IOException, InterruptedException {
      records.add(key + "\t" + value);
    }

    @Override
    public void close() {
      recordsAtClose = records.size();
      closes.incrementAndGet();
    }
  }

  private BackgroundRecordWriter<Object, Object> writer(RecordSink<Object, Object> sink) {
    return new BackgroundRecordWriter<>(sink, conf, BUFFER, "test-async-output", () -> {});
  }

  @Test
  public void writesCopiesOfReusedObjectsInOrderAndClosesAfterTheLast() throws Exception {
    CollectingSink sink = new CollectingSink();
    BackgroundRecordWriter<Object, Object> writer = writer(sink);
    Text key = new Text();
    LongWritable value = new LongWritable();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 50_000; i++) {
      key.set("key-" + i);
      value.set(i * 7L);
      writer.write(key, value);
      expected.add("key-" + i + "\t" + i * 7L);
    }
    writer.close();
    assertEquals(expected, sink.records);
    assertEquals(1, sink.closes.get());
    assertEquals("closed only after every record", expected.size(), sink.recordsAtClose);
    assertEquals(expected.size(), writer.recordsWritten());
  }

  @Test
  public void keysAndValuesOfTheSameClassStayApart() throws Exception {
    CollectingSink sink = new CollectingSink();
    BackgroundRecordWriter<Object, Object> writer = writer(sink);
    writer.write(new Text("k"), new Text("v"));
    writer.close();
    assertEquals(List.of("k\tv"), sink.records);
  }

  @Test
  public void nullAndNullWritableFieldsPassThrough() throws Exception {
    List<Object[]> seen = new ArrayList<>();
    BackgroundRecordWriter<Object, Object> writer =
        writer(
            new RecordSink<Object, Object>() {
              @Override
              public void write(Object key, Object value) {
                seen.add(new Object[] {key, value});
              }

              @Override
              public void close() {}
            });
    writer.write(null, new Text("a"));
    writer.write(NullWritable.get(), null);
    writer.close();
    assertEquals(2, seen.size());
    assertEquals(null, seen.get(0)[0]);
    assertEquals(new Text("a"), seen.get(0)[1]);
    assertSame(NullWritable.get(), seen.get(1)[0]);
    assertEquals(null, seen.get(1)[1]);
  }

  @Test
  public void failingDelegateFailsTheNextWriteOrCloseAndIsClosed() throws Exception {
    IOException diskFull = new IOException("disk full");
    CollectingSink sink =
        new CollectingSink() {
          @Override
          public void write(Object key, Object value) throws IOException, InterruptedException {
            if (records.size() == 100) {
              throw diskFull;
            }
            super.write(key, value);
          }
        };
    BackgroundRecordWriter<Object, Object> writer = writer(sink);
    IOException thrown =
        assertThrows(
            IOException.class,
            () -> {
              Text key = new Text("some key of a record");
              for (int i = 0; i < 1_000_000; i++) {
                writer.write(key, new LongWritable(i));
              }
              writer.close();
            });
    assertSame(diskFull, thrown.getCause());
    assertEquals("records before the failure were written", 100, sink.records.size());
    assertEquals("the delegate is closed after a failure", 1, sink.closes.get());
    IOException again = assertThrows(IOException.class, writer::close);
    assertSame("close reports the failure too", diskFull, again.getCause());
  }

  @Test
  public void failureOfTheDelegatesCloseFailsClose() throws Exception {
    IOException lostLease = new IOException("lease lost");
    BackgroundRecordWriter<Object, Object> writer =
        writer(
            new CollectingSink() {
              @Override
              public void close() {
                throw new IllegalStateException("wrapped", lostLease);
              }
            });
    writer.write(new Text("a"), new Text("b"));
    IOException thrown = assertThrows(IOException.class, writer::close);
    assertSame(lostLease, thrown.getCause().getCause());
  }

  @Test
  public void writeAfterCloseIsRejected() throws Exception {
    BackgroundRecordWriter<Object, Object> writer = writer(new CollectingSink());
    writer.close();
    assertThrows(IOException.class, () -> writer.write(new Text("late"), new Text("record")));
  }

  @Test
  public void recordOfAClassWithoutSerializationIsRejectedWithTheClassName() throws Exception {
    BackgroundRecordWriter<Object, Object> writer = writer(new CollectingSink());
    IOException thrown =
        assertThrows(IOException.class, () -> writer.write(new Object(), new Text("v")));
    assertTrue(thrown.getMessage(), thrown.getMessage().contains("java.lang.Object"));
    assertTrue(thrown.getMessage(), thrown.getMessage().contains("io.serializations"));
    writer.close();
  }

  /**
   * While the delegate is stuck in its first write, the reducer's writes keep returning until
   * the buffer is full; then the reducer waits, and nothing is lost when the delegate resumes.
   */
  @Test
  public void slowDelegateDoesNotStallTheReducerUntilTheBufferIsFull() throws Exception {
    CountDownLatch delegateEntered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CollectingSink sink =
        new CollectingSink() {
          @Override
          public void write(Object key, Object value) throws IOException, InterruptedException {
            delegateEntered.countDown();
            release.await();
            super.write(key, value);
          }
        };
    BackgroundRecordWriter<Object, Object> writer = writer(sink);
    // Every record serializes to 16 bytes (Text "k000000": 1 + 7 bytes; LongWritable: 8), and
    // a batch is a quarter of the buffer.
    int recordBytes = 16;
    int recordsPerBatch = BUFFER / 4 / recordBytes;
    AtomicInteger accepted = new AtomicInteger();
    AtomicReference<Throwable> producerFailure = new AtomicReference<>();
    Thread producer =
        new Thread(
            () -> {
              Text key = new Text();
              LongWritable value = new LongWritable();
              try {
                for (int i = 0; i < 20 * recordsPerBatch; i++) {
                  key.set(String.format("k%06d", i));
                  value.set(i);
                  writer.write(key, value);
                  accepted.incrementAndGet();
                }
              } catch (Throwable t) {
                producerFailure.set(t);
              }
            });
    producer.start();
    delegateEntered.await();
    // Wait for the reducer thread to block on the full buffer. Not a timing assertion: the
    // test waits for a state, however long that takes.
    while (producer.getState() != Thread.State.TIMED_WAITING) {
      assertTrue(
          "producer ended while the delegate was stuck: " + producerFailure.get(),
          producer.isAlive());
      Thread.onSpinWait();
    }
    int whileStuck = accepted.get();
    assertEquals("the delegate is still inside its first write", 0, sink.records.size());
    assertTrue(
        "only " + whileStuck + " writes returned while the delegate was stuck",
        whileStuck >= 3 * recordsPerBatch);
    assertTrue(
        "the reducer got "
            + (long) whileStuck * recordBytes
            + " bytes ahead of the delegate, more than the buffer "
            + BUFFER,
        (long) whileStuck * recordBytes <= BUFFER);
    release.countDown();
    producer.join();
    assertEquals(null, producerFailure.get());
    writer.close();
    assertEquals(20 * recordsPerBatch, sink.records.size());
    assertEquals(
        "k" + String.format("%06d", 20 * recordsPerBatch - 1) + "\t" + (20 * recordsPerBatch - 1),
        sink.records.get(sink.records.size() - 1));
  }
}
