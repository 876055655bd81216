package org.apache.hadoop.mapreduce.marco.testing;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.marco.MarcoJob;

/**
 * Runs one job over one input through Hadoop's stock shuffle and through the MaRCO shuffle
 * (one or more configuration variants), then requires every MaRCO output to be byte-equal to
 * the stock output. The input must already be in {@code <dir>/input}; outputs go to
 * {@code <dir>/out-stock} and {@code <dir>/out-<variant>}.
 *
 * <p>All runs are submitted at once and awaited together: on a small test cluster much of a
 * job's wall time is heartbeat and JVM-start latency, which concurrent jobs overlap.
 *
 * <pre>
 *   DifferentialResult r = new DifferentialRun(cluster::newJobConf, fs, dir, factory)
 *       .variant("no-partial-reduce", c -> c.setBoolean(MarcoConfig.PARTIAL_REDUCE_ENABLED, false))
 *       .run();
 * </pre>
 */
public final class DifferentialRun {
  /** Name of the variant that runs MaRCO with the job's own settings. */
  public static final String MARCO = "marco";
  static final String STOCK = "stock";

  private final Supplier<? extends Configuration> baseConf;
  private final FileSystem fs;
  private final Path dir;
  private final JobFactory factory;
  private final Map<String, Consumer<Configuration>> variants = new LinkedHashMap<>();

  /**
   * @param baseConf fresh configuration per run (cluster or local runner)
   * @param dir holds {@code input/} and receives the outputs
   */
  public DifferentialRun(Supplier<? extends Configuration> baseConf, FileSystem fs, Path dir,
      JobFactory factory) {
    this.baseConf = baseConf;
    this.fs = fs;
    this.dir = dir;
    this.factory = factory;
    variants.put(MARCO, conf -> { });
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
   * for byte; the AssertionError names the failed job's diagnostics or the first differing line.
   */
  public DifferentialResult run() throws Exception {
    Map<String, Job> jobs = new LinkedHashMap<>();
    jobs.put(STOCK, submit(STOCK));
    for (String variant : variants.keySet()) {
      jobs.put(variant, submit(variant));
    }
    Map<String, Counters> counters = new LinkedHashMap<>();
    List<String> failures = new ArrayList<>();
    for (Map.Entry<String, Job> entry : jobs.entrySet()) {
      Job job = entry.getValue();
      if (job.waitForCompletion(false)) {
        counters.put(entry.getKey(), job.getCounters());
      } else {
        failures.add(entry.getKey() + " run failed: " + JobDiagnostics.of(job));
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
    Counters stockCounters = counters.remove(STOCK);
    return new DifferentialResult(stock, stockCounters, counters);
  }

  private Job submit(String name) throws Exception {
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
      variants.get(name).accept(job.getConfiguration());
    }
    job.setJobName(job.getJobName() + " [" + name + "]");
    job.submit();
    return job;
  }

  private Path output(String name) {
    return new Path(dir, "out-" + name);
  }
}
