/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.testing;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;

/**
 * What Hadoop's local runner logs at WARN and above while it is captured. The local runner gives
 * the client neither a failed job's failure info nor its tasks' diagnostics: it logs the
 * exception that failed the job (a task's exception, as its cause) under its own logger, and
 * that log is the only place the job's own diagnostic text can be read from.
 *
 * <p>Open it before the job is submitted and close it once the job has finished; local jobs that
 * run meanwhile in the same JVM are captured too.
 */
@InterfaceAudience.Private
public final class LocalRunnerLog implements AutoCloseable {
  private static final String RUNNER_LOGGER = "org.apache.hadoop.mapred.LocalJobRunner";

  private final StringBuilder text = new StringBuilder();
  private final Logger logger;
  private final Level level;
  private final Capture capture;

  private LocalRunnerLog(Logger logger) {
    this.logger = logger;
    this.level = logger == null ? null : logger.getLevel();
    this.capture = logger == null ? null : new Capture();
    if (logger != null) {
      if (!logger.isEnabledFor(Level.WARN)) {
        logger.setLevel(Level.WARN);
      }
      logger.addAppender(capture);
    }
  }

  /**
   * Starts capturing. Where Hadoop logs through another backend than log4j 1 (reload4j), nothing
   * is captured and {@link #text} stays empty.
   */
  public static LocalRunnerLog capture() {
    Logger logger;
    try {
      logger = Logger.getLogger(RUNNER_LOGGER);
    } catch (LinkageError e) {
      logger = null;
    }
    return new LocalRunnerLog(logger);
  }

  /** Every captured event: level, message, and the stack trace of its exception, if any. */
  public String text() {
    synchronized (text) {
      return text.toString();
    }
  }

  @Override
  public void close() {
    if (logger != null) {
      logger.removeAppender(capture);
      logger.setLevel(level);
    }
  }

  private final class Capture extends AppenderSkeleton {
    @Override
    protected void append(LoggingEvent event) {
      if (!event.getLevel().isGreaterOrEqual(Level.WARN)) {
        return;
      }
      synchronized (text) {
        if (text.length() > 0) {
          text.append('\n');
        }
        text.append(event.getLevel()).append(' ').append(event.getRenderedMessage());
        String[] trace = event.getThrowableStrRep();
        if (trace != null) {
          for (String line : trace) {
            text.append('\n').append(line);
          }
        }
      }
    }

    @Override
    public void close() {}

    @Override
    public boolean requiresLayout() {
      return false;
    }
  }
}
