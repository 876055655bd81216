/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.gen;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.marco.benchmarks.io.RawBytesOutputFormat;
import org.apache.hadoop.util.ReflectionUtils;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Runs a {@link DataModel} as a map-only job, one map task per share of the budget, so the data
 * is generated in parallel and written where the output path points (HDFS or {@code file:}).
 * Usage: {@code gen-X [generic options] [--seed S] [--maps M] (--bytes N | --records N) <output>}.
 */
public class GeneratorTool extends Configured implements Tool {
  static final String MODEL = "marco.gen.model";
  static final String SEED = "marco.gen.seed";
  static final String UNIT = "marco.gen.unit";
  static final String TOTAL = "marco.gen.total";
  static final int DEFAULT_MAPS = 2;

  private final String name;
  private final Class<? extends DataModel> model;

  public GeneratorTool(String name, Class<? extends DataModel> model) {
    this.name = name;
    this.model = model;
  }

  /** The parsed command line of a generator. */
  record Arguments(long seed, int maps, Budget budget, Path output) {}

  /** Runs a generator from its main method. */
  public static void main(String name, Class<? extends DataModel> model, String[] args)
      throws Exception {
    System.exit(ToolRunner.run(new GeneratorTool(name, model), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    Arguments parsed;
    try {
      parsed = parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(name + ": " + e.getMessage());
      System.err.println(
          "Usage: "
              + name
              + " [generic options] [--seed S] [--maps M]"
              + " (--bytes N[k|m|g] | --records N) <output>");
      ToolRunner.printGenericCommandUsage(System.err);
      return 2;
    }
    return createJob(getConf(), parsed).waitForCompletion(true) ? 0 : 1;
  }

  static Arguments parse(String[] args) {
    long seed = 0;
    int maps = DEFAULT_MAPS;
    Budget budget = null;
    List<String> positional = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      boolean hasValue = i + 1 < args.length;
      switch (arg) {
        case "--seed" -> seed = Long.parseLong(valueOf(arg, hasValue, args, ++i));
        case "--maps" -> maps = Integer.parseInt(valueOf(arg, hasValue, args, ++i));
        case "--bytes" ->
            budget =
                new Budget(Budget.Unit.BYTES, Budget.parseSize(valueOf(arg, hasValue, args, ++i)));
        case "--records" ->
            budget =
                new Budget(
                    Budget.Unit.RECORDS, Budget.parseSize(valueOf(arg, hasValue, args, ++i)));
        default -> {
          if (arg.startsWith("--")) {
            throw new IllegalArgumentException("unknown option " + arg);
          }
          positional.add(arg);
        }
      }
    }
    if (budget == null) {
      throw new IllegalArgumentException("give the size with --bytes N or --records N");
    }
    if (maps < 1) {
      throw new IllegalArgumentException("--maps must be at least 1, got " + maps);
    }
    if (positional.size() != 1) {
      throw new IllegalArgumentException("expected exactly one output path, got " + positional);
    }
    return new Arguments(seed, maps, budget, new Path(positional.get(0)));
  }

  private static String valueOf(String option, boolean hasValue, String[] args, int i) {
    if (!hasValue) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }

  /** The map-only job writing the model's data to {@code args.output()}. */
  public Job createJob(Configuration base, Arguments args) throws IOException {
    Job job = Job.getInstance(base, name);
    Configuration conf = job.getConfiguration();
    conf.setClass(MODEL, model, DataModel.class);
    conf.setLong(SEED, args.seed());
    conf.set(UNIT, args.budget().unit().name());
    conf.setLong(TOTAL, args.budget().total());
    conf.setInt(TaskIndexInputFormat.TASKS, args.maps());
    job.setJarByClass(GeneratorTool.class);
    job.setInputFormatClass(TaskIndexInputFormat.class);
    job.setMapperClass(GeneratorMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(BytesWritable.class);
    job.setOutputValueClass(NullWritable.class);
    job.setOutputFormatClass(RawBytesOutputFormat.class);
    FileOutputFormat.setOutputPath(job, args.output());
    return job;
  }

  /** Runs the configured model for this task. */
  public static class GeneratorMapper
      extends Mapper<IntWritable, NullWritable, BytesWritable, NullWritable> {
    @Override
    protected void map(IntWritable taskIndex, NullWritable ignored, Context context)
        throws IOException, InterruptedException {
      Configuration conf = context.getConfiguration();
      Budget budget = new Budget(Budget.Unit.valueOf(conf.get(UNIT)), conf.getLong(TOTAL, 0));
      TaskSpec spec =
          new TaskSpec(
              conf.getLong(SEED, 0),
              taskIndex.get(),
              conf.getInt(TaskIndexInputFormat.TASKS, 1),
              budget,
              conf);
      DataModel dataModel =
          ReflectionUtils.newInstance(conf.getClass(MODEL, null, DataModel.class), conf);
      BytesWritable record = new BytesWritable();
      dataModel.generate(
          spec,
          new RecordSink(budget.unit(), spec.share()) {
            @Override
            protected void write(byte[] bytes, int length) throws IOException {
              record.set(bytes, 0, length);
              try {
                context.write(record, NullWritable.get());
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("Interrupted while writing generated data", e);
              }
            }
          });
    }
  }
}
