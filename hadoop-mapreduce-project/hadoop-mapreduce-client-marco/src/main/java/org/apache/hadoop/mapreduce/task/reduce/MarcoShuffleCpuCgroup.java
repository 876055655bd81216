/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.nio.file.Paths;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the reduce JVM (all of it on cgroup v2; on v1 all but its fetch path, below) in a
 * low-share cpu cgroup while it shuffles ({@link MarcoConfig#SHUFFLE_CPU_CGROUP}), so that a
 * reduce started with the first map takes little CPU from the maps; and moves it back to the cgroup it came from at
 * shuffle end, so that the final merge and the reducer run at the container's share.
 *
 * <p>A process has one cgroup per hierarchy, so the membership is the JVM's, not a reduce's: where
 * one JVM runs several reduces at once (the LocalJobRunner), the first to start shuffling moves it
 * and the last to finish moves it back. The move back comes first thing at shuffle end, before
 * the wait for running partial invocations and spills, and takes every thread along, partial
 * threads included (v1: from anywhere; v2: from a threaded child of this cgroup): what still runs
 * then (an invocation that is not abandoned at shuffle end, a spill) is on the final merge's
 * critical path and runs at the container's share. A shuffle that fails moves back too
 * ({@link MarcoShuffle#run}).
 *
 * <p>Hadoop's fetchers, its event fetcher and MaRCO's memory spill stay at the container's
 * share ({@link #keepCurrentThreadAtContainerShare}): they need little CPU, but the link across
 * the bisection is the scarce resource, and a fetcher that waits for CPU (or for a spill that
 * waits for CPU) leaves it idle while the maps run, so that more of the shuffle is left for
 * after them. Moving them back one by one, on their first fetch, was not enough: born in the
 * cgroup, the event fetcher and the fetchers took seconds to get that far. So the task's main
 * thread goes back right after the join, before it starts them, and they are born at the
 * container's share. That needs cgroup v1, which moves single threads anywhere; v2 moves a
 * thread only within its process's threaded subtree, so there the fetchers share the cgroup's
 * weight with the rest of the reduce.
 */
final class MarcoShuffleCpuCgroup {
  private static final Logger LOG = LoggerFactory.getLogger(MarcoShuffleCpuCgroup.class);
  private static final MarcoShuffleCpuCgroup NONE = new MarcoShuffleCpuCgroup(null, null);

  /** Reduces of this JVM shuffling in the cgroup; guarded by the class. */
  private static int shuffling;

  /** Where the JVM was before the first of them moved it; guarded by the class. */
  private static MarcoCpuCgroup origin;

  private final TaskAttemptID reduceId;
  private final MarcoCpuCgroup cgroup;
  private boolean joined;

  private MarcoShuffleCpuCgroup(TaskAttemptID reduceId, MarcoCpuCgroup cgroup) {
    this.reduceId = reduceId;
    this.cgroup = cgroup;
    this.joined = cgroup != null;
  }

  /**
   * Moves this JVM into the cpu cgroup {@code dir} (empty: none) for the shuffle of
   * {@code reduceId}. Where it cannot, or could not come back afterwards, it logs a WARN naming
   * the fix and leaves the JVM where it is.
   */
  static MarcoShuffleCpuCgroup join(String dir, TaskAttemptID reduceId) {
    if (dir.isEmpty()) {
      return NONE;
    }
    MarcoCpuCgroup target = MarcoCpuCgroup.at(Paths.get(dir));
    synchronized (MarcoShuffleCpuCgroup.class) {
      if (shuffling > 0) {
        shuffling++;
        LOG.info(
            "MaRCO: reduce {} shuffles in the cpu cgroup this JVM joined for another reduce still"
                + " shuffling",
            reduceId);
        return new MarcoShuffleCpuCgroup(reduceId, target);
      }
      long pid = ProcessHandle.current().pid();
      try {
        MarcoCpuCgroup from = MarcoCpuCgroup.ofThisProcess(target.version());
        if (!from.mayTakeProcessFrom(target)) {
          throw new IOException(
              "it could not move back to "
                  + from.dir()
                  + " after the shuffle: "
                  + "no write access to that cgroup's "
                  + MarcoCpuCgroup.PROCS
                  + (target.version() == MarcoCpuCgroup.Version.V2
                      ? " or to the one of the nearest cgroup above both"
                      : ""));
        }
        target.addProcess(pid);
        origin = from;
        shuffling = 1;
        LOG.info(
            "MaRCO: reduce {} (pid {}) joined cpu cgroup {} for the shuffle, from {}",
            reduceId,
            pid,
            dir,
            from.dir());
        return new MarcoShuffleCpuCgroup(reduceId, target);
      } catch (IOException e) {
        LOG.warn(
            "MaRCO: reduce {} cannot join cpu cgroup {} for the shuffle ({}); it shuffles at its"
                + " container's share. Fix: {}, or unset {}",
            reduceId,
            dir,
            e,
            fix(target),
            MarcoConfig.SHUFFLE_CPU_CGROUP);
        return NONE;
      }
    }
  }

  /** Moves the JVM back where it was, unless other reduces of it still shuffle. */
  void leave() {
    synchronized (MarcoShuffleCpuCgroup.class) {
      if (!joined) {
        return;
      }
      joined = false;
      if (--shuffling > 0) {
        LOG.info(
            "MaRCO: reduce {} done shuffling; this JVM stays in cpu cgroup {} while {} more of its"
                + " reduces shuffle",
            reduceId,
            cgroup.dir(),
            shuffling);
        return;
      }
      MarcoCpuCgroup back = origin;
      origin = null;
      try {
        back.addProcess(ProcessHandle.current().pid());
        LOG.info(
            "MaRCO: reduce {} back in cpu cgroup {} for the final merge", reduceId, back.dir());
      } catch (IOException e) {
        LOG.warn(
            "MaRCO: reduce {} cannot move back to cpu cgroup {} ({}); its final merge and reducer"
                + " run at the share of {}. Fix: let the task user write {}, or unset {}",
            reduceId,
            back.dir(),
            e,
            cgroup.dir(),
            back.dir().resolve(MarcoCpuCgroup.PROCS),
            MarcoConfig.SHUFFLE_CPU_CGROUP);
      }
    }
  }

  /**
   * Moves the calling thread back to the cgroup the JVM came from, so that it, and the threads
   * it starts from then on, run at the container's share: called by the task's main thread
   * before it starts Hadoop's event fetcher and fetchers, and by the memory spill, whose end a
   * waiting fetcher needs. A no-op outside the cgroup and on v2. A thread that cannot move stays
   * in the cgroup, with a WARN.
   */
  void keepCurrentThreadAtContainerShare() {
    synchronized (MarcoShuffleCpuCgroup.class) {
      if (!joined || origin == null || origin.version() != MarcoCpuCgroup.Version.V1) {
        return;
      }
      int tid = MarcoCpuShareThreadFactory.currentThreadTid();
      try {
        origin.addThread(tid);
      } catch (IOException e) {
        LOG.warn(
            "MaRCO: thread {} of reduce {} cannot go back to cpu cgroup {} ({}); it runs at the"
                + " share of {}",
            tid,
            reduceId,
            origin.dir(),
            e,
            cgroup.dir());
      }
    }
  }

  private static String fix(MarcoCpuCgroup target) {
    String dir = target.dir().toString();
    if (target.version() == MarcoCpuCgroup.Version.V2) {
      return "create it on every NodeManager host (mkdir "
          + dir
          + " && echo 13 > "
          + dir
          + "/cpu.weight, with +cpu in its parent's cgroup.subtree_control), the task user "
          + "allowed to write its cgroup.procs and the one of the nearest cgroup above it and "
          + "the containers";
    }
    return "create it on every NodeManager host (mkdir "
        + dir
        + " && echo 128 > "
        + dir
        + "/cpu.shares), the task user allowed to write its cgroup.procs and the one of the "
        + "container's cpu cgroup";
  }
}
