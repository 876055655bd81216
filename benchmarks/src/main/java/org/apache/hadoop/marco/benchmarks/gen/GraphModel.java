/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.gen;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;

/**
 * gen-graph: a directed web-like graph as edge lines {@code p <TAB> q}. Out-degrees follow
 * P(out-degree = i) proportional to 1/i^2 for i in 1..{@link OutDegrees#CUTOFF}, the cutoff being
 * the one that makes the mean 7.2 (the paper's); a node's targets are distinct, drawn Zipf
 * (exponent {@value #TARGET_EXPONENT}: in-degrees are power-law too) among N nodes, where N =
 * edges / 7.2 or {@value #NODES}. Of M tasks, task t writes the out-edges of a block of
 * consecutive nodes, t*B, t*B+1, ... with B = ceil(N/M), as a crawl stored by id range would be:
 * a job's hash partitioner then spreads every file's sources evenly over any number of reduces.
 * Dealt round-robin instead (t, t+M, t+2M, ...), a file's sources would all fall into one
 * partition whenever the reduces divide M, and every map would send most of its output to one
 * reduce. A task that needs more nodes than its block (its degree draws ran low) continues in
 * a block of its own past all the others: M*B + t*B, M*B + t*B + 1, ...
 * The degrees are drawn by inversion at u0 + k * (golden ratio - 1) mod 1 for the task's k-th node
 * (a low-discrepancy sequence from a random start): the law's variance is huge (its tail reaches
 * 78137), and stratified draws make even a small graph's mean out-degree close to 7.2.
 */
public class GraphModel implements DataModel {
  public static final String NODES = "marco.gen.graph.nodes";
  static final double TARGET_EXPONENT = 0.7;
  private static final double GOLDEN_FRACTION = (Math.sqrt(5) - 1) / 2;

  @Override
  public void generate(TaskSpec task, RecordSink sink) throws IOException {
    Configuration conf = task.conf();
    long nodes = conf.getLong(NODES, nodesFor(task.budget()));
    if (nodes < 2) {
      throw new IllegalArgumentException(NODES + " must be at least 2, got " + nodes);
    }
    SplittableRandom random = task.random();
    ZipfSampler targets = new ZipfSampler(nodes, TARGET_EXPONENT);
    StringBuilder line = new StringBuilder();
    double u = random.nextDouble();
    for (long k = 0; !sink.full(); k++) {
      long node = sourceNode(task.taskIndex(), task.numTasks(), nodes, k);
      u = (u + GOLDEN_FRACTION) % 1.0;
      int degree = (int) Math.min(OutDegrees.inverse(u), nodes - 1);
      for (long target : distinctTargets(random, targets, node, degree)) {
        line.setLength(0);
        line.append(node).append('\t').append(target);
        sink.emitLine(line);
      }
    }
  }

  /** The k-th source node of task t of m: the k-th of its blocks' consecutive ids (see above). */
  static long sourceNode(int t, int m, long nodes, long k) {
    long block = (nodes + m - 1) / m;
    return (k / block * m + t) * block + k % block;
  }

  /** Nodes for a budget: edges / mean degree, edges estimated from the line length. */
  static long nodesFor(Budget budget) {
    if (budget.unit() == Budget.Unit.RECORDS) {
      return Math.max(2, (long) Math.ceil(budget.total() / OutDegrees.MEAN));
    }
    long nodes = Math.max(2, (long) (budget.total() / 10 / OutDegrees.MEAN));
    int digits = String.valueOf(nodes).length();
    return Math.max(2, (long) (budget.total() / (2.0 * digits + 2) / OutDegrees.MEAN));
  }

  /**
   * {@code degree} distinct targets other than {@code source}, sorted. Skewed draws first; a node
   * whose degree is close to N would wait long for the rarest targets, so after 8 draws per
   * target the rest are drawn uniformly.
   */
  private static long[] distinctTargets(
      SplittableRandom random, ZipfSampler sampler, long source, int degree) {
    Set<Long> chosen = new HashSet<>();
    for (long draws = 0; chosen.size() < degree && draws < 8L * degree; draws++) {
      long target = sampler.sample(random) - 1;
      if (target != source) {
        chosen.add(target);
      }
    }
    while (chosen.size() < degree) {
      long target = random.nextLong(sampler.n());
      if (target != source) {
        chosen.add(target);
      }
    }
    long[] sorted = chosen.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(sorted);
    return sorted;
  }

  public static void main(String[] args) throws Exception {
    GeneratorTool.main("gen-graph", GraphModel.class, args);
  }
}
