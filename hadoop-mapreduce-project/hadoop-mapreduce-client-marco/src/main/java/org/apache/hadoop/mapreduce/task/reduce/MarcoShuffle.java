/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoJobCheck;
import org.apache.hadoop.mapreduce.marco.MarcoSettings;
import org.apache.hadoop.mapreduce.marco.MarcoVersion;
import org.apache.hadoop.mapreduce.marco.PartialReducerSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MaRCO shuffle consumer: Hadoop's own fetchers (HTTP on YARN, local in local/uber mode),
 * scheduler, retries and fetch-failure handling, with MaRCO's merge manager behind them.
 * Select it with {@code mapreduce.job.reduce.shuffle.consumer.plugin.class}; with
 * {@code mapreduce.marco.enabled=false} it is Hadoop's stock shuffle.
 */
@InterfaceAudience.LimitedPrivate({"MapReduce"})
@InterfaceStability.Unstable
public class MarcoShuffle<K, V> extends Shuffle<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(MarcoShuffle.class);

  /** The MaRCO merge manager of this shuffle; null where MaRCO is switched off. */
  private MarcoMergeManager<K, V> marcoMerger;

  /** Whether every map has completed, told to the merge manager; null where MaRCO is off. */
  private MarcoMapCompletionWatch mapCompletion;

  /**
   * Hadoop's shuffle, with the umbilical wrapped where MaRCO is on so that the merge manager
   * learns, from the event fetcher's own answers, when the maps have all completed.
   */
  @Override
  public void init(ShuffleConsumerPlugin.Context context) {
    // Before anything else: on a Hadoop it was not tested on, this class (built against the
    // pinned Hadoop) may fail later on a changed Hadoop class, with a less telling error.
    MarcoVersion.checkRunningHadoop();
    JobConf conf = context.getJobConf();
    if (!conf.getBoolean(MarcoConfig.ENABLED, MarcoConfig.DEFAULT_ENABLED)) {
      super.init(context);
      return;
    }
    mapCompletion = new MarcoMapCompletionWatch(conf.getNumMapTasks());
    super.init(mapCompletion.watching(context));
  }

  @Override
  @SuppressWarnings("unchecked")
  protected MergeManager<K, V> createMergeManager(ShuffleConsumerPlugin.Context context) {
    JobConf conf = context.getJobConf();
    TaskAttemptID reduceId = context.getReduceId();
    MarcoSettings settings;
    PartialReducerSpec partialReducer;
    try {
      settings = MarcoSettings.from(conf);
      partialReducer = settings.isEnabled() ? PartialReducerSpec.resolve(conf, settings) : null;
    } catch (IllegalArgumentException e) {
      // The distribution's AppMaster (MarcoMRAppMaster) rejects such a job before any task runs;
      // under Hadoop's own AppMaster each reduce attempt fails with this message, which the task
      // logs (YarnChild) and the job's diagnostics carry: it is not logged here as well.
      throw new IllegalArgumentException(MarcoJobCheck.ERROR_PREFIX + e.getMessage(), e);
    }
    if (!settings.isEnabled()) {
      LOG.info(
          "MaRCO disabled for {} (mapreduce.marco.enabled=false): Hadoop's stock merge manager is"
              + " used",
          reduceId);
      return super.createMergeManager(context);
    }
    LOG.info(
        "MaRCO shuffle consumer started for {} ({}): {}",
        reduceId,
        MarcoVersion.describe(),
        settings);
    MapOutputFile mapOutputFile = context.getMapOutputFile();
    mapOutputFile.setConf(conf);
    FileSystem rawLocal = ((LocalFileSystem) context.getLocalFS()).getRaw();
    marcoMerger =
        new MarcoMergeManager<>(
            reduceId,
            conf,
            rawLocal,
            mapOutputFile,
            context.getCodec(),
            context.getReporter(),
            this,
            settings,
            partialReducer,
            context.getCombinerClass(),
            context.getSpilledRecordsCounter(),
            context.getMergedMapOutputsCounter(),
            context.getMergePhase());
    if (mapCompletion != null) {
      mapCompletion.setListener(marcoMerger::mapsCompleted);
    }
    return marcoMerger;
  }

  /**
   * Called by the reduce task after its reducer: the final merge lets go of what it kept for
   * partial work that was abandoned at shuffle end, and the timeline copy, which ran beside the
   * reducer, ends before the task reports itself done.
   */
  @Override
  public void close() {
    super.close();
    if (marcoMerger == null) {
      return;
    }
    marcoMerger.afterReduce();
    try {
      marcoMerger.awaitTimelineCopy(MarcoTimeline.COPY_WAIT_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Hadoop's shuffle; a shuffle that fails (Hadoop throws without closing the merge manager)
   * still leaves the low-share cpu cgroup, so a JVM that runs on, or retries, is not left in it.
   */
  @Override
  public RawKeyValueIterator run() throws IOException, InterruptedException {
    try {
      return super.run();
    } finally {
      if (marcoMerger != null) {
        marcoMerger.leaveShuffleCpuCgroup();
      }
    }
  }
}
