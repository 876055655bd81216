/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Merger;
import org.apache.hadoop.mapred.Merger.Segment;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.util.Progress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The final merge: every partial run and every map output not yet merged feed the job's reducer
 * in one sorted stream, as stock Hadoop does. {@code mapreduce.reduce.input.buffer.percent}
 * keeps its meaning: map outputs beyond that much memory are merged to disk first (or merged
 * as part of the on-disk pass when there are already io.sort.factor files), and
 * {@code mapreduce.task.io.sort.factor} bounds the files merged at once.
 */
final class MarcoFinalMerge<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(MarcoFinalMerge.class);

  private final JobConf conf;
  private final FileSystem fs;
  private final CompressionCodec codec;
  private final TaskAttemptID reduceId;
  private final Reporter reporter;
  private final MarcoRunMerger<K, V> runMerger;
  private final long maxInMemoryForReduce;
  private final Counters.Counter spilledRecords;
  private final Progress mergePhase;

  /** Runs whose segment left them on disk for a merge that still read them at shuffle end. */
  private final List<MarcoShuffledRun<K, V>> kept = new ArrayList<>();

  MarcoFinalMerge(
      JobConf conf,
      FileSystem fs,
      CompressionCodec codec,
      TaskAttemptID reduceId,
      Reporter reporter,
      MarcoRunMerger<K, V> runMerger,
      long maxInMemoryForReduce,
      Counters.Counter spilledRecords,
      Progress mergePhase) {
    this.conf = conf;
    this.fs = fs;
    this.codec = codec;
    this.reduceId = reduceId;
    this.reporter = reporter;
    this.runMerger = runMerger;
    this.maxInMemoryForReduce = maxInMemoryForReduce;
    this.spilledRecords = spilledRecords;
    this.mergePhase = mergePhase;
  }

  /**
   * Releases the runs the final merge kept for a merge that was still reading them: called once
   * the reducer has read its input. The last holder of each removes its file.
   */
  void releaseKeptRuns() {
    for (MarcoShuffledRun<K, V> run : kept) {
      try {
        run.release();
      } catch (IOException e) {
        LOG.warn("MaRCO: could not remove run {}; YARN removes it with the container", run, e);
      }
    }
    kept.clear();
  }

  private Segment<K, V> finalSegmentOf(MarcoShuffledRun<K, V> run) throws IOException {
    Segment<K, V> segment = run.finalSegment();
    if (run.keptByFinalMerge()) {
      kept.add(run);
    }
    return segment;
  }

  @SuppressWarnings("unchecked")
  RawKeyValueIterator merge(List<MarcoShuffledRun<K, V>> runs)
      throws IOException, InterruptedException {
    List<MarcoShuffledRun<K, V>> inMemory = new ArrayList<>();
    List<MarcoShuffledRun<K, V>> onDisk = new ArrayList<>();
    long memoryBytes = 0;
    for (MarcoShuffledRun<K, V> run : runs) {
      if (run.inMemory()) {
        inMemory.add(run);
        memoryBytes += run.rawLength();
      } else {
        onDisk.add(run);
      }
    }
    List<MarcoShuffledRun<K, V>> vacate = new ArrayList<>();
    while (memoryBytes > maxInMemoryForReduce) {
      MarcoShuffledRun<K, V> run = inMemory.remove(0);
      vacate.add(run);
      memoryBytes -= run.rawLength();
    }
    int ioSortFactor = conf.getInt(MRJobConfig.IO_SORT_FACTOR, MRJobConfig.DEFAULT_IO_SORT_FACTOR);
    if (!vacate.isEmpty() && onDisk.size() < ioSortFactor) {
      // Free the memory for the reducer now: one more file still fits in one on-disk pass.
      MarcoRunMerger.Result<K, V> spilled =
          runMerger.merge("final-spill", vacate, MarcoRecordReducer.copy());
      onDisk.add(spilled.run);
      LOG.info(
          "MaRCO final merge: wrote {} in-memory map outputs ({} bytes) to disk to satisfy the"
              + " reduce memory limit",
          vacate.size(),
          spilled.bytesWritten);
      vacate.clear();
    }
    LOG.info(
        "MaRCO final merge of {}: {} runs on disk, {} in-memory map outputs merged with them, {}"
            + " kept in memory ({} bytes)",
        reduceId,
        onDisk.size(),
        vacate.size(),
        inMemory.size(),
        memoryBytes);

    Class<K> keyClass = (Class<K>) conf.getMapOutputKeyClass();
    Class<V> valueClass = (Class<V>) conf.getMapOutputValueClass();
    RawComparator<K> comparator = (RawComparator<K>) conf.getOutputKeyComparator();
    Path tmpDir = new Path(reduceId.toString());

    List<Segment<K, V>> finalSegments = new ArrayList<>();
    for (MarcoShuffledRun<K, V> run : inMemory) {
      finalSegments.add(finalSegmentOf(run));
    }
    if (!onDisk.isEmpty() || !vacate.isEmpty()) {
      List<Segment<K, V>> diskSegments = new ArrayList<>();
      long diskBytes = 0;
      for (MarcoShuffledRun<K, V> run : vacate) {
        diskSegments.add(finalSegmentOf(run));
        diskBytes += run.rawLength();
      }
      onDisk.sort(Comparator.comparingLong(MarcoShuffledRun::rawLength));
      for (MarcoShuffledRun<K, V> run : onDisk) {
        diskSegments.add(finalSegmentOf(run));
        diskBytes += run.rawLength();
      }
      RawKeyValueIterator diskMerge =
          Merger.merge(
              conf,
              fs,
              keyClass,
              valueClass,
              codec,
              diskSegments,
              ioSortFactor,
              vacate.size(),
              tmpDir,
              comparator,
              reporter,
              false,
              spilledRecords,
              null,
              mergePhase);
      if (finalSegments.isEmpty()) {
        return diskMerge;
      }
      finalSegments.add(
          new Segment<>(new MarcoIteratorIFileReader<K, V>(diskMerge, diskBytes), true, diskBytes));
    }
    return Merger.merge(
        conf,
        fs,
        keyClass,
        valueClass,
        finalSegments,
        Math.max(2, finalSegments.size()),
        tmpDir,
        comparator,
        reporter,
        spilledRecords,
        null,
        null);
  }
}
