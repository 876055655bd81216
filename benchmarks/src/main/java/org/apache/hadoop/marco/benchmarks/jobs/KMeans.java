/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathFilter;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.MultipleOutputs;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.marco.MarcoJob;
import org.apache.hadoop.marco.benchmarks.BenchmarkJob;
import org.apache.hadoop.marco.benchmarks.io.ClusterMembersWritable;
import org.apache.hadoop.marco.benchmarks.io.ClusterMembersWritable.Member;
import org.apache.hadoop.marco.benchmarks.io.DocumentLine;
import org.apache.hadoop.marco.benchmarks.io.MovieRatings;
import org.apache.hadoop.util.ToolRunner;

/**
 * k-means (shuffle-heavy) over the ratings data, k=6 by default. Each round is one job: the map
 * finds the nearest centroid by cosine similarity and emits (centroid, (similarity, movie data));
 * no combiner; the partial reducer adds partial similarity sums and counts and carries the movies
 * along; the reducer averages the similarity, picks the movie closest to the average (ties: lowest
 * id) as the new centroid, writes it to {@code centroids-r-*} and emits every movie as
 * {@code cluster <TAB> movie line}, sorted by movie id, as the next round's input.
 * Rounds go to {@code <output>/iteration-N} until no centroid moves by more than
 * {@value #THRESHOLD} (1 - cosine, default 0.001) or after {@value #MAX_ITERATIONS} rounds.
 */
public class KMeans extends BenchmarkJob {
  public static final String MAX_ITERATIONS = "marco.benchmarks.kmeans.max.iterations";
  public static final int DEFAULT_MAX_ITERATIONS = 5;
  public static final String THRESHOLD = "marco.benchmarks.kmeans.threshold";
  public static final double DEFAULT_THRESHOLD = 0.001;

  /** Bound on a partial value's movie data, so values stay far below the shuffle buffers. */
  static final long MAX_PARTIAL_BYTES = 4L << 20;

  static final String CENTROIDS_OUTPUT = "centroids";

  /** Emits (nearest centroid, {similarity, movie}); the movie's line without a cluster prefix. */
  public static class AssignMapper extends NearestCentroidMapper<ClusterMembersWritable> {
    private final ClusterMembersWritable single = new ClusterMembersWritable();

    @Override
    protected ClusterMembersWritable valueFor(MovieRatings movie, double similarity, Text line) {
      int start = DocumentLine.textStart(line);
      single.clear();
      single.addMember(
          movie.movieId(),
          ClusterMembersWritable.toFixed(similarity),
          Arrays.copyOfRange(line.getBytes(), start, line.getLength()));
      return single;
    }
  }

  /** Partial reducer: partial sums and counts, movies carried along in values of bounded size. */
  public static class PartialSums
      extends Reducer<IntWritable, ClusterMembersWritable, IntWritable, ClusterMembersWritable> {
    private final ClusterMembersWritable partial = new ClusterMembersWritable();

    @Override
    protected void reduce(
        IntWritable cluster, Iterable<ClusterMembersWritable> values, Context context)
        throws IOException, InterruptedException {
      partial.clear();
      for (ClusterMembersWritable v : values) {
        if (partial.count() > 0 && partial.memberBytes() + v.memberBytes() > MAX_PARTIAL_BYTES) {
          context.write(cluster, partial);
          partial.clear();
        }
        partial.addAll(v);
      }
      context.write(cluster, partial);
    }
  }

  /** Final reducer: the new centroid and the cluster's movies. */
  public static class NewCentroidReducer
      extends Reducer<IntWritable, ClusterMembersWritable, IntWritable, Text> {
    private MultipleOutputs<IntWritable, Text> centroidsOut;
    private final Text line = new Text();

    @Override
    protected void setup(Context context) {
      centroidsOut = new MultipleOutputs<>(context);
    }

    @Override
    protected void reduce(
        IntWritable cluster, Iterable<ClusterMembersWritable> values, Context context)
        throws IOException, InterruptedException {
      ClusterMembersWritable all = new ClusterMembersWritable();
      for (ClusterMembersWritable v : values) {
        all.addAll(v);
      }
      line.set(closestToAverage(all).line());
      centroidsOut.write(CENTROIDS_OUTPUT, cluster, line);
      for (Member m : all.members()) {
        line.set(m.line());
        context.write(cluster, line);
      }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      centroidsOut.close();
    }
  }

  /**
   * The new centroid: the member whose similarity is closest to the cluster's average (exact, as
   * sums are fixed-point); ties go to the lowest movie id. Sorts the members by movie id.
   */
  static Member closestToAverage(ClusterMembersWritable cluster) {
    List<Member> members = cluster.members();
    members.sort(Comparator.comparingLong(Member::movieId));
    double average = (double) cluster.similaritySum() / cluster.count();
    Member centroid = members.get(0);
    for (Member m : members) {
      if (Math.abs(m.similarity() - average) < Math.abs(centroid.similarity() - average)) {
        centroid = m;
      }
    }
    return centroid;
  }

  /** Reads a round's output without its centroid files. */
  public static class MovieFilesOnly implements PathFilter {
    @Override
    public boolean accept(Path path) {
      return !path.getName().startsWith(CENTROIDS_OUTPUT + "-");
    }
  }

  @Override
  public String programName() {
    return "k-means";
  }

  @Override
  protected void configure(Job job, String[] extraArgs) throws IOException {
    Centroids.configure(job);
    FileInputFormat.setInputPathFilter(job, MovieFilesOnly.class);
    job.setMapperClass(AssignMapper.class);
    MarcoJob.setPartialReducerClass(job, PartialSums.class);
    job.setReducerClass(NewCentroidReducer.class);
    job.setMapOutputKeyClass(IntWritable.class);
    job.setMapOutputValueClass(ClusterMembersWritable.class);
    job.setOutputKeyClass(IntWritable.class);
    job.setOutputValueClass(Text.class);
    MultipleOutputs.addNamedOutput(
        job, CENTROIDS_OUTPUT, TextOutputFormat.class, IntWritable.class, Text.class);
  }

  /** Runs rounds until the centroids settle; every round's output stays for inspection. */
  @Override
  protected int runJob(Path input, Path output, String[] extraArgs) throws Exception {
    Configuration conf = getConf();
    int maxIterations = conf.getInt(MAX_ITERATIONS, DEFAULT_MAX_ITERATIONS);
    double threshold = conf.getDouble(THRESHOLD, DEFAULT_THRESHOLD);
    if (maxIterations < 1 || threshold < 0) {
      throw new IllegalArgumentException(
          MAX_ITERATIONS
              + " must be >= 1 and "
              + THRESHOLD
              + " >= 0; got "
              + maxIterations
              + " and "
              + threshold);
    }
    Centroids current =
        conf.get(Centroids.KEY) != null
            ? Centroids.load(conf)
            : Centroids.firstMovies(conf, input, conf.getInt(Centroids.K, Centroids.DEFAULT_K));
    Path roundInput = input;
    for (int round = 1; round <= maxIterations; round++) {
      Configuration roundConf = new Configuration(conf);
      current.store(roundConf);
      Path roundOutput = new Path(output, "iteration-" + round);
      Job job = createJob(roundConf, roundInput, roundOutput);
      if (!job.waitForCompletion(true)) {
        System.err.println("k-means: round " + round + " failed");
        return 1;
      }
      Centroids next = readCentroids(roundConf, roundOutput, current);
      double movement = next.maxMovement(current);
      System.out.printf(
          "k-means: round %d of at most %d, largest centroid movement %.6f%n",
          round, maxIterations, movement);
      current = next;
      roundInput = roundOutput;
      if (movement < threshold) {
        break;
      }
    }
    System.out.println("k-means: final clusters in " + roundInput);
    return 0;
  }

  /** The centroids a round wrote; a cluster that lost all its movies keeps its old centroid. */
  static Centroids readCentroids(Configuration conf, Path roundOutput, Centroids previous)
      throws IOException {
    List<String> lines = new ArrayList<>();
    for (int c = 0; c < previous.size(); c++) {
      lines.add(previous.line(c));
    }
    FileSystem fs = roundOutput.getFileSystem(conf);
    for (FileStatus file :
        fs.listStatus(roundOutput, p -> p.getName().startsWith(CENTROIDS_OUTPUT + "-"))) {
      try (BufferedReader in =
          new BufferedReader(
              new InputStreamReader(fs.open(file.getPath()), StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          int tab = line.indexOf('\t');
          lines.set(Integer.parseInt(line.substring(0, tab)), line.substring(tab + 1));
        }
      }
    }
    return new Centroids(lines);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new KMeans(), args));
  }
}
