/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The heap in use as the latest garbage collection of any kind left it. Young collections are
 * frequent, so what a partial reducer keeps alive shows here within one of them: it survives
 * the collection and is counted, whereas the tenured generation's usage after the last full
 * collection, which a full collection alone updates, stays blind to it until the heap is nearly
 * exhausted. Garbage already promoted counts as live until a collection of the old generation
 * removes it, so the value errs on the side of less room. Reading it takes no lock: the JVM's
 * notification thread writes it.
 */
final class MarcoHeapAfterCollection implements AutoCloseable {
  private final AtomicLong used;
  private final Set<String> heapPools = new HashSet<>();
  private final List<NotificationEmitter> emitters = new ArrayList<>();
  private final NotificationListener listener = this::collected;

  private MarcoHeapAfterCollection(long initial) {
    used = new AtomicLong(initial);
  }

  /**
   * Starts watching this JVM's collectors. Until the first collection ends, the value is what the
   * heap pools that survive young collections (tenured, survivor) hold now.
   */
  static MarcoHeapAfterCollection watch() {
    long initial = 0;
    List<String> pools = new ArrayList<>();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pools.add(pool.getName());
        if (!pool.getName().toLowerCase(Locale.ROOT).contains("eden")) {
          initial += pool.getUsage().getUsed();
        }
      }
    }
    MarcoHeapAfterCollection watch = new MarcoHeapAfterCollection(initial);
    watch.heapPools.addAll(pools);
    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (collector instanceof NotificationEmitter) {
        NotificationEmitter emitter = (NotificationEmitter) collector;
        emitter.addNotificationListener(watch.listener, null, null);
        watch.emitters.add(emitter);
      }
    }
    return watch;
  }

  /** Whether a collector reports to this watch; without one the value never moves. */
  boolean watching() {
    return !emitters.isEmpty();
  }

  /** Bytes of heap in use when the latest collection ended. */
  long used() {
    return used.get();
  }

  private void collected(Notification notification, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
        notification.getType())) {
      return;
    }
    GarbageCollectionNotificationInfo info =
        GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
    long after = 0;
    for (Map.Entry<String, MemoryUsage> pool :
        info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
      if (heapPools.contains(pool.getKey())) {
        after += pool.getValue().getUsed();
      }
    }
    used.set(after);
  }

  /** Stops watching: the value stays as the last collection seen left it. */
  @Override
  public void close() {
    for (NotificationEmitter emitter : emitters) {
      try {
        emitter.removeNotificationListener(listener);
      } catch (ListenerNotFoundException e) {
        // Removed already: nothing to stop.
      }
    }
    emitters.clear();
  }
}
