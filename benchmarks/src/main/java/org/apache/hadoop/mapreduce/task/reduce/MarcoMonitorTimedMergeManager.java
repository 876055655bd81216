/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalDirAllocator;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.Task.CombineOutputCollector;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.util.Progress;

/**
 * Hadoop's {@link MergeManagerImpl}, unchanged, with the time a fetcher waits to enter its
 * monitor measured: {@code reserve}, {@code closeInMemoryFile}, {@code closeOnDiskFile} and
 * {@code unreserve} read the clock, take the manager's monitor, report the wait to {@link
 * #fetcherEntered} and then run Hadoop's method inside it (the monitor is reentrant, so Hadoop's
 * own {@code synchronized} costs nothing more). This class sits in Hadoop's package, with the
 * {@code Marco} prefix that tells our classes there from Hadoop's, because
 * {@code unreserve} and the in-memory map output are visible only there.
 *
 * <p>{@code waitForResource()} is not timed here: Hadoop's takes the in-memory merger's monitor,
 * not the manager's, and holding the manager's while it waits would block the merge it waits
 * for.
 *
 * <p>The merge threads call some of these methods too (a finished merge closes its output file
 * and releases the memory of its inputs); their waits are not fetchers' and are not reported.
 */
public abstract class MarcoMonitorTimedMergeManager<K, V> extends MergeManagerImpl<K, V> {

  @SuppressWarnings("rawtypes")
  protected MarcoMonitorTimedMergeManager(
      TaskAttemptID reduceId,
      JobConf jobConf,
      FileSystem localFS,
      LocalDirAllocator localDirAllocator,
      Reporter reporter,
      CompressionCodec codec,
      Class<? extends Reducer> combinerClass,
      CombineOutputCollector<K, V> combineCollector,
      Counters.Counter spilledRecordsCounter,
      Counters.Counter reduceCombineInputCounter,
      Counters.Counter mergedMapOutputsCounter,
      ExceptionReporter exceptionReporter,
      Progress mergePhase,
      MapOutputFile mapOutputFile) {
    super(
        reduceId,
        jobConf,
        localFS,
        localDirAllocator,
        reporter,
        codec,
        combinerClass,
        combineCollector,
        spilledRecordsCounter,
        reduceCombineInputCounter,
        mergedMapOutputsCounter,
        exceptionReporter,
        mergePhase,
        mapOutputFile);
  }

  /**
   * Called inside the manager's monitor, first thing, by a thread that asked for it {@code
   * waitedNanos} ago; never by one of the manager's merge threads.
   */
  protected abstract void fetcherEntered(long waitedNanos);

  private void entered(long askedNanos) {
    long waited = System.nanoTime() - askedNanos;
    if (!(Thread.currentThread() instanceof MergeThread)) {
      fetcherEntered(waited);
    }
  }

  @Override
  public MapOutput<K, V> reserve(TaskAttemptID mapId, long requestedSize, int fetcher)
      throws IOException {
    long asked = System.nanoTime();
    synchronized (this) {
      entered(asked);
      return super.reserve(mapId, requestedSize, fetcher);
    }
  }

  @Override
  void unreserve(long size) {
    long asked = System.nanoTime();
    synchronized (this) {
      entered(asked);
      super.unreserve(size);
    }
  }

  @Override
  public void closeInMemoryFile(InMemoryMapOutput<K, V> mapOutput) {
    long asked = System.nanoTime();
    synchronized (this) {
      entered(asked);
      super.closeInMemoryFile(mapOutput);
    }
  }

  @Override
  public void closeOnDiskFile(CompressAwarePath file) {
    long asked = System.nanoTime();
    synchronized (this) {
      entered(asked);
      super.closeOnDiskFile(file);
    }
  }
}
