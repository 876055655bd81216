/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.JobConf;
import org.junit.rules.ExternalResource;

/**
 * The local directory of one test's {@link SyntheticShuffle}s, and their end. After the test
 * (and its {@code @After} methods, which release what they hold), every shuffle's engine threads
 * are stopped and waited for, then the directory is removed. An invocation detached at shuffle
 * end goes on until it next looks whether it is detached, and may create its run file after the
 * reducer's input was read: removed first, the directory would come back, and the thread would
 * still be running during the next test.
 */
final class SyntheticShuffleDir extends ExternalResource {
  /** How long each of a shuffle's threads may take to end once stopped. */
  private static final long THREAD_END_MILLIS = 60_000;

  private final String prefix;
  private final List<SyntheticShuffle> shuffles = new ArrayList<>();
  private File dir;

  /** A directory named {@code prefix} and a unique suffix, in the JVM's temporary directory. */
  SyntheticShuffleDir(String prefix) {
    this.prefix = prefix;
  }

  @Override
  protected void before() throws IOException {
    dir = Files.createTempDirectory(prefix).toFile();
  }

  /** The shuffles' local directory ({@code mapreduce.cluster.local.dir}). */
  File dir() {
    return dir;
  }

  /** A shuffle whose local directory is this one, stopped after the test. */
  SyntheticShuffle shuffle(JobConf conf, CompressionCodec codec) {
    SyntheticShuffle s = new SyntheticShuffle(conf, dir, codec);
    shuffles.add(s);
    return s;
  }

  @Override
  protected void after() {
    try {
      for (SyntheticShuffle s : shuffles) {
        if (s.manager != null && !s.manager.stopThreads(THREAD_END_MILLIS)) {
          throw new AssertionError(
              "the engine threads of "
                  + s.reduceId
                  + " still run "
                  + THREAD_END_MILLIS
                  + " ms after they were stopped");
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while the engine threads ended", e);
    } finally {
      FileUtil.fullyDelete(dir);
    }
    if (dir.exists()) {
      throw new AssertionError("could not remove " + dir);
    }
  }
}
