package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Threads for partial sort/reduce that lower their own Linux scheduling priority (nice) when they
 * start, so maps on the node win the CPU (paper section 3.2). On Linux a Java thread is a task
 * with its own id, and setpriority on that id affects that thread only.
 */
final class LowPriorityThreadFactory implements ThreadFactory {
  private static final Logger LOG = LoggerFactory.getLogger(LowPriorityThreadFactory.class);

  private final String namePrefix;
  private final int nice;
  private final AtomicInteger count = new AtomicInteger();

  LowPriorityThreadFactory(String namePrefix, int nice) {
    this.namePrefix = namePrefix;
    this.nice = nice;
  }

  @Override
  public Thread newThread(Runnable work) {
    Thread t = new Thread(() -> {
      lowerOwnPriority(nice);
      work.run();
    }, namePrefix + "-" + count.incrementAndGet());
    t.setDaemon(true);
    return t;
  }

  /** The kernel task id of the calling thread, or -1 where /proc/thread-self does not exist. */
  static int currentThreadTid() {
    try {
      Path self = Files.readSymbolicLink(Paths.get("/proc/thread-self"));
      return Integer.parseInt(self.getFileName().toString());
    } catch (IOException | UnsupportedOperationException | NumberFormatException e) {
      return -1;
    }
  }

  /** Sets the calling thread's nice value; logs and carries on where that is impossible. */
  static void lowerOwnPriority(int nice) {
    if (nice == 0) {
      return;
    }
    int tid = currentThreadTid();
    if (tid < 0) {
      LOG.warn("MaRCO: cannot lower the priority of partial threads on this OS (no "
          + "/proc/thread-self); they run at normal priority");
      return;
    }
    try {
      Process renice = new ProcessBuilder("renice", "-n", Integer.toString(nice), "-p",
          Integer.toString(tid)).redirectErrorStream(true).start();
      String output = new String(renice.getInputStream().readAllBytes()).trim();
      if (!renice.waitFor(10, TimeUnit.SECONDS) || renice.exitValue() != 0) {
        LOG.warn("MaRCO: renice of partial thread " + tid + " failed (" + output
            + "); it runs at normal priority");
      }
    } catch (IOException e) {
      LOG.warn("MaRCO: cannot run renice (" + e.getMessage() + "); partial threads run at "
          + "normal priority. Install util-linux on the NodeManagers.");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
