/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco;

import java.util.Arrays;
import java.util.Locale;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.StringUtils.TraditionalBinaryPrefix;

/**
 * The validated {@code mapreduce.marco.*} settings of one task. A bad value is rejected with a
 * message naming the key, the value and the allowed range, so a job fails at once and says why.
 */
@InterfaceAudience.Private
public final class MarcoSettings {
  private final boolean enabled;
  private final boolean partialReduceEnabled;
  private final boolean useCombinerAsPartialReducer;
  private final boolean partialContractStrict;
  private final boolean fetchToDiskWhenFull;
  private final int initialThreshold;
  private final int initialInvocations;
  private final int steadyThreshold;
  private final float stopFraction;
  private final boolean startWhenThresholdUnreachable;
  private final boolean startWhenThresholdLate;
  private final boolean startWhenMapsComplete;
  private final boolean startOnlyWithinShuffle;
  private final long invocationMaxBytes;
  private final int partialThreads;
  private final int partialNice;
  private final String partialCpuCgroup;
  private final String shuffleCpuCgroup;
  private final boolean controlEnabled;
  private final boolean abandonAtShuffleEnd;
  private final boolean finishAllAtShuffleEnd;
  private final String reduceJvmOptions;
  private final float partialHeapLimit;
  private final boolean adaptiveEnabled;
  private final float adaptiveRatioThreshold;
  private final int adaptiveMinInvocations;
  private final String timelineDir;
  private final int failInvocation;
  private final boolean staggerEnabled;
  private final int staggerReducesPerNode;
  private final int staggerNonTaskNodes;
  private final boolean staggerStockJobs;
  private final boolean staggerFullRampUp;
  private final boolean asyncOutputEnabled;
  private final int asyncOutputBufferBytes;

  private MarcoSettings(Configuration conf) {
    enabled = bool(conf, MarcoConfig.ENABLED, MarcoConfig.DEFAULT_ENABLED);
    partialReduceEnabled =
        bool(conf, MarcoConfig.PARTIAL_REDUCE_ENABLED, MarcoConfig.DEFAULT_PARTIAL_REDUCE_ENABLED);
    useCombinerAsPartialReducer =
        bool(
            conf,
            MarcoConfig.PARTIAL_REDUCER_USE_COMBINER,
            MarcoConfig.DEFAULT_PARTIAL_REDUCER_USE_COMBINER);
    partialContractStrict =
        bool(
            conf, MarcoConfig.PARTIAL_CONTRACT_STRICT, MarcoConfig.DEFAULT_PARTIAL_CONTRACT_STRICT);
    fetchToDiskWhenFull =
        bool(
            conf, MarcoConfig.FETCH_TO_DISK_WHEN_FULL, MarcoConfig.DEFAULT_FETCH_TO_DISK_WHEN_FULL);
    initialThreshold =
        integer(
            conf,
            MarcoConfig.START_THRESHOLD_INITIAL,
            MarcoConfig.DEFAULT_START_THRESHOLD_INITIAL,
            1,
            100_000);
    initialInvocations =
        integer(
            conf,
            MarcoConfig.START_THRESHOLD_INITIAL_INVOCATIONS,
            MarcoConfig.DEFAULT_START_THRESHOLD_INITIAL_INVOCATIONS,
            0,
            100_000);
    steadyThreshold =
        integer(conf, MarcoConfig.START_THRESHOLD, MarcoConfig.DEFAULT_START_THRESHOLD, 1, 100_000);
    stopFraction = fraction(conf, MarcoConfig.STOP_FRACTION, MarcoConfig.DEFAULT_STOP_FRACTION);
    startWhenThresholdUnreachable =
        bool(
            conf,
            MarcoConfig.START_WHEN_THRESHOLD_UNREACHABLE,
            MarcoConfig.DEFAULT_START_WHEN_THRESHOLD_UNREACHABLE);
    startWhenThresholdLate =
        bool(
            conf,
            MarcoConfig.START_WHEN_THRESHOLD_LATE,
            MarcoConfig.DEFAULT_START_WHEN_THRESHOLD_LATE);
    startWhenMapsComplete =
        bool(
            conf,
            MarcoConfig.START_WHEN_MAPS_COMPLETE,
            MarcoConfig.DEFAULT_START_WHEN_MAPS_COMPLETE);
    startOnlyWithinShuffle =
        bool(
            conf,
            MarcoConfig.START_ONLY_WITHIN_SHUFFLE,
            MarcoConfig.DEFAULT_START_ONLY_WITHIN_SHUFFLE);
    invocationMaxBytes =
        bytes(
            conf,
            MarcoConfig.INVOCATION_MAX_BYTES,
            MarcoConfig.DEFAULT_INVOCATION_MAX_BYTES,
            0,
            1L << 40);
    partialThreads =
        integer(conf, MarcoConfig.PARTIAL_THREADS, MarcoConfig.DEFAULT_PARTIAL_THREADS, 1, 64);
    partialNice = integer(conf, MarcoConfig.PARTIAL_NICE, MarcoConfig.DEFAULT_PARTIAL_NICE, 0, 19);
    partialCpuCgroup =
        cgroupPath(
            conf,
            MarcoConfig.PARTIAL_CPU_CGROUP,
            MarcoConfig.DEFAULT_PARTIAL_CPU_CGROUP,
            true,
            "/sys/fs/cgroup/cpu/marco-partial, a name such as marco-partial");
    shuffleCpuCgroup =
        cgroupPath(
            conf,
            MarcoConfig.SHUFFLE_CPU_CGROUP,
            MarcoConfig.DEFAULT_SHUFFLE_CPU_CGROUP,
            false,
            "/sys/fs/cgroup/cpu/marco-shuffle");
    controlEnabled = bool(conf, MarcoConfig.CONTROL_ENABLED, MarcoConfig.DEFAULT_CONTROL_ENABLED);
    abandonAtShuffleEnd =
        bool(conf, MarcoConfig.ABANDON_AT_SHUFFLE_END, MarcoConfig.DEFAULT_ABANDON_AT_SHUFFLE_END);
    finishAllAtShuffleEnd =
        bool(
            conf,
            MarcoConfig.FINISH_ALL_AT_SHUFFLE_END,
            MarcoConfig.DEFAULT_FINISH_ALL_AT_SHUFFLE_END);
    if (abandonAtShuffleEnd && finishAllAtShuffleEnd) {
      throw new IllegalArgumentException(
          MarcoConfig.ABANDON_AT_SHUFFLE_END
              + " and "
              + MarcoConfig.FINISH_ALL_AT_SHUFFLE_END
              + " are both true, but a running invocation cannot be both abandoned and finished"
              + " at shuffle end: set at most one of them (neither: finish what is worth the"
              + " wait).");
    }
    partialHeapLimit =
        fraction(
            conf,
            MarcoConfig.PARTIAL_HEAP_LIMIT_PERCENT,
            MarcoConfig.DEFAULT_PARTIAL_HEAP_LIMIT_PERCENT);
    adaptiveEnabled =
        bool(conf, MarcoConfig.ADAPTIVE_ENABLED, MarcoConfig.DEFAULT_ADAPTIVE_ENABLED);
    adaptiveRatioThreshold =
        fraction(
            conf,
            MarcoConfig.ADAPTIVE_RATIO_THRESHOLD,
            MarcoConfig.DEFAULT_ADAPTIVE_RATIO_THRESHOLD);
    adaptiveMinInvocations =
        integer(
            conf,
            MarcoConfig.ADAPTIVE_MIN_INVOCATIONS,
            MarcoConfig.DEFAULT_ADAPTIVE_MIN_INVOCATIONS,
            1,
            100_000);
    timelineDir = conf.getTrimmed(MarcoConfig.TIMELINE_DIR, MarcoConfig.DEFAULT_TIMELINE_DIR);
    // Not getTrimmed: it reads an empty value as the default, and empty means none here.
    String jvmOptions =
        conf.get(MarcoConfig.REDUCE_JVM_OPTIONS, MarcoConfig.DEFAULT_REDUCE_JVM_OPTIONS).trim();
    reduceJvmOptions = jvmOptions.equalsIgnoreCase("none") ? "" : jvmOptions;
    failInvocation =
        integer(
            conf,
            MarcoConfig.TEST_FAIL_INVOCATION,
            MarcoConfig.DEFAULT_TEST_FAIL_INVOCATION,
            0,
            Integer.MAX_VALUE);
    staggerEnabled = bool(conf, MarcoConfig.STAGGER_ENABLED, MarcoConfig.DEFAULT_STAGGER_ENABLED);
    staggerReducesPerNode =
        integer(
            conf,
            MarcoConfig.STAGGER_REDUCES_PER_NODE,
            MarcoConfig.DEFAULT_STAGGER_REDUCES_PER_NODE,
            1,
            1024);
    staggerNonTaskNodes =
        integer(
            conf,
            MarcoConfig.STAGGER_NON_TASK_NODES,
            MarcoConfig.DEFAULT_STAGGER_NON_TASK_NODES,
            0,
            Integer.MAX_VALUE);
    asyncOutputEnabled =
        bool(conf, MarcoConfig.ASYNC_OUTPUT_ENABLED, MarcoConfig.DEFAULT_ASYNC_OUTPUT_ENABLED);
    staggerStockJobs =
        bool(conf, MarcoConfig.STAGGER_STOCK_JOBS, MarcoConfig.DEFAULT_STAGGER_STOCK_JOBS);
    staggerFullRampUp =
        bool(conf, MarcoConfig.STAGGER_FULL_RAMPUP, MarcoConfig.DEFAULT_STAGGER_FULL_RAMPUP);
    asyncOutputBufferBytes =
        (int)
            bytes(
                conf,
                MarcoConfig.ASYNC_OUTPUT_BUFFER_BYTES,
                MarcoConfig.DEFAULT_ASYNC_OUTPUT_BUFFER_BYTES,
                64L * 1024,
                1024L * 1024 * 1024);
  }

  /**
   * Reads and validates every {@code mapreduce.marco.*} key.
   *
   * @throws IllegalArgumentException naming the key, the value and the allowed range
   */
  public static MarcoSettings from(Configuration conf) {
    return new MarcoSettings(conf);
  }

  public boolean isEnabled() {
    return enabled;
  }

  public boolean isPartialReduceEnabled() {
    return partialReduceEnabled;
  }

  public boolean useCombinerAsPartialReducer() {
    return useCombinerAsPartialReducer;
  }

  /** Whether a partial reducer that breaks its contract fails the attempt. */
  public boolean isPartialContractStrict() {
    return partialContractStrict;
  }

  /** Whether a fetch that finds the shuffle memory full goes to disk instead of waiting. */
  public boolean isFetchToDiskWhenFull() {
    return fetchToDiskWhenFull;
  }

  public boolean isControlEnabled() {
    return controlEnabled;
  }

  /**
   * Unprocessed map outputs needed before invocation number {@code invocationIndex} (0-based)
   * may start. Without control every arrival qualifies (the paper's MaRCO-no-control).
   */
  public int startThreshold(int invocationIndex) {
    if (!controlEnabled) {
      return 1;
    }
    return invocationIndex < initialInvocations ? initialThreshold : steadyThreshold;
  }

  /** The stop fraction in force: 1.0 without control. */
  public float effectiveStopFraction() {
    return controlEnabled ? stopFraction : 1.0f;
  }

  /**
   * Whether waiting map outputs start an invocation once the start threshold is out of their
   * reach: never without control, whose threshold is 1.
   */
  public boolean effectiveStartWhenThresholdUnreachable() {
    return controlEnabled && startWhenThresholdUnreachable;
  }

  /**
   * Whether waiting map outputs start an invocation once a batch of the start threshold is
   * forecast to end after the shuffle: never without control, whose threshold is 1.
   */
  public boolean effectiveStartWhenThresholdLate() {
    return controlEnabled && startWhenThresholdLate;
  }

  /**
   * Whether, once every map has completed, any waiting map output starts an invocation: never
   * without control, whose threshold is 1.
   */
  public boolean effectiveStartWhenMapsComplete() {
    return controlEnabled && startWhenMapsComplete;
  }

  /**
   * Whether an invocation forecast to end after the shuffle is held back: never without control,
   * which starts on every arrival, nor where every invocation finishes at shuffle end, which
   * waits for the work by choice.
   */
  public boolean effectiveStartOnlyWithinShuffle() {
    return controlEnabled && startOnlyWithinShuffle && !finishAllAtShuffleEnd;
  }

  /**
   * The most raw bytes one invocation takes (it takes at least one run): unbounded ({@link
   * Long#MAX_VALUE}) for 0 and without control.
   */
  public long effectiveInvocationMaxBytes() {
    return controlEnabled && invocationMaxBytes > 0 ? invocationMaxBytes : Long.MAX_VALUE;
  }

  /** The nice value of partial threads in force: normal priority (0) without control. */
  public int effectivePartialNice() {
    return controlEnabled ? partialNice : 0;
  }

  /** The cpu cgroup partial threads join, empty for none: none without control. */
  public String effectivePartialCpuCgroup() {
    return controlEnabled ? partialCpuCgroup : "";
  }

  /** The cpu cgroup the reduce JVM shuffles in, empty for none: none without control. */
  public String effectiveShuffleCpuCgroup() {
    return controlEnabled ? shuffleCpuCgroup : "";
  }

  /**
   * The JVM options the AppMaster adds to the job's reduces, empty for none: none without
   * control, where no thread takes a low share.
   */
  public String effectiveReduceJvmOptions() {
    return controlEnabled ? reduceJvmOptions : "";
  }

  /** Whether running invocations are abandoned at shuffle end: never without control. */
  public boolean effectiveAbandonAtShuffleEnd() {
    return controlEnabled && abandonAtShuffleEnd;
  }

  /**
   * Whether every running invocation finishes at shuffle end, worth the wait or not: always
   * without control.
   */
  public boolean effectiveFinishAllAtShuffleEnd() {
    return !controlEnabled || finishAllAtShuffleEnd;
  }

  /** The heap share above which partial work backs off (1: never). */
  public float getPartialHeapLimit() {
    return partialHeapLimit;
  }

  public int getPartialThreads() {
    return partialThreads;
  }

  public boolean isAdaptiveEnabled() {
    return adaptiveEnabled;
  }

  public float getAdaptiveRatioThreshold() {
    return adaptiveRatioThreshold;
  }

  public int getAdaptiveMinInvocations() {
    return adaptiveMinInvocations;
  }

  public String getTimelineDir() {
    return timelineDir;
  }

  public int getFailInvocation() {
    return failInvocation;
  }

  public boolean isStaggerEnabled() {
    return staggerEnabled;
  }

  public int getStaggerReducesPerNode() {
    return staggerReducesPerNode;
  }

  /** NodeManagers the RM counts on which the job's tasks cannot run. */
  public int getStaggerNonTaskNodes() {
    return staggerNonTaskNodes;
  }

  /** Whether jobs on Hadoop's own shuffle are staggered too. */
  public boolean isStaggerStockJobs() {
    return staggerStockJobs;
  }

  /** Whether a staggered job asks for all its early reduces at once (see the key). */
  public boolean isStaggerFullRampUp() {
    return staggerFullRampUp;
  }

  public boolean isAsyncOutputEnabled() {
    return asyncOutputEnabled;
  }

  public int getAsyncOutputBufferBytes() {
    return asyncOutputBufferBytes;
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "control=%s, start.threshold=%d (first %d invocations) then %d, stop.fraction=%.2f,"
            + " start.when.threshold.unreachable=%s, start.when.threshold.late=%s,"
            + " start.when.maps.complete=%s,"
            + " start.only.within.shuffle=%s, invocation.max.bytes=%s, partial.threads=%d,"
            + " partial.nice=%d, partial.cpu.cgroup=%s, shuffle.cpu.cgroup=%s,"
            + " abandon.at.shuffle.end=%s, finish.all.at.shuffle.end=%s, partial.heap.limit=%.2f,"
            + " partial.reduce=%s, adaptive=%s (ratio %.2f over %d invocations)",
        controlEnabled,
        startThreshold(0),
        controlEnabled ? initialInvocations : 0,
        startThreshold(Integer.MAX_VALUE),
        effectiveStopFraction(),
        effectiveStartWhenThresholdUnreachable(),
        effectiveStartWhenThresholdLate(),
        effectiveStartWhenMapsComplete(),
        effectiveStartOnlyWithinShuffle(),
        effectiveInvocationMaxBytes() == Long.MAX_VALUE
            ? "unbounded"
            : TraditionalBinaryPrefix.long2String(effectiveInvocationMaxBytes(), "B", 0),
        partialThreads,
        effectivePartialNice(),
        orNone(effectivePartialCpuCgroup()),
        orNone(effectiveShuffleCpuCgroup()),
        effectiveAbandonAtShuffleEnd(),
        effectiveFinishAllAtShuffleEnd(),
        partialHeapLimit,
        partialReduceEnabled,
        adaptiveEnabled,
        adaptiveRatioThreshold,
        adaptiveMinInvocations);
  }

  private static String orNone(String value) {
    return value.isEmpty() ? "none" : value;
  }

  private static IllegalArgumentException invalid(String key, String value, String range) {
    return new IllegalArgumentException(
        "Invalid value '"
            + value
            + "' for "
            + key
            + ": allowed "
            + range
            + ". Fix the job configuration (-D "
            + key
            + "=...).");
  }

  private static boolean bool(Configuration conf, String key, boolean dflt) {
    String value = conf.getTrimmed(key);
    if (value == null || value.isEmpty()) {
      return dflt;
    }
    if (value.equalsIgnoreCase("true")) {
      return true;
    }
    if (value.equalsIgnoreCase("false")) {
      return false;
    }
    throw invalid(key, value, "true or false");
  }

  private static int integer(Configuration conf, String key, int dflt, int min, int max) {
    String value = conf.getTrimmed(key);
    if (value == null || value.isEmpty()) {
      return dflt;
    }
    String range = "an integer in [" + min + ", " + max + "]";
    int parsed;
    try {
      parsed = Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw invalid(key, value, range);
    }
    if (parsed < min || parsed > max) {
      throw invalid(key, value, range);
    }
    return parsed;
  }

  /** A byte size: a number of bytes, or with Hadoop's k, m, g suffixes ({@code 64m}, {@code 1g}). */
  private static long bytes(Configuration conf, String key, long dflt, long min, long max) {
    String value = conf.getTrimmed(key);
    if (value == null || value.isEmpty()) {
      return dflt;
    }
    String range =
        "a byte size in ["
            + TraditionalBinaryPrefix.long2String(min, "", 0)
            + ", "
            + TraditionalBinaryPrefix.long2String(max, "", 0)
            + "] (bytes, or with a k, m or g "
            + "suffix such as 64m)";
    long parsed;
    try {
      parsed = TraditionalBinaryPrefix.string2long(value);
    } catch (IllegalArgumentException e) {
      throw invalid(key, value, range);
    }
    if (parsed < min || parsed > max) {
      throw invalid(key, value, range);
    }
    return parsed;
  }

  /** The value of a path key that means no path, where mapred-site.xml sets one. */
  public static final String NONE = "none";

  /**
   * Empty or none, or a cgroup directory on the node that runs the task: an absolute path, or with
   * {@code relative} also a path below the JVM's own cgroup, which may not climb out of it
   * ({@code ..}).
   */
  private static String cgroupPath(
      Configuration conf, String key, String dflt, boolean relative, String example) {
    String value = conf.getTrimmed(key, dflt);
    // A job's empty value never reaches its tasks (Hadoop drops empty values from job.xml), so
    // a job turns off what mapred-site.xml sets with "none".
    if (value.equalsIgnoreCase(NONE)) {
      return "";
    }
    boolean valid =
        value.isEmpty()
            || value.startsWith("/")
            || relative && !Arrays.asList(value.split("/+")).contains("..");
    if (!valid) {
      throw invalid(
          key,
          value,
          (relative ? "an absolute path or one below the JVM's own cgroup" : "an absolute path")
              + " such as "
              + example
              + ", or none");
    }
    return value;
  }

  /** A number in (0, 1]. */
  private static float fraction(Configuration conf, String key, float dflt) {
    String value = conf.getTrimmed(key);
    if (value == null || value.isEmpty()) {
      return dflt;
    }
    String range = "a number in (0, 1]";
    float parsed;
    try {
      parsed = Float.parseFloat(value);
    } catch (NumberFormatException e) {
      throw invalid(key, value, range);
    }
    if (!(parsed > 0f && parsed <= 1f)) {
      throw invalid(key, value, range);
    }
    return parsed;
  }
}
