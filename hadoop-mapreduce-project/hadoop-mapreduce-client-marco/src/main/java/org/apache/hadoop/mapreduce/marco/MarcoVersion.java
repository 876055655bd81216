/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.util.VersionInfo;

/**
 * hadoop-marco's version, the Hadoop version its jars were built against, and the Hadoop
 * versions they run on, from {@code marco-version.properties}, which the build fills in from the
 * root pom.xml. The engine and the AppMaster call {@link #checkRunningHadoop()} when they start,
 * so that on a Hadoop they were not tested on they stop with a message instead of failing later
 * on a changed Hadoop class. {@code hadoop version} of the distribution runs {@link #main}.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class MarcoVersion {
  private static final String RESOURCE = "marco-version.properties";
  private static final Pattern RELEASE = Pattern.compile("^(\\d+)\\.(\\d+)\\.(\\d+)");
  private static final Properties INFO = load();

  private MarcoVersion() {}

  /** hadoop-marco's version, e.g. {@code 1.0.0}. */
  public static String version() {
    return INFO.getProperty("version");
  }

  /** The Hadoop version the jars were compiled against. */
  public static String builtAgainstHadoop() {
    return INFO.getProperty("hadoop.built");
  }

  /**
   * The oldest supported release of each Hadoop line (major.minor): a Hadoop is supported when
   * it is of one of these lines and not older than the release listed for it.
   */
  public static List<String> supportedHadoop() {
    return Arrays.asList(INFO.getProperty("hadoop.supported").trim().split("\\s+"));
  }

  /** The supported Hadoop versions as an operator reads them: "3.3.6 or later 3.3, ...". */
  public static String describeSupported(List<String> supported) {
    return supported.stream()
        .distinct()
        .map(v -> v + " or a later " + line(v) + ".x")
        .collect(Collectors.joining(", "));
  }

  /**
   * What keeps hadoop-marco from running on Hadoop {@code running}, or null when that version is
   * supported. A version that does not start with major.minor.patch is not supported.
   */
  public static String hadoopProblem(String running, List<String> supported) {
    int[] have = release(running);
    if (have != null) {
      for (String oldest : supported) {
        int[] from = release(oldest);
        if (from != null && have[0] == from[0] && have[1] == from[1] && have[2] >= from[2]) {
          return null;
        }
      }
    }
    return "hadoop-marco "
        + version()
        + " does not run on Hadoop "
        + running
        + ": it supports Hadoop "
        + describeSupported(supported)
        + " (docs/deploy.md, Supported Hadoop versions). Run a supported Hadoop, or take"
        + " MarcoShuffle out of mapreduce.job.reduce.shuffle.consumer.plugin.class and"
        + " MarcoMRAppMaster out of yarn.app.mapreduce.am.command-opts.";
  }

  /** Throws, with {@link #hadoopProblem}'s message, when the Hadoop on the classpath is not supported. */
  public static void checkRunningHadoop() {
    String problem = hadoopProblem(VersionInfo.getVersion(), supportedHadoop());
    if (problem != null) {
      throw new IllegalStateException(problem);
    }
  }

  /** One line for logs: hadoop-marco's version and the Hadoop it runs on. */
  public static String describe() {
    return "hadoop-marco " + version() + " on Hadoop " + VersionInfo.getVersion();
  }

  /** Hadoop's own {@code hadoop version} output, then hadoop-marco's version. */
  public static void main(String[] args) {
    VersionInfo.main(args);
    System.out.println(
        "hadoop-marco "
            + version()
            + " (the MaRCO shuffle consumer; built against Hadoop "
            + builtAgainstHadoop()
            + ", runs on Hadoop "
            + describeSupported(supportedHadoop())
            + ")");
  }

  private static String line(String version) {
    int[] r = release(version);
    return r == null ? version : r[0] + "." + r[1];
  }

  private static int[] release(String version) {
    Matcher m = RELEASE.matcher(version == null ? "" : version.trim());
    if (!m.find()) {
      return null;
    }
    return new int[] {
      Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))
    };
  }

  private static Properties load() {
    Properties info = new Properties();
    try (InputStream in = MarcoVersion.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            RESOURCE + " is missing from the hadoop-marco jar: rebuild it with ./build.sh");
      }
      info.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE + " from the hadoop-marco jar", e);
    }
    return info;
  }
}
