/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assume.assumeFalse;
import static org.junit.Assume.assumeTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.io.nativeio.NativeIO;
import org.apache.hadoop.util.Shell;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class TestMarcoLocalFiles {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private final RawLocalFileSystem raw = new RawLocalFileSystem();

  public TestMarcoLocalFiles() throws Exception {
    raw.initialize(URI.create("file:///"), new Configuration());
  }

  private Path path(String name) {
    return new Path(tmp.getRoot().getAbsolutePath(), name);
  }

  private static void write(FSDataOutputStream out, String text) throws Exception {
    try (FSDataOutputStream o = out) {
      o.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  /**
   * 100 local files created as the engine creates them start no process, where Hadoop's own
   * create (without its native library) starts one per file: the watch sees those, so it would
   * see ours.
   */
  @Test
  public void creatingALocalFileStartsNoProcess() throws Exception {
    assumeTrue("Linux /proc with children lists", ChildProcessWatch.available());
    // Hadoop's Shell starts setsid once, when its class loads; a task has loaded it long before
    // its reduce starts.
    assertFalse(Shell.WINDOWS);
    Set<String> ours =
        ChildProcessWatch.childrenSeenDuring(
            () -> {
              for (int i = 0; i < 100; i++) {
                write(MarcoLocalFiles.create(raw, path("ours/run-" + i)), "x");
              }
            });
    assertEquals("children seen while the engine created 100 local files", Set.of(), ours);
    assumeFalse("Hadoop's native library sets permissions in the JVM", NativeIO.isAvailable());
    Set<String> hadoops =
        ChildProcessWatch.childrenSeenDuring(
            () -> {
              for (int i = 0; i < 100; i++) {
                write(raw.create(path("hadoops/run-" + i)), "x");
              }
            });
    assertFalse("the watch sees the chmod of Hadoop's own create", hadoops.isEmpty());
  }

  /** The bytes written through every local file system, as the task's FILE_BYTES_WRITTEN. */
  @SuppressWarnings("deprecation") // the lookup each file system makes when it is initialized
  private long bytesWritten() {
    return FileSystem.getStatistics(raw.getUri().getScheme(), raw.getClass()).getBytesWritten();
  }

  /** A file is made with its parents, an old one is replaced, and its bytes are counted. */
  @Test
  public void aLocalFileIsCreatedReplacedAndCounted() throws Exception {
    Path file = path("a/b/run");
    long before = bytesWritten();
    write(MarcoLocalFiles.create(raw, file), "a longer first version");
    write(MarcoLocalFiles.create(raw, file), "second");
    java.nio.file.Path onDisk = raw.pathToFile(file).toPath();
    assertArrayEquals("second".getBytes(StandardCharsets.UTF_8), Files.readAllBytes(onDisk));
    assertEquals(22 + 6, bytesWritten() - before);
    Set<PosixFilePermission> mode = Files.getPosixFilePermissions(onDisk);
    java.nio.file.Path fresh = tmp.newFile().toPath();
    assertEquals("the mode of any new file", Files.getPosixFilePermissions(fresh), mode);
  }
}
