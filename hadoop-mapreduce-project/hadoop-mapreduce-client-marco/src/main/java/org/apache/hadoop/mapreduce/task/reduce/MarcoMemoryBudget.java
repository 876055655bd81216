/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * The reduce task's shuffle memory, with Hadoop's meaning of
 * {@code mapreduce.reduce.shuffle.input.buffer.percent}, {@code .memory.limit.percent},
 * {@code .merge.percent} and {@code mapreduce.reduce.input.buffer.percent}.
 */
class MarcoMemoryBudget {
  /** Hadoop's default for mapreduce.reduce.shuffle.memory.limit.percent. */
  static final float DEFAULT_SINGLE_SHUFFLE_PERCENT = 0.25f;

  private final long limit;
  private final long maxSingleShuffle;
  private final long mergeThreshold;
  private final long maxInMemoryForReduce;
  private long used;

  /** {@link #used} as last written, for readers that must not take this object's lock. */
  private volatile long usedNow;

  /** The part of {@link #used} held by running partial invocations. */
  private long pinned;

  MarcoMemoryBudget(JobConf conf) {
    float bufferPercent =
        percent(
            conf,
            MRJobConfig.SHUFFLE_INPUT_BUFFER_PERCENT,
            MRJobConfig.DEFAULT_SHUFFLE_INPUT_BUFFER_PERCENT);
    limit =
        (long)
            (conf.getLong(MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, Runtime.getRuntime().maxMemory())
                * bufferPercent);
    float singlePercent =
        percent(conf, MRJobConfig.SHUFFLE_MEMORY_LIMIT_PERCENT, DEFAULT_SINGLE_SHUFFLE_PERCENT);
    maxSingleShuffle = Math.min((long) (limit * singlePercent), Integer.MAX_VALUE);
    mergeThreshold =
        (long)
            (limit
                * percent(
                    conf,
                    MRJobConfig.SHUFFLE_MERGE_PERCENT,
                    MRJobConfig.DEFAULT_SHUFFLE_MERGE_PERCENT));
    maxInMemoryForReduce =
        (long) (limit * percent(conf, MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, 0f));
    if (maxSingleShuffle >= mergeThreshold) {
      throw new IllegalArgumentException(
          "Invalid configuration: the largest in-memory map output ("
              + MRJobConfig.SHUFFLE_MEMORY_LIMIT_PERCENT
              + " -> "
              + maxSingleShuffle
              + " bytes) must be smaller than the merge threshold ("
              + MRJobConfig.SHUFFLE_MERGE_PERCENT
              + " -> "
              + mergeThreshold
              + " bytes).");
    }
  }

  private static float percent(JobConf conf, String key, float dflt) {
    float value = conf.getFloat(key, dflt);
    if (value < 0f || value > 1f) {
      throw new IllegalArgumentException(
          "Invalid value " + value + " for " + key + ": allowed a fraction in [0, 1].");
    }
    return value;
  }

  /** True when a map output of this size must go straight to disk. */
  boolean tooLargeForMemory(long size) {
    return size > maxSingleShuffle;
  }

  /**
   * Reserves memory for one map output, or returns false (the fetcher WAITs). As in Hadoop, one
   * reservation may go past the limit, so a fetch can always complete and trigger a merge.
   */
  synchronized boolean tryReserve(long size) {
    if (used > limit) {
      return false;
    }
    used += size;
    usedNow = used;
    return true;
  }

  synchronized void release(long size) {
    used -= size;
    usedNow = used;
    notifyAll();
  }

  /**
   * Pins a committed in-memory map output for a partial invocation, or returns false (the output
   * is left to the memory spill). Pinned memory comes back only when a low-priority invocation
   * ends, so pins stay within the headroom above the merge threshold: the committed memory not
   * pinned is spilled once committed memory, pinned included, reaches the merge threshold, on a
   * normal-priority thread, so with no spill running, used memory can be over the limit only
   * through fetches in flight, whose commits start that spill. A fetch thus waits for a spill,
   * never for partial work.
   */
  synchronized boolean tryPin(long size) {
    if (pinned + size > limit - mergeThreshold) {
      return false;
    }
    pinned += size;
    return true;
  }

  /** Returns what {@link #tryPin} took; the memory itself stays used until it is released. */
  synchronized void unpin(long size) {
    pinned -= size;
  }

  synchronized long pinned() {
    return pinned;
  }

  synchronized boolean overLimit() {
    return used > limit;
  }

  synchronized long used() {
    return used;
  }

  /**
   * The shuffle memory that fetchers may still reserve. Takes no lock: the heap guard asks it from
   * low-priority threads, which must never hold up a fetcher's reservation.
   */
  long stillToReserve() {
    return Math.max(0L, limit - usedNow);
  }

  long limit() {
    return limit;
  }

  long mergeThreshold() {
    return mergeThreshold;
  }

  long maxInMemoryForReduce() {
    return maxInMemoryForReduce;
  }

  @Override
  public String toString() {
    return "memoryLimit="
        + limit
        + ", maxSingleShuffleLimit="
        + maxSingleShuffle
        + ", mergeThreshold="
        + mergeThreshold
        + ", maxPinned="
        + (limit - mergeThreshold)
        + ", maxInMemReduce="
        + maxInMemoryForReduce;
  }
}
