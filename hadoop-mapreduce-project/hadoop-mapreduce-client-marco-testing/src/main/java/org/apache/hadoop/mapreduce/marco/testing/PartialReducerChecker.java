/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.marco.testing.JobFunctions.Record;

/**
 * Checks a job's partial reducer against the property the MaRCO runtime relies on, on sample
 * input and without a cluster. For random splits of the map outputs into parts,
 * {@code reduce(partial(A) ++ partial(B) ++ ...)} must print what {@code reduce(A ++ B ++ ...)}
 * prints, also when partial outputs are partially reduced again (parts of parts: a later
 * invocation re-reading earlier runs), when one part is partially reduced twice, and whatever
 * order the values of a key arrive in. Every partial output is also held to the contract
 * (map-output types, only keys of the group it was called with, in sort order).
 *
 * <p>Observing the property on samples is what MRUnit-style tests did for combiners; MRUnit itself
 * is retired (Apache Attic). A failure is reported with the smallest sub-sample of map outputs
 * that still shows it, the split that shows it, and the two outputs:
 *
 * <pre>
 *   Job job = MyJob.create(new Configuration(), new Path("in"), new Path("out"));
 *   PartialReducerChecker.forJob(job)
 *       .mapInput(List.of(new Writable[] {new LongWritable(0), new Text("a b a")}))
 *       .check();
 * </pre>
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class PartialReducerChecker {
  /** Map tasks the sample input is mapped as, unless {@link #maps} says otherwise. */
  public static final int DEFAULT_MAPS = 4;

  /** Random splits tried, unless {@link #trials} says otherwise. */
  public static final int DEFAULT_TRIALS = 100;

  /** Seed of the splits and value orders, unless {@link #seed} says otherwise. */
  public static final long DEFAULT_SEED = 1;

  /** Trials per candidate while the failing sample is shrunk. */
  private static final int SHRINK_TRIALS = 40;

  private final JobFunctions job;
  private final List<Writable[]> input = new ArrayList<>();
  private final List<Writable[]> mapOutputs = new ArrayList<>();
  private int maps = DEFAULT_MAPS;
  private int trials = DEFAULT_TRIALS;
  private long seed = DEFAULT_SEED;

  private PartialReducerChecker(JobFunctions job) {
    this.job = job;
  }

  /** A checker for a configured job (new API) that declares a partial reducer. */
  public static PartialReducerChecker forJob(Job job) {
    return of(new JobFunctions(job));
  }

  public static PartialReducerChecker of(JobFunctions job) {
    if (job.partialReducerName() == null) {
      throw new IllegalArgumentException(
          "The job declares no partial reducer: set "
              + "mapreduce.marco.partial.reducer.class (MarcoJob.setPartialReducerClass) first.");
    }
    return new PartialReducerChecker(job);
  }

  /** Sample input records (key, value), run through the job's mapper (and combiner). */
  public PartialReducerChecker mapInput(List<? extends Writable[]> records) {
    input.addAll(records);
    return this;
  }

  /** One sample map-output record, added as it is. */
  public PartialReducerChecker mapOutput(Writable key, Writable value) {
    mapOutputs.add(new Writable[] {key, value});
    return this;
  }

  /** The sample input is mapped as this many map tasks, each combined ({@link #DEFAULT_MAPS}). */
  public PartialReducerChecker maps(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("maps must be at least 1, not " + count);
    }
    this.maps = count;
    return this;
  }

  /** Random splits tried ({@link #DEFAULT_TRIALS}). */
  public PartialReducerChecker trials(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("trials must be at least 1, not " + count);
    }
    this.trials = count;
    return this;
  }

  /** Seed of the splits and of the value orders ({@link #DEFAULT_SEED}); a failure names it. */
  public PartialReducerChecker seed(long value) {
    this.seed = value;
    return this;
  }

  /**
   * Runs the check.
   *
   * @return the final reducer's output on the whole sample, as TextOutputFormat lines
   * @throws AssertionError naming the broken rule and the smallest sample that shows it
   */
  public List<String> check() throws Exception {
    List<Record> records = mapSample();
    if (records.isEmpty()) {
      throw new IllegalArgumentException(
          "The sample produced no map output: give mapInput or "
              + "mapOutput records that the mapper does not filter out.");
    }
    String failure = firstFailure(records, trials);
    if (failure != null) {
      List<Record> smallest = shrink(records);
      String shown = smallest == records ? failure : firstFailure(smallest, SHRINK_TRIALS);
      throw new AssertionError(
          "Partial reducer "
              + job.partialReducerName()
              + " breaks the partial-reducer contract.\n"
              + shown
              + "\nSmallest sample that shows it ("
              + smallest.size()
              + " of "
              + records.size()
              + " map-output records, seed "
              + seed
              + "):\n  "
              + String.join("\n  ", job.show(smallest)));
    }
    return job.reduce(records, new Random(seed));
  }

  private List<Record> mapSample() throws Exception {
    Random random = new Random(seed);
    List<Record> out = new ArrayList<>();
    if (!input.isEmpty()) {
      int perMap = (input.size() + maps - 1) / maps;
      for (int start = 0; start < input.size(); start += perMap) {
        List<Record> mapped = job.map(input.subList(start, Math.min(input.size(), start + perMap)));
        out.addAll(job.hasCombiner() ? job.combine(mapped, random) : mapped);
      }
    }
    for (Writable[] kv : mapOutputs) {
      out.add(new Record(JobFunctions.bytes(kv[0]), JobFunctions.bytes(kv[1])));
    }
    return out;
  }

  /** What goes wrong in {@code count} seeded trials on {@code records}, or null if nothing. */
  private String firstFailure(List<Record> records, int count) throws Exception {
    Random random = new Random(seed);
    List<String> reference = job.reduce(records, random);
    for (int trial = 0; trial < count; trial++) {
      int parts = Math.min(records.size(), 2 + random.nextInt(3));
      List<List<Record>> split = new ArrayList<>();
      for (int p = 0; p < parts; p++) {
        split.add(new ArrayList<>());
      }
      for (Record r : records) {
        split.get(random.nextInt(parts)).add(r);
      }
      split.removeIf(List::isEmpty);
      StringBuilder plan = new StringBuilder();
      for (List<Record> part : split) {
        plan.append("\n    part ").append(job.show(part));
      }
      List<List<Record>> partials = new ArrayList<>();
      try {
        for (List<Record> part : split) {
          partials.add(job.partialReduce(part, random));
        }
        int step = random.nextInt(3);
        if (step == 1 && partials.size() >= 2) {
          List<Record> twoRuns = new ArrayList<>(partials.remove(0));
          twoRuns.addAll(partials.remove(0));
          partials.add(job.partialReduce(twoRuns, random));
          plan.append("\n    then the partial outputs of the first two parts, reduced again");
        } else if (step == 2) {
          partials.set(0, job.partialReduce(partials.get(0), random));
          plan.append("\n    then the first part's partial output, reduced again");
        }
      } catch (AssertionError broken) {
        return broken.getMessage() + "\n  in trial " + trial + ", split:" + plan;
      }
      List<Record> finalInput = new ArrayList<>();
      partials.forEach(finalInput::addAll);
      List<String> actual = job.reduce(finalInput, random);
      if (!actual.equals(reference)) {
        return "reduce(partial outputs) differs from reduce(all map outputs) in trial "
            + trial
            + ", split:"
            + plan
            + "\n  partial outputs: "
            + job.show(finalInput)
            + "\n  reduce(partial outputs):  "
            + actual
            + "\n  reduce(all map outputs):  "
            + reference;
      }
    }
    return null;
  }

  /**
   * The smallest sub-sample that still fails, by delta debugging: drop chunks of halving size
   * while what is left still fails.
   */
  private List<Record> shrink(List<Record> records) throws Exception {
    List<Record> current = records;
    int chunk = Math.max(1, current.size() / 2);
    while (true) {
      boolean dropped = false;
      for (int start = 0; start < current.size() && current.size() > 1; ) {
        List<Record> candidate = new ArrayList<>(current.subList(0, start));
        candidate.addAll(current.subList(Math.min(current.size(), start + chunk), current.size()));
        if (!candidate.isEmpty() && firstFailure(candidate, SHRINK_TRIALS) != null) {
          current = candidate;
          dropped = true;
        } else {
          start += chunk;
        }
      }
      if (chunk == 1 && !dropped) {
        return current;
      }
      chunk = Math.max(1, chunk / 2);
    }
  }
}
