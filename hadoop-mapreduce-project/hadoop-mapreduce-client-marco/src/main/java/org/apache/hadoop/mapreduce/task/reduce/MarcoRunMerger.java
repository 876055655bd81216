/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapred.Merger;
import org.apache.hadoop.mapred.Merger.Segment;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.TaskAttemptID;

/**
 * Merges sorted runs into one new run on local disk through a {@link MarcoRecordReducer}, in a single
 * pass. The inputs are only read: the caller releases them once the new run is committed, so a
 * merge that fails (or is made to fail by fault injection) loses nothing.
 */
final class MarcoRunMerger<K, V> {
  private final JobConf conf;
  private final FileSystem fs;
  private final MapOutputFile mapOutputFile;
  private final CompressionCodec codec;
  private final TaskAttemptID reduceId;
  private final Reporter reporter;

  MarcoRunMerger(
      JobConf conf,
      FileSystem fs,
      MapOutputFile mapOutputFile,
      CompressionCodec codec,
      TaskAttemptID reduceId,
      Reporter reporter) {
    this.conf = conf;
    this.fs = fs;
    this.mapOutputFile = mapOutputFile;
    this.codec = codec;
    this.reduceId = reduceId;
    this.reporter = reporter;
  }

  /** What one merge produced. */
  static final class Result<K, V> {
    final MarcoOnDiskRun<K, V> run;
    final long inputRecords;
    final long outputRecords;
    final long bytesWritten;

    /** What the user function counted: for the task's counters once the run is committed. */
    final MarcoUserCounterBuffer userCounters;

    /**
     * Records read from inputs on local disk: what Hadoop counts in SPILLED_RECORDS for its own
     * reduce-side merges, added to it once the run is committed.
     */
    final long diskRecordsRead;

    Result(
        MarcoOnDiskRun<K, V> run,
        long inputRecords,
        long outputRecords,
        long bytesWritten,
        MarcoUserCounterBuffer userCounters,
        long diskRecordsRead) {
      this.run = run;
      this.inputRecords = inputRecords;
      this.outputRecords = outputRecords;
      this.bytesWritten = bytesWritten;
      this.userCounters = userCounters;
      this.diskRecordsRead = diskRecordsRead;
    }
  }

  /** Merges {@code inputs} into a run named {@code name}, to the end. */
  Result<K, V> merge(
      String name, List<MarcoShuffledRun<K, V>> inputs, MarcoRecordReducer<K, V> function)
      throws IOException, InterruptedException {
    return merge(name, inputs, function, false, () -> false, new MarcoMergeProgress());
  }

  /**
   * Merges {@code inputs} into a run named {@code name}.
   *
   * @param failBeforeCommit fault injection: fail after all the work, before the commit
   * @param abandonRequested polled between records; once true the merge stops with an
   *     {@link MarcoAbandonedMergeException} and leaves no file behind
   * @param progress where the merge publishes how far it has got
   */
  @SuppressWarnings("unchecked")
  Result<K, V> merge(
      String name,
      List<MarcoShuffledRun<K, V>> inputs,
      MarcoRecordReducer<K, V> function,
      boolean failBeforeCommit,
      BooleanSupplier abandonRequested,
      MarcoMergeProgress progress)
      throws IOException, InterruptedException {
    List<Segment<K, V>> segments = new ArrayList<>(inputs.size());
    long bytes = 0;
    int mapOutputs = 0;
    for (MarcoShuffledRun<K, V> run : inputs) {
      segments.add(run.segment());
      bytes += run.rawLength();
      mapOutputs += run.mapOutputs();
    }
    Path path = mapOutputFile.getInputFileForWrite(reduceId.getTaskID(), bytes).suffix("." + name);
    MarcoRunWriter<K, V> out = new MarcoRunWriter<>(conf, fs, path, codec, name, mapOutputs);
    // Counted here, by this merge alone, and added to the task's counter by whoever commits the
    // run: a partial thread never touches a counter that other threads lock.
    Counters.Counter diskReads = new Counters.Counter();
    try {
      RawKeyValueIterator merged =
          Merger.merge(
              conf,
              fs,
              (Class<K>) conf.getMapOutputKeyClass(),
              (Class<V>) conf.getMapOutputValueClass(),
              segments,
              Math.max(2, segments.size()),
              new Path(reduceId.toString()),
              (RawComparator<K>) conf.getOutputKeyComparator(),
              reporter,
              diskReads,
              null,
              null);
      MarcoCountingIterator sorted =
          new MarcoCountingIterator(merged, abandonRequested, progress, out::bytesWritten);
      MarcoUserCounterBuffer userCounters = new MarcoUserCounterBuffer(reporter);
      try {
        function.reduce(sorted, out, userCounters);
      } catch (IOException | InterruptedException | RuntimeException | Error e) {
        if (!sorted.abandoned() || MarcoErrors.failsAttempt(e)) {
          throw e;
        }
        // The stop, passed on by the partial reducer in an exception of its own: reported below,
        // with the thread's interrupt kept if that is what the exception was.
        MarcoErrors.keepInterrupt(e);
      } finally {
        sorted.close();
      }
      if (sorted.abandoned()) {
        // Stopped on request, whatever the partial reducer made of the stop (wrapped,
        // swallowed): the run lacks the rest, so it is never committed.
        throw new MarcoAbandonedMergeException(sorted.records());
      }
      if (failBeforeCommit) {
        throw new IOException(
            "MaRCO fault injection: "
                + name
                + " fails as asked by "
                + "mapreduce.marco.test.fail.invocation");
      }
      MarcoOnDiskRun<K, V> run = out.commit();
      return new Result<>(
          run,
          sorted.records(),
          out.records(),
          fs.getFileStatus(path).getLen(),
          userCounters,
          diskReads.getValue());
    } catch (IOException | InterruptedException | RuntimeException | Error e) {
      out.discard();
      throw e;
    }
  }
}
