/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.gen;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.mapreduce.marco.testing.LocalModeConf;
import org.apache.hadoop.marco.benchmarks.GeneratedData;
import org.apache.hadoop.util.ToolRunner;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** Generators as map-only jobs: one task per share, seeded seed + task index. */
public class TestGeneratorJobs {
  @Rule public final TemporaryFolder temp = new TemporaryFolder();

  private byte[] runJob(Class<? extends DataModel> model, String... args) throws Exception {
    Path out = new Path(new File(temp.getRoot(), "out-" + System.nanoTime()).toURI());
    String[] all = Arrays.copyOf(args, args.length + 1);
    all[args.length] = out.toString();
    assertEquals(
        0,
        ToolRunner.run(
            LocalModeConf.newConf(temp.getRoot()), new GeneratorTool("gen", model), all));
    FileSystem fs = FileSystem.getLocal(new Configuration());
    FileStatus[] parts = fs.listStatus(out, p -> p.getName().startsWith("part-m-"));
    Arrays.sort(parts);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (FileStatus part : parts) {
      try (InputStream in = fs.open(part.getPath())) {
        IOUtils.copyBytes(in, bytes, 4096, false);
      }
    }
    return bytes.toByteArray();
  }

  @Test
  public void everyGeneratorJobWritesWhatItsModelDrawsForEachTask() throws Exception {
    Budget budget = new Budget(Budget.Unit.BYTES, 30_000);
    for (DataModel model :
        List.of(
            new TextModel(),
            new InvertedIndexModel(),
            new RatingsModel(),
            new SelfJoinModel(),
            new GraphModel(),
            new BinaryModel())) {
      byte[] expected = GeneratedData.generate(model, new Configuration(), 5, 3, budget);
      assertArrayEquals(
          model.getClass().getSimpleName(),
          expected,
          runJob(model.getClass(), "--seed", "5", "--maps", "3", "--bytes", "30000"));
    }
  }

  @Test
  public void recordBudgetsCountLines() throws Exception {
    byte[] data = runJob(SelfJoinModel.class, "--records", "1000", "--maps", "2");
    assertEquals(1000, GeneratedData.lines(data).size());
  }

  @Test
  public void badArgumentsAreRejectedWithUsage() throws Exception {
    GeneratorTool tool = new GeneratorTool("gen-text", TextModel.class);
    assertEquals(2, ToolRunner.run(new Configuration(), tool, new String[] {"out"}));
    assertEquals(
        2, ToolRunner.run(new Configuration(), tool, new String[] {"--bytes", "12x", "out"}));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Budget.parseSize("ten"));
    assertTrue(e.getMessage().contains("64m"));
    assertEquals(64L << 20, Budget.parseSize("64m"));
  }
}
