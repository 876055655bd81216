/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.testing;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoCounter;
import org.apache.hadoop.mapreduce.marco.MarcoJob;

/**
 * Runs one job over one input through Hadoop's stock shuffle and through the MaRCO shuffle
 * (one or more configuration variants), then requires every MaRCO output to be byte-equal to
 * the stock output, and each run to have gone through the shuffle it names: the MaRCO counter
 * group, which only MaRCO's shuffle creates, absent from the stock run and present in every
 * MaRCO run with reduces. The input must already be in {@code <dir>/input}; outputs go to
 * {@code <dir>/out-stock} and {@code <dir>/out-<variant>}. A run that fails fails {@link #run}
 * with the job's state and diagnostics.
 *
 * <p>The result also holds, for every MaRCO run, the partial work of each reduce task ({@link
 * DifferentialResult#reduces}): on YARN from the task reports' counters, under the local runner,
 * which has no per-task counters, from each reduce's MaRCO timeline, which local MaRCO runs
 * write under {@code <dir>/timelines} unless the job names a {@code mapreduce.marco.timeline.dir}.
 *
 * <p>On a cluster all runs are submitted at once and awaited together: much of a job's wall
 * time is heartbeat and JVM-start latency, which concurrent jobs overlap. Under the local runner
 * they run one after the other.
 *
 * <p>MaRCO runs finish every partial invocation still running at shuffle end
 * ({@code mapreduce.marco.finish.all.at.shuffle.end=true} and {@code
 * mapreduce.marco.abandon.at.shuffle.end=false}, set here whatever the cluster's configuration
 * says) unless a variant says otherwise: these tests check what committed partial runs do to the
 * data, and in local mode or on a mini cluster the last map output often arrives within
 * milliseconds of an invocation's start, before it has read much of its input, so the default
 * (wait only for work worth the wait) would hand the final merge the raw map outputs of most of
 * them (stock's path).
 *
 * <pre>
 *   DifferentialResult r = new DifferentialRun(cluster::newJobConf, fs, dir, factory)
 *       .variant("no-partial-reduce", c -> c.setBoolean(MarcoConfig.PARTIAL_REDUCE_ENABLED, false))
 *       .run();
 * </pre>
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class DifferentialRun {
  /** Name of the variant that runs MaRCO with the job's own settings. */
  public static final String MARCO = "marco";

  static final String STOCK = "stock";

  private static final String TIMELINE_SUFFIX = ".jsonl";

  private final Supplier<? extends Configuration> baseConf;
  private final FileSystem fs;
  private final Path dir;
  private final JobFactory factory;
  private final Map<String, Consumer<Configuration>> variants = new LinkedHashMap<>();

  /**
   * @param baseConf fresh configuration per run (cluster or local runner)
   * @param dir holds {@code input/} and receives the outputs
   */
  public DifferentialRun(
      Supplier<? extends Configuration> baseConf, FileSystem fs, Path dir, JobFactory factory) {
    this.baseConf = baseConf;
    this.fs = fs;
    this.dir = dir;
    this.factory = factory;
    variants.put(MARCO, conf -> {});
  }

  /** Adds a MaRCO run whose configuration {@code tweak} changes after the job is built. */
  public DifferentialRun variant(String name, Consumer<Configuration> tweak) {
    if (STOCK.equals(name) || variants.containsKey(name)) {
      throw new IllegalArgumentException("Variant name " + name + " is already taken");
    }
    variants.put(name, tweak);
    return this;
  }

  /** The input directory the test writes before {@link #run}. */
  public Path input() {
    return new Path(dir, "input");
  }

  /**
   * Runs stock and every variant, asserts each succeeded and matches the stock output byte
   * for byte; the AssertionError names a failed job's state and diagnostics (under the local
   * runner, what the runner logged about it) or the first differing line.
   */
  public DifferentialResult run() throws Exception {
    // The local runner keeps a job's intermediate-data encryption key in the JVM user's
    // credentials, which concurrent local jobs share: there, each run goes alone.
    boolean concurrent =
        !MRConfig.LOCAL_FRAMEWORK_NAME.equals(
            baseConf.get().get(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME));
    List<String> names = new ArrayList<>();
    names.add(STOCK);
    names.addAll(variants.keySet());
    Map<String, Job> jobs = new LinkedHashMap<>();
    Map<String, Counters> counters = new LinkedHashMap<>();
    List<String> failures = new ArrayList<>();
    for (String name : names) {
      if (concurrent) {
        jobs.put(name, submit(name, false));
      } else {
        try (LocalRunnerLog log = LocalRunnerLog.capture()) {
          jobs.put(name, submit(name, true));
          await(name, jobs.get(name), log, counters, failures);
        }
      }
    }
    if (concurrent) {
      for (Map.Entry<String, Job> entry : jobs.entrySet()) {
        await(entry.getKey(), entry.getValue(), null, counters, failures);
      }
    }
    // A failed run has no counters to check: its own diagnostics say what went wrong.
    if (!failures.isEmpty()) {
      throw new AssertionError(String.join("\n", failures));
    }
    for (String name : names) {
      if (jobs.get(name).getNumReduceTasks() > 0) {
        String wrong =
            DifferentialResult.wrongShuffle(
                "the " + name + " run", counters.get(name), !STOCK.equals(name));
        if (wrong != null) {
          failures.add(wrong);
        }
      }
    }
    if (!failures.isEmpty()) {
      throw new AssertionError(String.join("\n", failures));
    }
    JobOutput stock = JobOutput.read(fs, output(STOCK));
    for (String variant : variants.keySet()) {
      String diff = OutputDiff.describe(STOCK, stock, variant, JobOutput.read(fs, output(variant)));
      if (diff != null) {
        failures.add(diff);
      }
    }
    if (!failures.isEmpty()) {
      throw new AssertionError(String.join("\n", failures));
    }
    Map<String, List<DifferentialResult.ReduceWork>> reduces = new LinkedHashMap<>();
    Map<String, Configuration> confs = new LinkedHashMap<>();
    for (String variant : variants.keySet()) {
      reduces.put(variant, reduceWork(jobs.get(variant)));
      confs.put(variant, jobs.get(variant).getConfiguration());
    }
    Counters stockCounters = counters.remove(STOCK);
    return new DifferentialResult(stock, stockCounters, counters, reduces, confs);
  }

  private static void await(
      String name,
      Job job,
      LocalRunnerLog log,
      Map<String, Counters> counters,
      List<String> failures)
      throws Exception {
    if (job.waitForCompletion(false)) {
      counters.put(name, job.getCounters());
    } else {
      failures.add("the " + name + " run failed: " + JobDiagnostics.of(job, log));
    }
  }

  /**
   * The partial work of each reduce task of a finished MaRCO job: from the task reports'
   * counters where the runner has them (YARN, the job history server once the job is done),
   * else from the reduces' timelines (the local runner, whose {@code getTaskReports} returns no
   * task and which runs every reduce exactly once).
   */
  private List<DifferentialResult.ReduceWork> reduceWork(Job job) throws Exception {
    TaskReport[] reports = job.getTaskReports(TaskType.REDUCE);
    List<DifferentialResult.ReduceWork> work = new ArrayList<>();
    if (reports.length > 0) {
      for (TaskReport report : reports) {
        Counters c = report.getTaskCounters();
        work.add(
            new DifferentialResult.ReduceWork(
                report.getTaskId(),
                c.findCounter(MarcoCounter.INVOCATIONS).getValue(),
                c.findCounter(MarcoCounter.PARTIAL_INPUT_RECORDS).getValue(),
                c.findCounter(MarcoCounter.PARTIAL_OUTPUT_RECORDS).getValue(),
                c.findCounter(MarcoCounter.RETRIES_WITHOUT_PARTIAL_WORK).getValue() > 0));
      }
      return work;
    }
    String timelines = job.getConfiguration().get(MarcoConfig.TIMELINE_DIR, "");
    Path jobTimelines =
        new Path(
            timelines.isEmpty() ? timelineDir() : new Path(timelines), job.getJobID().toString());
    FileSystem timelineFs = jobTimelines.getFileSystem(job.getConfiguration());
    if (!timelineFs.exists(jobTimelines)) {
      return work;
    }
    for (FileStatus file : timelineFs.listStatus(jobTimelines)) {
      String name = file.getPath().getName();
      if (!name.endsWith(TIMELINE_SUFFIX)) {
        continue;
      }
      long invocations = 0;
      long in = 0;
      long out = 0;
      try (BufferedReader lines =
          new BufferedReader(
              new InputStreamReader(timelineFs.open(file.getPath()), StandardCharsets.UTF_8))) {
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
          if (line.contains("\"event\":\"invocation-end\"")) {
            invocations++;
            in += number(line, "inputRecords");
            out += number(line, "outputRecords");
          }
        }
      }
      String attempt = name.substring(0, name.length() - TIMELINE_SUFFIX.length());
      work.add(
          new DifferentialResult.ReduceWork(
              TaskAttemptID.forName(attempt).getTaskID().toString(), invocations, in, out, false));
    }
    return work;
  }

  private static long number(String jsonLine, String field) {
    Matcher m = Pattern.compile("\"" + field + "\":(\\d+)").matcher(jsonLine);
    if (!m.find()) {
      throw new IllegalStateException("no " + field + " in MaRCO timeline event " + jsonLine);
    }
    return Long.parseLong(m.group(1));
  }

  private Path timelineDir() {
    return new Path(dir, "timelines");
  }

  /**
   * Submits one run. {@code local}: the runner has no per-task counters, so a MaRCO run writes
   * its reduces' timelines, under {@code <dir>/timelines} unless the job names a directory.
   */
  private Job submit(String name, boolean local) throws Exception {
    Path out = output(name);
    fs.delete(out, true);
    Configuration conf = baseConf.get();
    boolean stock = STOCK.equals(name);
    if (stock) {
      MarcoJob.useStockShuffle(conf);
    } else {
      MarcoJob.useMarcoShuffle(conf);
    }
    Job job = factory.create(conf, input(), out);
    if (!stock) {
      Configuration jobConf = job.getConfiguration();
      jobConf.setBoolean(MarcoConfig.ABANDON_AT_SHUFFLE_END, false);
      jobConf.setBoolean(MarcoConfig.FINISH_ALL_AT_SHUFFLE_END, true);
      variants.get(name).accept(jobConf);
      if (local && jobConf.getTrimmed(MarcoConfig.TIMELINE_DIR, "").isEmpty()) {
        jobConf.set(MarcoConfig.TIMELINE_DIR, fs.makeQualified(timelineDir()).toString());
      }
    }
    job.setJobName(job.getJobName() + " [" + name + "]");
    job.submit();
    return job;
  }

  private Path output(String name) {
    return new Path(dir, "out-" + name);
  }
}
