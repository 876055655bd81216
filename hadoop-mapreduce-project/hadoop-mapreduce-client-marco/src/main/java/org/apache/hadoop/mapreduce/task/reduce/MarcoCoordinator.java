/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The one normal-priority thread that applies what the partial threads finish. A partial thread
 * runs at nice 19, perhaps in a cpu cgroup with a tiny share: the kernel may leave it off the CPU
 * for seconds while the maps run. Were it to commit its own outcome under the merge manager's
 * lock, every fetcher's commit (which Hadoop makes from inside its synchronized scheduler) would
 * wait for it. So a partial thread only posts its outcome here, with no lock at all (a lock-free
 * queue and an unpark), and this thread, at the container's share, takes the merge manager's lock
 * to apply it. Outcomes are applied one at a time, in the order posted.
 */
final class MarcoCoordinator {
  /** A parked coordinator looks at its queue at least this often, so a lost unpark cannot hang. */
  private static final long PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final ConcurrentLinkedQueue<Runnable> posted = new ConcurrentLinkedQueue<>();
  private final Consumer<Throwable> onFailure;
  private final Thread thread;
  private volatile boolean stopping;

  /**
   * Starts the coordinator thread from {@code threads}, which must make it at the container's
   * share. {@code onFailure} gets what an outcome throws; the coordinator goes on with the next.
   */
  MarcoCoordinator(ThreadFactory threads, Consumer<Throwable> onFailure) {
    this.onFailure = onFailure;
    this.thread = threads.newThread(this::applyPosted);
    thread.start();
  }

  /** Hands an outcome over without blocking and without taking a lock; any thread may call it. */
  void post(Runnable outcome) {
    posted.offer(outcome);
    LockSupport.unpark(thread);
  }

  /** Applies what is posted until {@link #shutdown}, and then what was posted before it. */
  private void applyPosted() {
    while (true) {
      Runnable outcome = posted.poll();
      if (outcome != null) {
        try {
          outcome.run();
        } catch (Throwable t) {
          onFailure.accept(t);
        }
      } else if (stopping) {
        return;
      } else {
        LockSupport.parkNanos(this, PARK_NANOS);
      }
    }
  }

  /** Ends the thread once the outcomes posted so far are applied; it does not wait for that. */
  void shutdown() {
    stopping = true;
    LockSupport.unpark(thread);
  }

  /**
   * Waits at most {@code millis} for the thread to end after {@link #shutdown}; returns whether
   * it has.
   */
  boolean awaitTermination(long millis) throws InterruptedException {
    thread.join(millis);
    return !thread.isAlive();
  }
}
