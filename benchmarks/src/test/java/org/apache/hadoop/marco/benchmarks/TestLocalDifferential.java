package org.apache.hadoop.marco.benchmarks;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.apache.hadoop.mapreduce.marco.testing.DifferentialResult;
import org.apache.hadoop.mapreduce.marco.testing.DifferentialRun;
import org.apache.hadoop.mapreduce.marco.testing.LocalModeConf;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameter;
import org.junit.runners.Parameterized.Parameters;

/**
 * Every benchmark through Hadoop's local runner, once with the stock shuffle and once with MaRCO:
 * the outputs must be byte-identical, and MaRCO must really have run partial invocations.
 */
@RunWith(Parameterized.class)
public class TestLocalDifferential {
  @Rule
  public final TemporaryFolder temp = new TemporaryFolder();

  @Parameter
  public BenchmarkCase benchmark;

  @Parameters(name = "{0}")
  public static Collection<Object[]> cases() {
    return BenchmarkCase.all().stream().map(c -> new Object[] {c}).collect(Collectors.toList());
  }

  @Test
  public void marcoOutputEqualsStockOutput() throws Exception {
    File dir = temp.getRoot();
    FileSystem fs = FileSystem.getLocal(LocalModeConf.newConf(dir));
    DifferentialRun run = new DifferentialRun(() -> LocalModeConf.newConf(dir), fs,
        new Path(dir.toURI()), benchmark.factory());
    benchmark.writeInput(fs, run.input());

    DifferentialResult result = run.run();

    assertTrue(benchmark + " wrote no output", result.output().bytes().length > 0);
    assertTrue(benchmark + ": MaRCO ran no partial invocation",
        result.marco(DifferentialRun.MARCO, MarcoCounter.INVOCATIONS) > 0);
  }
}
