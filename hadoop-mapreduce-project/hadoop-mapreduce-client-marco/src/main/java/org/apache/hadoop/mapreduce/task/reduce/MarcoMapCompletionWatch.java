/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.mapred.MapTaskCompletionEventsUpdate;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskCompletionEvent;
import org.apache.hadoop.mapred.TaskID;
import org.apache.hadoop.mapred.TaskUmbilicalProtocol;

/**
 * Tells a reduce whether every map of its job has completed, from the map-completion events that
 * Hadoop's event fetcher already asks the ApplicationMaster for: the reduce's umbilical is wrapped
 * ({@link #watching}), so no extra call reaches the AM. A map counts as completed from the event
 * that says its attempt SUCCEEDED (or that the task failed for good, TIPFAILED: no output of it
 * will come) until an event says that attempt is OBSOLETE, FAILED or KILLED (its output was lost
 * and the map runs again). The listener hears each change of the answer, on the event fetcher's
 * thread.
 */
@InterfaceAudience.Private
final class MarcoMapCompletionWatch {
  private final int totalMaps;

  /** Per completed map: the attempt that completed it. */
  private final Map<TaskID, TaskAttemptID> completed = new HashMap<>();

  private boolean allComplete;

  private volatile Consumer<Boolean> listener = complete -> {};

  MarcoMapCompletionWatch(int totalMaps) {
    this.totalMaps = totalMaps;
  }

  /** Who hears that all maps have completed ({@code true}) or that one runs again. */
  void setListener(Consumer<Boolean> listener) {
    this.listener = listener;
  }

  /** A context whose umbilical reports to this watch what the AM answers about map completion. */
  @SuppressWarnings({"rawtypes", "unchecked"})
  ShuffleConsumerPlugin.Context watching(ShuffleConsumerPlugin.Context c) {
    return new ShuffleConsumerPlugin.Context(
        c.getReduceId(),
        c.getJobConf(),
        c.getLocalFS(),
        watching(c.getUmbilical()),
        c.getLocalDirAllocator(),
        c.getReporter(),
        c.getCodec(),
        c.getCombinerClass(),
        c.getCombineCollector(),
        c.getSpilledRecordsCounter(),
        c.getReduceCombineInputCounter(),
        c.getShuffledMapsCounter(),
        c.getReduceShuffleBytes(),
        c.getFailedShuffleCounter(),
        c.getMergedMapOutputsCounter(),
        c.getStatus(),
        c.getCopyPhase(),
        c.getMergePhase(),
        c.getReduceTask(),
        c.getMapOutputFile(),
        c.getLocalMapFiles());
  }

  /** {@code umbilical}, unchanged, but for this watch seeing every map-completion answer. */
  TaskUmbilicalProtocol watching(TaskUmbilicalProtocol umbilical) {
    InvocationHandler handler =
        (proxy, method, args) -> {
          Object result = invoke(umbilical, method, args);
          if (result instanceof MapTaskCompletionEventsUpdate) {
            observe(((MapTaskCompletionEventsUpdate) result).getMapTaskCompletionEvents());
          }
          return result;
        };
    return (TaskUmbilicalProtocol)
        Proxy.newProxyInstance(
            TaskUmbilicalProtocol.class.getClassLoader(),
            new Class<?>[] {TaskUmbilicalProtocol.class},
            handler);
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause(); // what the umbilical threw, as the event fetcher expects it
    }
  }

  /** Takes in events in the order the AM sent them. */
  void observe(TaskCompletionEvent[] events) {
    boolean changedTo;
    synchronized (this) {
      for (TaskCompletionEvent event : events) {
        TaskAttemptID attempt = event.getTaskAttemptId();
        switch (event.getTaskStatus()) {
          case SUCCEEDED:
          case TIPFAILED:
            completed.put(attempt.getTaskID(), attempt);
            break;
          default:
            // OBSOLETE, FAILED, KILLED: only the attempt that had completed the map undoes it.
            completed.remove(attempt.getTaskID(), attempt);
            break;
        }
      }
      boolean now = completed.size() >= totalMaps;
      if (now == allComplete) {
        return;
      }
      allComplete = now;
      changedTo = now;
    }
    listener.accept(changedTo);
  }

  synchronized boolean allComplete() {
    return allComplete;
  }
}
