/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.faults;

import static org.junit.Assert.assertEquals;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.junit.Test;

/** What the fault tool does with bad input; the kill itself is asserted on a real cluster by
 * tests/bench/test_marco_bench_sweep_faults.py. */
public class TestKillRunningReduce {
  private static int run(String... args) throws Exception {
    Configuration conf = new Configuration();
    conf.set("mapreduce.framework.name", "local");
    return ToolRunner.run(conf, new KillRunningReduce(), args);
  }

  @Test
  public void malformedArgumentsAreAUsageError() throws Exception {
    assertEquals(KillRunningReduce.USAGE, run("job_1795438088293_0004"));
    assertEquals(KillRunningReduce.USAGE, run("not-a-job", "5"));
    assertEquals(KillRunningReduce.USAGE, run("job_1795438088293_0004", "-1"));
    assertEquals(KillRunningReduce.USAGE, run("job_1795438088293_0004", "soon"));
  }

  @Test
  public void aJobTheClusterDoesNotKnowIsAnError() throws Exception {
    assertEquals(KillRunningReduce.NO_SUCH_JOB, run("job_1795438088293_0004", "0"));
  }
}
