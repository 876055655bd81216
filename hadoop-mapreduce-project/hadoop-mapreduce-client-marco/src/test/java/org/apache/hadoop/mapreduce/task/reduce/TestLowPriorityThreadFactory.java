package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assume.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoSettings;
import org.junit.Test;

/** Partial threads really run at the configured nice value, as read back from /proc. */
public class TestLowPriorityThreadFactory {

  /** The nice value of one thread of this JVM: field 19 of /proc/self/task/TID/stat. */
  private static int niceOf(int tid) throws Exception {
    String stat = new String(Files.readAllBytes(
        new File("/proc/self/task/" + tid + "/stat").toPath()));
    String[] fieldsAfterName = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Integer.parseInt(fieldsAfterName[16]);
  }

  /** Runs one thread from the factory and returns the nice value it had while running. */
  private static int niceInsideFactoryThread(int nice) throws Exception {
    AtomicInteger seen = new AtomicInteger(Integer.MIN_VALUE);
    Thread t = new LowPriorityThreadFactory("test-partial", nice).newThread(() -> {
      try {
        seen.set(niceOf(LowPriorityThreadFactory.currentThreadTid()));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    t.start();
    t.join();
    return seen.get();
  }

  @Test
  public void partialThreadsRunAtNice19ByDefault() throws Exception {
    assumeTrue("Linux /proc", new File("/proc/thread-self").exists());
    int nice = MarcoSettings.from(new Configuration(false)).effectivePartialNice();
    assertEquals(19, nice);
    assertEquals(19, niceInsideFactoryThread(nice));
  }

  @Test
  public void withoutControlPartialThreadsKeepNormalPriority() throws Exception {
    assumeTrue("Linux /proc", new File("/proc/thread-self").exists());
    Configuration conf = new Configuration(false);
    conf.setBoolean(MarcoConfig.CONTROL_ENABLED, false);
    int nice = MarcoSettings.from(conf).effectivePartialNice();
    assertEquals(0, nice);
    assertEquals(niceOf(LowPriorityThreadFactory.currentThreadTid()),
        niceInsideFactoryThread(nice));
  }

  @Test
  public void theCallingThreadKeepsItsPriority() throws Exception {
    assumeTrue("Linux /proc", new File("/proc/thread-self").exists());
    int before = niceOf(LowPriorityThreadFactory.currentThreadTid());
    niceInsideFactoryThread(10);
    assertEquals(before, niceOf(LowPriorityThreadFactory.currentThreadTid()));
  }
}
