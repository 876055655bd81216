/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.marco.benchmarks.io.TimedOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * One of the paper's MapReductions as a {@link Tool}: {@code <input> <output>} plus the generic
 * options ({@code -D mapreduce.job.reduces=N} sets the number of reducers). Subclasses only
 * configure the job; building, argument checking and the exit code (0 success, 1 job failed,
 * 2 usage or configuration error) live here once.
 */
public abstract class BenchmarkJob extends Configured implements Tool {

  /** The program name in {@link BenchmarkDriver}, used in usage messages and as the job name. */
  public abstract String programName();

  /** Sets mapper, combiner, partial reducer, reducer, formats and types. */
  protected abstract void configure(Job job, String[] extraArgs) throws IOException;

  /** Arguments after {@code <input> <output>}, for the usage message; none by default. */
  protected String extraArgsUsage() {
    return "";
  }

  /** How many arguments after {@code <input> <output>} are allowed at most. */
  protected int maxExtraArgs() {
    return 0;
  }

  /** Builds the configured, not yet submitted job reading {@code input} and writing {@code output}. */
  public Job createJob(Configuration conf, Path input, Path output, String... extraArgs)
      throws IOException {
    Job job = Job.getInstance(conf, programName());
    job.setJarByClass(getClass());
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    configure(job, extraArgs);
    // Times the output write for the harness's breakdown; the output itself is unchanged.
    TimedOutputFormat.wrap(job);
    return job;
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length < 2 || args.length > 2 + maxExtraArgs()) {
      System.err.println(
          "Usage: " + programName() + " [generic options] <input> <output>" + extraArgsUsage());
      System.err.println("Got " + args.length + " argument(s): " + Arrays.toString(args));
      ToolRunner.printGenericCommandUsage(System.err);
      return 2;
    }
    String[] extra = Arrays.copyOfRange(args, 2, args.length);
    try {
      return runJob(new Path(args[0]), new Path(args[1]), extra);
    } catch (IllegalArgumentException e) {
      // A bad option or input found before submission: the message names it and the fix.
      System.err.println(programName() + ": " + e.getMessage());
      return 2;
    }
  }

  /** Runs the job once; multi-round jobs (k-means) override this. */
  protected int runJob(Path input, Path output, String[] extraArgs) throws Exception {
    Job job = createJob(getConf(), input, output, extraArgs);
    return job.waitForCompletion(true) ? 0 : 1;
  }
}
