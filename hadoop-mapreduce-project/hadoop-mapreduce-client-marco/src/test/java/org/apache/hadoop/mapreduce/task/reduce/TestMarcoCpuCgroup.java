/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.task.reduce.MarcoCpuCgroup.Version;
import org.apache.hadoop.test.GenericTestUtils.LogCapturer;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.slf4j.LoggerFactory;

/**
 * {@link MarcoCpuCgroup} against sample /proc text and fake cgroup directories (plain files in a temp
 * dir), so that neither the host's cgroup version nor root matters.
 */
public class TestMarcoCpuCgroup {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  /** A hybrid host like the one these tests were written on: v1 cpu alone, v2 without cpu. */
  private static final String HYBRID_CGROUP =
      String.join(
          "\n",
          "9:name=systemd:/",
          "2:cpuacct:/acct-only",
          "1:cpu:/yarn/container_1",
          "0::/user.slice",
          "");

  private static final String HYBRID_MOUNTINFO =
      String.join(
          "\n",
          "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755",
          "33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct",
          "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu",
          "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw",
          "");

  private static Path fakeCgroup(Path dir, Version version, String... files) throws IOException {
    Files.createDirectories(dir);
    for (String file : files) {
      Files.write(dir.resolve(file), new byte[0]);
    }
    if (version == Version.V2) {
      Files.write(dir.resolve("cgroup.controllers"), "cpu\n".getBytes(StandardCharsets.US_ASCII));
    }
    return dir;
  }

  private static String contentOf(Path file) throws IOException {
    return new String(Files.readAllBytes(file), StandardCharsets.US_ASCII);
  }

  @Test
  public void aDirectoryWithCgroupControllersIsV2AndAnyOtherV1() throws IOException {
    Path root = tmp.getRoot().toPath();
    assertEquals(
        Version.V2, MarcoCpuCgroup.at(fakeCgroup(root.resolve("v2"), Version.V2)).version());
    assertEquals(
        Version.V1,
        MarcoCpuCgroup.at(fakeCgroup(root.resolve("v1"), Version.V1, "tasks")).version());
    assertEquals(Version.V1, MarcoCpuCgroup.at(root.resolve("missing")).version());
  }

  @Test
  public void procCgroupGivesTheV1CpuPathOrTheV2Path() throws IOException {
    assertEquals("/yarn/container_1", MarcoCpuCgroup.cgroupPath(Version.V1, HYBRID_CGROUP));
    assertEquals("/user.slice", MarcoCpuCgroup.cgroupPath(Version.V2, HYBRID_CGROUP));
    assertEquals(
        "/hadoop-yarn/c2",
        MarcoCpuCgroup.cgroupPath(Version.V1, "5:cpuacct,cpu:/hadoop-yarn/c2\n"));
    assertEquals("/a:b", MarcoCpuCgroup.cgroupPath(Version.V2, "0::/a:b\n"));
    try {
      MarcoCpuCgroup.cgroupPath(Version.V1, "0::/system.slice/x\n2:cpuacct:/\n");
      fail("cpuacct alone taken for cpu");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("cgroup v1 hierarchy with cpu"));
    }
    try {
      MarcoCpuCgroup.cgroupPath(Version.V2, "4:cpu,cpuacct:/\n1:name=systemd:/\n");
      fail("no v2 line");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("cgroup v2"));
    }
  }

  @Test
  public void mountinfoGivesTheDirectoryOfTheRightHierarchy() throws IOException {
    assertEquals(
        Paths.get("/sys/fs/cgroup/cpu/yarn/container_1"),
        MarcoCpuCgroup.of(Version.V1, HYBRID_CGROUP, HYBRID_MOUNTINFO).dir());
    assertEquals(
        Paths.get("/sys/fs/cgroup/unified/user.slice"),
        MarcoCpuCgroup.of(Version.V2, HYBRID_CGROUP, HYBRID_MOUNTINFO).dir());
    assertEquals(
        Paths.get("/sys/fs/cgroup/cpu"),
        MarcoCpuCgroup.directory(Version.V1, "/", HYBRID_MOUNTINFO));
    // A v2-only host; optional fields before the separator.
    assertEquals(
        Paths.get("/sys/fs/cgroup/system.slice/nm.service"),
        MarcoCpuCgroup.directory(
            Version.V2,
            "/system.slice/nm.service",
            "30 24 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"));
    // cpu and cpuacct in one hierarchy, mounted with a space in its name.
    assertEquals(
        Paths.get("/cg/cpu acct/x"),
        MarcoCpuCgroup.directory(
            Version.V1, "/x", "32 31 0:29 / /cg/cpu\\040acct rw - cgroup cgroup rw,cpu,cpuacct\n"));
    assertEquals(
        Version.V1, MarcoCpuCgroup.of(Version.V1, HYBRID_CGROUP, HYBRID_MOUNTINFO).version());
  }

  @Test
  public void aMountOfASubtreeServesOnlyTheCgroupsBelowIt() throws IOException {
    String mountinfo =
        String.join(
            "\n",
            "50 40 0:29 /other /mnt/other rw - cgroup cgroup rw,cpu",
            "51 40 0:29 /docker/abc /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu",
            "");
    assertEquals(
        Paths.get("/sys/fs/cgroup/cpu"),
        MarcoCpuCgroup.directory(Version.V1, "/docker/abc", mountinfo));
    assertEquals(
        Paths.get("/sys/fs/cgroup/cpu/reduce"),
        MarcoCpuCgroup.directory(Version.V1, "/docker/abc/reduce", mountinfo));
    try {
      MarcoCpuCgroup.directory(Version.V1, "/docker/abcdef", mountinfo);
      fail("a sibling of the mounted subtree was taken as below it");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("no mount"));
    }
    try {
      MarcoCpuCgroup.directory(Version.V2, "/", HYBRID_MOUNTINFO.replace("cgroup2", "tmpfs"));
      fail("no cgroup2 mount");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("no mount of the cgroup v2"));
    }
  }

  @Test
  public void v1MovesAThreadThroughTasksAndAProcessThroughCgroupProcs() throws IOException {
    Path dir =
        fakeCgroup(tmp.getRoot().toPath().resolve("v1"), Version.V1, "tasks", "cgroup.procs");
    MarcoCpuCgroup cgroup = MarcoCpuCgroup.at(dir);
    cgroup.addThread(4711);
    cgroup.addProcess(4242);
    assertEquals("4711\n", contentOf(dir.resolve("tasks")));
    assertEquals("4242\n", contentOf(dir.resolve("cgroup.procs")));
  }

  @Test
  public void v2MovesAThreadThroughCgroupThreadsOfAThreadedCgroup() throws IOException {
    Path dir =
        fakeCgroup(
            tmp.getRoot().toPath().resolve("v2"), Version.V2, "cgroup.threads", "cgroup.procs");
    Files.write(dir.resolve("cgroup.type"), "threaded\n".getBytes(StandardCharsets.US_ASCII));
    MarcoCpuCgroup cgroup = MarcoCpuCgroup.at(dir);
    cgroup.addThread(4711);
    cgroup.addProcess(4242);
    assertEquals("4711\n", contentOf(dir.resolve("cgroup.threads")));
    assertEquals("4242\n", contentOf(dir.resolve("cgroup.procs")));
    assertFalse(Files.exists(dir.resolve("tasks")));
  }

  @Test
  public void v2RefusesAThreadForADomainCgroupNamingTheFix() throws IOException {
    Path dir = fakeCgroup(tmp.getRoot().toPath().resolve("v2"), Version.V2, "cgroup.threads");
    Files.write(dir.resolve("cgroup.type"), "domain\n".getBytes(StandardCharsets.US_ASCII));
    try {
      MarcoCpuCgroup.at(dir).addThread(4711);
      fail("a thread was moved into a domain cgroup");
    } catch (IOException e) {
      assertTrue(
          e.getMessage(), e.getMessage().contains("echo threaded > " + dir.resolve("cgroup.type")));
    }
    assertEquals("", contentOf(dir.resolve("cgroup.threads")));
  }

  @Test
  public void aDirectoryThatIsNoCgroupGetsNoFiles() throws IOException {
    Path dir = tmp.newFolder("not-a-cgroup").toPath();
    for (boolean thread : new boolean[] {true, false}) {
      try {
        if (thread) {
          MarcoCpuCgroup.at(dir).addThread(4711);
        } else {
          MarcoCpuCgroup.at(dir).addProcess(4242);
        }
        fail("wrote into a directory that is no cgroup");
      } catch (IOException expected) {
        // the caller warns and carries on
      }
    }
    assertEquals(0, new File(dir.toString()).list().length);
  }

  @Test
  public void movingBackNeedsTheTargetsProcsAndOnV2TheCommonAncestors() throws IOException {
    Path root = tmp.getRoot().toPath();
    MarcoCpuCgroup v1From = MarcoCpuCgroup.at(fakeCgroup(root.resolve("v1/shuffle"), Version.V1));
    assertTrue(
        MarcoCpuCgroup.at(fakeCgroup(root.resolve("v1/yarn/c1"), Version.V1, "cgroup.procs"))
            .mayTakeProcessFrom(v1From));
    assertFalse(
        MarcoCpuCgroup.at(fakeCgroup(root.resolve("v1/yarn/c2"), Version.V1))
            .mayTakeProcessFrom(v1From));

    Path v2 = fakeCgroup(root.resolve("v2"), Version.V2);
    MarcoCpuCgroup shuffle =
        MarcoCpuCgroup.at(fakeCgroup(v2.resolve("shuffle"), Version.V2, "cgroup.procs"));
    MarcoCpuCgroup container =
        MarcoCpuCgroup.at(fakeCgroup(v2.resolve("yarn/c1"), Version.V2, "cgroup.procs"));
    assertFalse("the common ancestor has no cgroup.procs", container.mayTakeProcessFrom(shuffle));
    fakeCgroup(v2, Version.V2, "cgroup.procs");
    assertTrue(container.mayTakeProcessFrom(shuffle));
  }

  @Test
  public void aPartialThreadThatCannotJoinWarnsOnceAndRunsOn() throws Exception {
    Path dir =
        fakeCgroup(tmp.getRoot().toPath().resolve("v2-domain"), Version.V2, "cgroup.threads");
    Files.write(dir.resolve("cgroup.type"), "domain\n".getBytes(StandardCharsets.US_ASCII));
    MarcoCpuShareThreadFactory factory =
        new MarcoCpuShareThreadFactory("test-partial", 0, dir.toString());
    LogCapturer logs =
        LogCapturer.captureLogs(LoggerFactory.getLogger(MarcoCpuShareThreadFactory.class));
    try {
      for (int i = 0; i < 2; i++) {
        AtomicBoolean ran = new AtomicBoolean();
        Thread t = factory.newThread(() -> ran.set(true));
        t.start();
        t.join();
        assertTrue(ran.get());
      }
      String out = logs.getOutput();
      assertEquals(out, 1, out.split("cannot join cpu cgroup", -1).length - 1);
      assertTrue(
          out,
          out.contains("echo threaded > " + dir.resolve("cgroup.type"))
              && out.contains(MarcoConfig.SHUFFLE_CPU_CGROUP));
      assertEquals("", contentOf(dir.resolve("cgroup.threads")));
    } finally {
      logs.stopCapturing();
    }
  }
}
