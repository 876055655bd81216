/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.testing;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * JVM options for the task and AM containers a test cluster launches.
 *
 * <p>Java 17 containers need the same {@code --add-opens} flags as the test JVM (Hadoop reflects
 * into the JDK); they are forwarded from this JVM's own arguments, which the parent pom sets from
 * {@code marco.test.jvm.opens}, so the list lives in one place. Task JVMs in tests are short-lived
 * and the machine has few cores: C1-only JIT and the serial collector cut their start-up CPU.
 */
@InterfaceAudience.Private
public final class ContainerJvmOptions {
  private static final String FAST_START = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

  private ContainerJvmOptions() {}

  /** The {@code --add-opens}/{@code --add-exports} flags this JVM was started with. */
  public static String forwardedModuleFlags() {
    List<String> args = ManagementFactory.getRuntimeMXBean().getInputArguments();
    return args.stream()
        .filter(a -> a.startsWith("--add-opens") || a.startsWith("--add-exports"))
        .collect(Collectors.joining(" "));
  }

  /** Sets map, reduce and AM java options (no -Xmx: Hadoop derives heap from memory.mb). */
  public static void apply(Configuration conf) {
    String opts = FAST_START + " " + forwardedModuleFlags();
    conf.set(MRJobConfig.MAP_JAVA_OPTS, opts);
    conf.set(MRJobConfig.REDUCE_JAVA_OPTS, opts);
    conf.set(MRJobConfig.MR_AM_COMMAND_OPTS, opts);
  }
}
