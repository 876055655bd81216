/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.advise;

import java.util.Comparator;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * A job's phases along its critical path, in seconds, as the benchmark harness computes them
 * (benchmarks/harness/breakdown.py, docs/harness.md): they add up to the job's time from submit
 * to finish. The critical reduce is the successful reduce attempt that finished last.
 *
 * <p>A history has no machine CPU samples, so the CPU term's inputs are estimated from the
 * critical reduce alone: its final merge and reduce run on one thread, so they need their own
 * seconds of one core; in the exposed shuffle its container had {@code
 * mapreduce.reduce.cpu.vcores} cores, less what its fetchers used there. The fetchers' CPU is
 * the reduce's CPU_MILLISECONDS less its final phases (taken as a full core), spread evenly over
 * its shuffle. Where the attempt's CPU is unknown both are NaN and the CPU term drops out.
 */
@InterfaceAudience.Private
record Breakdown(
    double startup,
    double map,
    double exposedShuffle,
    double finalMerge,
    double finalReduce,
    double outputWrite,
    double cleanup,
    double idleCpu,
    double finalCpu) {

  static Breakdown of(JobRun job) {
    long firstMap =
        job.maps().stream().mapToLong(JobRun.TaskSpan::start).min().orElse(job.submit());
    long lastMap = job.maps().stream().mapToLong(JobRun.TaskSpan::finish).max().orElse(firstMap);
    if (job.reduces().isEmpty()) {
      return new Breakdown(
          seconds(firstMap - job.submit()),
          seconds(lastMap - firstMap),
          0,
          0,
          0,
          0,
          seconds(job.finish() - lastMap),
          Double.NaN,
          Double.NaN);
    }
    JobRun.ReduceSpan crit =
        job.reduces().stream().max(Comparator.comparingLong(JobRun.ReduceSpan::finish)).get();
    long shuffleEnd = Math.max(crit.shuffleEnd(), lastMap);
    long sortEnd = Math.max(crit.sortEnd(), shuffleEnd);
    long finish = Math.max(crit.finish(), sortEnd);
    long write = Math.max(0, Math.min(crit.outputWriteMillis(), finish - sortEnd));
    double exposed = seconds(shuffleEnd - lastMap);
    double finalWork = seconds(finish - shuffleEnd - write);
    double idle = Double.NaN;
    if (crit.cpuMillis() >= 0) {
      double fetcherCpu = Math.max(0, crit.cpuMillis() / 1000.0 - seconds(finish - shuffleEnd));
      double shuffle = seconds(crit.shuffleEnd() - crit.start());
      double inExposed = shuffle > 0 ? fetcherCpu * Math.min(1, exposed / shuffle) : 0;
      idle = Math.max(0, vcores(job) * exposed - inExposed);
    }
    return new Breakdown(
        seconds(firstMap - job.submit()),
        seconds(lastMap - firstMap),
        exposed,
        seconds(sortEnd - shuffleEnd),
        seconds(finish - sortEnd - write),
        seconds(write),
        seconds(Math.max(0, job.finish() - finish)),
        idle,
        Double.isNaN(idle) ? Double.NaN : finalWork);
  }

  private static int vcores(JobRun job) {
    String value = job.conf() == null ? null : job.conf().get(MRJobConfig.REDUCE_CPU_VCORES);
    try {
      return value == null ? MRJobConfig.DEFAULT_REDUCE_CPU_VCORES : Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      return MRJobConfig.DEFAULT_REDUCE_CPU_VCORES;
    }
  }

  private static double seconds(long millis) {
    return Math.max(0, millis) / 1000.0;
  }

  /** The job's time: the phases' sum. */
  double wall() {
    return startup + map + exposedShuffle + finalMerge + finalReduce + outputWrite + cleanup;
  }

  SpeedupModel.Prediction predict() {
    return SpeedupModel.predict(wall(), exposedShuffle, finalMerge, finalReduce, idleCpu, finalCpu);
  }

  /** The prediction with partial sort alone (no partial reducer): only the merge can move. */
  SpeedupModel.Prediction predictSortOnly() {
    // The merge alone needs its own seconds of the core the final work needed.
    double mergeCpu = Double.isNaN(finalCpu) ? Double.NaN : finalMerge;
    return SpeedupModel.predict(wall(), exposedShuffle, finalMerge, 0, idleCpu, mergeCpu);
  }
}
