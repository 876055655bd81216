/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.engine;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.MarcoMonitorTimedMergeManager;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.mapreduce.task.reduce.MergeManagerImpl;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;

/**
 * Hadoop's stock shuffle with its fetch stalls counted: {@link Shuffle} and {@link
 * MergeManagerImpl} run unchanged (every call goes to them), and the time fetchers spend blocked
 * in {@code waitForResource()}, the reservations answered with WAIT and the time fetchers wait to
 * enter the merge manager's monitor are added to {@link StockShuffleCounter}. The benchmark
 * harness runs its stock variants with it, so that these stalls are measured the same way for
 * both shuffles. Each map output's commit is recorded too ({@link StockArrivals}), and written to
 * the container log directory once the shuffle is done, so that the harness can tell when a stock
 * run's busiest link fell behind as it does for MaRCO's. Select it with {@code
 * mapreduce.job.reduce.shuffle.consumer.plugin.class}.
 */
public class TimedStockShuffle<K, V> extends Shuffle<K, V> {
  /** Set by YARN in every container; unset in local mode, where no arrivals are written. */
  static final String CONTAINER_LOG_DIR = "yarn.app.container.log.dir";

  private final StockArrivals arrivals = new StockArrivals();

  @Override
  protected MergeManager<K, V> createMergeManager(ShuffleConsumerPlugin.Context context) {
    return new TimedMergeManager<>(context, this, arrivals);
  }

  @Override
  public RawKeyValueIterator run() throws IOException, InterruptedException {
    RawKeyValueIterator merged = super.run();
    String logDir = System.getProperty(CONTAINER_LOG_DIR);
    if (logDir != null) {
      arrivals.write(new File(logDir));
    }
    return merged;
  }

  /**
   * Hadoop's merge manager, with {@code waitForResource()} timed, WAIT answers counted, the
   * fetchers' wait for its monitor added up and every reserved map output's commit recorded.
   */
  private static final class TimedMergeManager<K, V> extends MarcoMonitorTimedMergeManager<K, V> {
    private final Counters.Counter waitMillis;
    private final Counters.Counter stalls;
    private final Counters.Counter managerWaitMillis;
    private final StockArrivals arrivals;

    /** Waits for the monitor not yet counted, under a millisecond; guarded by the monitor. */
    private long managerWaitNanos;

    TimedMergeManager(
        ShuffleConsumerPlugin.Context context,
        Shuffle<K, V> exceptionReporter,
        StockArrivals arrivals) {
      super(
          context.getReduceId(),
          context.getJobConf(),
          context.getLocalFS(),
          context.getLocalDirAllocator(),
          context.getReporter(),
          context.getCodec(),
          context.getCombinerClass(),
          context.getCombineCollector(),
          context.getSpilledRecordsCounter(),
          context.getReduceCombineInputCounter(),
          context.getMergedMapOutputsCounter(),
          exceptionReporter,
          context.getMergePhase(),
          context.getMapOutputFile());
      this.waitMillis = context.getReporter().getCounter(StockShuffleCounter.FETCH_WAIT_MILLIS);
      this.stalls = context.getReporter().getCounter(StockShuffleCounter.FETCH_STALLS);
      this.managerWaitMillis =
          context.getReporter().getCounter(StockShuffleCounter.MERGE_MANAGER_WAIT_MILLIS);
      this.arrivals = arrivals;
    }

    /**
     * Adds a fetcher's wait for the monitor; whole milliseconds go to the counter and the rest is
     * kept for the next wait, so that many short waits are not lost to rounding.
     */
    @Override
    protected void fetcherEntered(long waitedNanos) {
      managerWaitNanos += waitedNanos;
      long millis = managerWaitNanos / 1_000_000;
      if (millis > 0) {
        managerWaitMillis.increment(millis);
        managerWaitNanos -= millis * 1_000_000;
      }
    }

    @Override
    public void waitForResource() throws InterruptedException {
      long start = System.currentTimeMillis();
      try {
        super.waitForResource();
      } finally {
        waitMillis.increment(System.currentTimeMillis() - start);
      }
    }

    @Override
    public MapOutput<K, V> reserve(TaskAttemptID mapId, long size, int fetcher) throws IOException {
      MapOutput<K, V> output = super.reserve(mapId, size, fetcher);
      if (output == null) {
        stalls.increment(1);
        return null;
      }
      return new ArrivalRecordingMapOutput<>(output, arrivals);
    }
  }
}
