/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;

/**
 * Whether this JVM runs HotSpot's periodic cleanup safepoints, which a partial thread at a low
 * share holds up: a safepoint stops every thread until the last one reaches it, and a thread the
 * scheduler has put aside in the middle of Java code reaches it only when it next gets the CPU.
 * On a node busy with maps that took seconds, and every fetcher of the reduce waited as long.
 */
final class MarcoSafepointCheck {
  static final String OPTION = "GuaranteedSafepointInterval";

  /** HotSpot's interval where the command line does not set one. */
  private static final long HOTSPOT_DEFAULT_MILLIS = 1000;

  private static final String ARGUMENT = "-XX:" + OPTION + "=";

  private MarcoSafepointCheck() {}

  /**
   * The interval in milliseconds at which this JVM runs cleanup safepoints, 0 for none, or -1 on
   * a JVM that has none (not HotSpot). Read from the command line: HotSpot reports a diagnostic
   * option only where the command line unlocked diagnostic options.
   */
  static long cleanupSafepointIntervalMillis() {
    if (System.getProperty("java.vm.name", "").contains("OpenJ9")) {
      return -1;
    }
    return intervalIn(ManagementFactory.getRuntimeMXBean().getInputArguments());
  }

  /** The interval JVM arguments {@code arguments} set, the last one winning, as HotSpot reads them. */
  static long intervalIn(List<String> arguments) {
    long interval = HOTSPOT_DEFAULT_MILLIS;
    for (String argument : arguments) {
      if (argument.startsWith(ARGUMENT)) {
        try {
          interval = Long.parseLong(argument.substring(ARGUMENT.length()));
        } catch (NumberFormatException e) {
          // HotSpot would not have started with it; ignore what cannot be an interval.
        }
      }
    }
    return interval;
  }

  /** What to tell the operator when partial threads take a low share in this JVM, or null. */
  static String problem() {
    long interval = cleanupSafepointIntervalMillis();
    if (interval <= 0) {
      return null;
    }
    return "this reduce JVM stops every thread for a cleanup safepoint as often as every "
        + interval
        + " ms, and a partial thread at a low share can hold such a stop up for seconds while the"
        + " maps run, fetchers included. Fix: run MaRCO jobs under the distribution's AppMaster,"
        + " which starts their reduces with "
        + MarcoConfig.REDUCE_JVM_OPTIONS
        + ", or add '"
        + MarcoConfig.DEFAULT_REDUCE_JVM_OPTIONS
        + "' to mapreduce.reduce.java.opts";
  }
}
