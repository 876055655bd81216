/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.marco.MarcoJob;
import org.apache.hadoop.marco.benchmarks.BenchmarkJob;
import org.apache.hadoop.util.ToolRunner;

/**
 * grep (shuffle-light): the map emits (line, 1) for every line matching a regular expression; no
 * combiner; partial and final reduce are identity. The paper runs it with one reducer, which is
 * Hadoop's default. The pattern is the optional third argument or {@value #PATTERN}.
 */
public class Grep extends BenchmarkJob {
  public static final String PATTERN = "marco.benchmarks.grep.pattern";

  /** Matches words starting with "zo": about one line in a few hundred of the generated text. */
  public static final String DEFAULT_PATTERN = "\\bzo[a-z]*";

  /** Emits (line, 1) for lines containing a match. */
  public static class MatchMapper extends Mapper<Object, Text, Text, LongWritable> {
    private static final LongWritable ONE = new LongWritable(1);
    private Matcher matcher;

    @Override
    protected void setup(Context context) {
      matcher =
          Pattern.compile(context.getConfiguration().get(PATTERN, DEFAULT_PATTERN)).matcher("");
    }

    @Override
    protected void map(Object key, Text value, Context context)
        throws IOException, InterruptedException {
      if (matcher.reset(value.toString()).find()) {
        context.write(value, ONE);
      }
    }
  }

  /** Identity; every value is 1, so the output does not depend on the order values arrive in. */
  public static class LineIdentity extends IdentityReducer<Text, LongWritable> {}

  @Override
  public String programName() {
    return "grep";
  }

  @Override
  protected String extraArgsUsage() {
    return " [<regex>, default " + DEFAULT_PATTERN + " or -D " + PATTERN + "]";
  }

  @Override
  protected int maxExtraArgs() {
    return 1;
  }

  @Override
  protected void configure(Job job, String[] extraArgs) {
    if (extraArgs.length == 1) {
      job.getConfiguration().set(PATTERN, extraArgs[0]);
    }
    String pattern = job.getConfiguration().get(PATTERN, DEFAULT_PATTERN);
    try {
      Pattern.compile(pattern);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          "grep: the pattern '"
              + pattern
              + "' is not a Java regular expression ("
              + e.getDescription()
              + "); pass a valid one as the third argument or with -D "
              + PATTERN,
          e);
    }
    job.setMapperClass(MatchMapper.class);
    MarcoJob.setPartialReducerClass(job, LineIdentity.class);
    job.setReducerClass(LineIdentity.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(LongWritable.class);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Grep(), args));
  }
}
