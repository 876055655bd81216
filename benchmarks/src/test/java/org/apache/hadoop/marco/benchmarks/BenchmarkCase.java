/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.testing.JobFactory;
import org.apache.hadoop.marco.benchmarks.gen.BinaryModel;
import org.apache.hadoop.marco.benchmarks.gen.Budget;
import org.apache.hadoop.marco.benchmarks.gen.DataModel;
import org.apache.hadoop.marco.benchmarks.gen.GraphModel;
import org.apache.hadoop.marco.benchmarks.gen.InvertedIndexModel;
import org.apache.hadoop.marco.benchmarks.gen.RatingsModel;
import org.apache.hadoop.marco.benchmarks.gen.SelfJoinModel;
import org.apache.hadoop.marco.benchmarks.gen.TextModel;
import org.apache.hadoop.marco.benchmarks.jobs.AdjacencyList;
import org.apache.hadoop.marco.benchmarks.jobs.BinarySort;
import org.apache.hadoop.marco.benchmarks.jobs.Classification;
import org.apache.hadoop.marco.benchmarks.jobs.Grep;
import org.apache.hadoop.marco.benchmarks.jobs.HistogramMovies;
import org.apache.hadoop.marco.benchmarks.jobs.HistogramRatings;
import org.apache.hadoop.marco.benchmarks.jobs.InvertedIndex;
import org.apache.hadoop.marco.benchmarks.jobs.KMeans;
import org.apache.hadoop.marco.benchmarks.jobs.PaperReducers;
import org.apache.hadoop.marco.benchmarks.jobs.Parametric;
import org.apache.hadoop.marco.benchmarks.jobs.SelfJoin;
import org.apache.hadoop.marco.benchmarks.jobs.TermVector;
import org.apache.hadoop.marco.benchmarks.jobs.WordCount;

/**
 * One benchmark on small generated data, for the differential tests (local runner and mini
 * cluster): the job, its generator and size, the number of reducers, and whether its partial
 * reducer merges records (a sum or a union does; the identity partial reducers of binary-sort,
 * classification and grep emit every record they read).
 */
public record BenchmarkCase(
    String name,
    Supplier<BenchmarkJob> tool,
    DataModel model,
    Consumer<Configuration> modelOptions,
    Budget budget,
    int reducers,
    boolean partialReducerReduces,
    Consumer<Configuration> jobOptions) {
  /** A case whose job runs with its default settings. */
  public BenchmarkCase(
      String name,
      Supplier<BenchmarkJob> tool,
      DataModel model,
      Consumer<Configuration> modelOptions,
      Budget budget,
      int reducers,
      boolean partialReducerReduces) {
    this(name, tool, model, modelOptions, budget, reducers, partialReducerReduces, conf -> {});
  }

  /** Every benchmark, with data small enough for a test and large enough for 8 maps. */
  public static List<BenchmarkCase> all() {
    Budget text = new Budget(Budget.Unit.BYTES, 160_000);
    Consumer<Configuration> fewHosts = conf -> conf.setInt(TextModel.HOSTS, 40);
    Consumer<Configuration> smallRatings =
        conf -> {
          conf.setInt(RatingsModel.RATERS, 5000);
          conf.setInt(RatingsModel.MAX_RATINGS, 500);
        };
    Budget ratings = new Budget(Budget.Unit.BYTES, 160_000);
    Consumer<Configuration> none = conf -> {};
    Consumer<Configuration> paper = conf -> conf.set(PaperReducers.KEY, PaperReducers.PAPER);
    Budget binary = new Budget(Budget.Unit.BYTES, 200_000);
    return List.of(
        new BenchmarkCase(
            "binary-sort",
            BinarySort::new,
            new BinaryModel(),
            none,
            new Budget(Budget.Unit.BYTES, 200_000),
            3,
            false),
        new BenchmarkCase("term-vector", TermVector::new, new TextModel(), fewHosts, text, 2, true),
        new BenchmarkCase(
            "inverted-index", InvertedIndex::new, new InvertedIndexModel(), none, text, 2, true),
        new BenchmarkCase(
            "self-join",
            SelfJoin::new,
            new SelfJoinModel(),
            conf -> conf.setInt(SelfJoinModel.ITEMS, 400),
            text,
            2,
            true),
        new BenchmarkCase(
            "adjacency-list", AdjacencyList::new, new GraphModel(), none, text, 2, true),
        new BenchmarkCase(
            "k-means", KMeans::new, new RatingsModel(), smallRatings, ratings, 2, true),
        new BenchmarkCase("word-count", WordCount::new, new TextModel(), none, text, 2, true),
        new BenchmarkCase(
            "classification",
            Classification::new,
            new RatingsModel(),
            smallRatings,
            ratings,
            2,
            false),
        new BenchmarkCase("grep", Grep::new, new TextModel(), none, text, 1, false),
        new BenchmarkCase(
            "histogram-movies",
            HistogramMovies::new,
            new RatingsModel(),
            smallRatings,
            ratings,
            2,
            true),
        new BenchmarkCase(
            "inverted-index, paper reducers",
            InvertedIndex::new,
            new InvertedIndexModel(),
            none,
            text,
            2,
            true,
            paper),
        new BenchmarkCase(
            "self-join, paper reducers",
            SelfJoin::new,
            new SelfJoinModel(),
            conf -> conf.setInt(SelfJoinModel.ITEMS, 400),
            text,
            2,
            true,
            paper),
        new BenchmarkCase(
            "adjacency-list, paper reducers",
            AdjacencyList::new,
            new GraphModel(),
            none,
            text,
            2,
            true,
            paper),
        new BenchmarkCase(
            "parametric",
            Parametric::new,
            new BinaryModel(),
            none,
            binary,
            2,
            true,
            conf -> {
              conf.setInt(Parametric.REDUCE_COST, 8);
              conf.setInt(Parametric.VALUES_PER_KEY, 20);
              conf.setFloat(Parametric.OUTPUT_RATIO, 0.05f);
            }),
        new BenchmarkCase(
            "histogram-ratings",
            HistogramRatings::new,
            new RatingsModel(),
            smallRatings,
            ratings,
            2,
            true));
  }

  /** Writes the generated input as {@code dir/part-m-00000} (seed 1, 2 generator tasks). */
  public void writeInput(FileSystem fs, Path dir) throws IOException {
    Configuration options = new Configuration(false);
    modelOptions.accept(options);
    byte[] data = GeneratedData.generate(model, options, 1, 2, budget);
    fs.delete(dir, true);
    try (OutputStream out = fs.create(new Path(dir, "part-m-00000"))) {
      out.write(data);
    }
  }

  /**
   * Builds the job with the case's reducers and a split size giving about {@code maps} map
   * tasks; MaRCO starts a partial invocation every 2 map outputs (the paper's 4 and 8 would
   * start few with a handful of maps).
   */
  public JobFactory factory(int maps) {
    return (conf, input, output) -> {
      conf.setInt(MRJobConfig.NUM_REDUCES, reducers);
      conf.setLong(FileInputFormat.SPLIT_MAXSIZE, budget.total() / maps + 1);
      conf.setInt(MarcoConfig.START_THRESHOLD_INITIAL, 2);
      conf.setInt(MarcoConfig.START_THRESHOLD, 2);
      jobOptions.accept(conf);
      return tool.get().createJob(conf, input, output);
    };
  }

  @Override
  public String toString() {
    return name;
  }
}
