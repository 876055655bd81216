/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.mapred.JobID;
import org.apache.hadoop.mapred.MapTaskCompletionEventsUpdate;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskCompletionEvent;
import org.apache.hadoop.mapred.TaskCompletionEvent.Status;
import org.apache.hadoop.mapred.TaskUmbilicalProtocol;
import org.apache.hadoop.mapreduce.TaskType;
import org.junit.Test;

/** When a reduce learns that every map has completed, from the events the AM sends it. */
public class TestMarcoMapCompletionWatch {
  private static final JobID JOB = new JobID("1", 1);
  private static final TaskAttemptID REDUCE = new TaskAttemptID("1", 1, TaskType.REDUCE, 0, 0);

  private final List<Boolean> heard = new ArrayList<>();

  private MarcoMapCompletionWatch watch(int maps) {
    MarcoMapCompletionWatch w = new MarcoMapCompletionWatch(maps);
    w.setListener(heard::add);
    return w;
  }

  private static TaskCompletionEvent event(int map, int attempt, Status status) {
    TaskAttemptID id = new TaskAttemptID("1", 1, TaskType.MAP, map, attempt);
    return new TaskCompletionEvent(0, id, map, true, status, "http://node:13562");
  }

  @Test
  public void allMapsCompleteWhenEachHasASucceededAttempt() {
    MarcoMapCompletionWatch w = watch(3);
    w.observe(new TaskCompletionEvent[] {event(0, 0, Status.SUCCEEDED)});
    // A second attempt of the same map (speculation) is still one map.
    w.observe(
        new TaskCompletionEvent[] {event(1, 0, Status.SUCCEEDED), event(1, 1, Status.SUCCEEDED)});
    assertFalse(w.allComplete());
    assertTrue(heard.isEmpty());
    // A map that failed for good sends no output: it counts as completed too.
    w.observe(new TaskCompletionEvent[] {event(2, 3, Status.TIPFAILED)});
    assertTrue(w.allComplete());
    assertEquals(List.of(true), heard);
    // Repeated news changes nothing and is not told again.
    w.observe(new TaskCompletionEvent[] {event(0, 0, Status.SUCCEEDED)});
    assertEquals(List.of(true), heard);
  }

  @Test
  public void aLostOutputUndoesItsMapOnlyForTheAttemptThatCompletedIt() {
    MarcoMapCompletionWatch w = watch(2);
    w.observe(
        new TaskCompletionEvent[] {
          event(0, 0, Status.SUCCEEDED), event(1, 0, Status.KILLED), event(1, 1, Status.SUCCEEDED)
        });
    assertEquals(List.of(true), heard);
    // Another attempt's end (a killed speculative one) leaves the map completed.
    w.observe(new TaskCompletionEvent[] {event(0, 1, Status.KILLED)});
    assertTrue(w.allComplete());
    // The completing attempt's output was lost: the map runs again, then completes again.
    w.observe(new TaskCompletionEvent[] {event(0, 0, Status.OBSOLETE)});
    assertFalse(w.allComplete());
    w.observe(new TaskCompletionEvent[] {event(1, 1, Status.FAILED)});
    w.observe(
        new TaskCompletionEvent[] {event(0, 2, Status.SUCCEEDED), event(1, 2, Status.SUCCEEDED)});
    assertEquals(List.of(true, false, true), heard);
  }

  /** An umbilical that answers map-completion calls with {@code answer} and fails anything else. */
  private static TaskUmbilicalProtocol umbilical(MapTaskCompletionEventsUpdate answer) {
    return (TaskUmbilicalProtocol)
        Proxy.newProxyInstance(
            TaskUmbilicalProtocol.class.getClassLoader(),
            new Class<?>[] {TaskUmbilicalProtocol.class},
            (proxy, method, args) -> {
              if (method.getName().equals("getMapCompletionEvents")) {
                return answer;
              }
              throw new IOException("AM unreachable");
            });
  }

  @Test
  public void theWrappedUmbilicalPassesEverythingThroughAndReportsEvents() throws Exception {
    MapTaskCompletionEventsUpdate answer =
        new MapTaskCompletionEventsUpdate(
            new TaskCompletionEvent[] {event(0, 0, Status.SUCCEEDED)}, false);
    MarcoMapCompletionWatch w = watch(1);
    TaskUmbilicalProtocol wrapped = w.watching(umbilical(answer));
    assertSame(answer, wrapped.getMapCompletionEvents(JOB, 0, 100, REDUCE));
    assertTrue(w.allComplete());
    // What the umbilical throws reaches the caller as it was thrown.
    try {
      wrapped.statusUpdate(REDUCE, null);
      fail("statusUpdate should have thrown");
    } catch (IOException e) {
      assertEquals("AM unreachable", e.getMessage());
    }
  }
}
