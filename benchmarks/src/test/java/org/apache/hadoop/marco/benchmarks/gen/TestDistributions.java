/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.gen;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.lib.partition.HashPartitioner;
import org.apache.hadoop.marco.benchmarks.GeneratedData;
import org.apache.hadoop.marco.benchmarks.io.MovieRatings;
import org.junit.Test;

/** The generators' stated distributions, measured on generated samples. */
public class TestDistributions {

  /** Least-squares slope of log(frequency) against log(rank) over ranks 1..maxRank. */
  static double zipfSlope(long[] countsByRank, int maxRank) {
    double sx = 0;
    double sy = 0;
    double sxx = 0;
    double sxy = 0;
    for (int r = 1; r <= maxRank; r++) {
      double x = Math.log(r);
      double y = Math.log(countsByRank[r - 1]);
      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
    }
    return (maxRank * sxy - sx * sy) / (maxRank * sxx - sx * sx);
  }

  @Test
  public void zipfSamplerHasTheRequestedSlope() {
    for (double exponent : new double[] {0.7, 1.0, 1.3}) {
      ZipfSampler zipf = new ZipfSampler(50_000, exponent);
      long[] counts = new long[50_000];
      SplittableRandom random = new SplittableRandom(1);
      for (int i = 0; i < 2_000_000; i++) {
        counts[(int) zipf.sample(random) - 1]++;
      }
      assertEquals("slope for exponent " + exponent, -exponent, zipfSlope(counts, 100), 0.05);
    }
  }

  @Test
  public void generatedTextIsZipfOverEnglishWords() throws Exception {
    byte[] text =
        GeneratedData.generate(
            new TextModel(), new Configuration(), 1, 2, new Budget(Budget.Unit.BYTES, 3_000_000));
    Map<String, Long> counts = new HashMap<>();
    Set<String> hosts = new HashSet<>();
    for (String line : GeneratedData.lines(text)) {
      int tab = line.indexOf('\t');
      assertTrue("document name before the tab: " + line, line.startsWith("host-") && tab > 0);
      hosts.add(line.substring(0, line.indexOf('/')));
      for (String word : line.substring(tab + 1).split(" ")) {
        assertTrue("lowercase English word: " + word, word.matches("[a-z]+"));
        counts.merge(word, 1L, Long::sum);
      }
    }
    long[] byRank = counts.values().stream().mapToLong(Long::longValue).sorted().toArray();
    long[] descending = new long[byRank.length];
    for (int i = 0; i < byRank.length; i++) {
      descending[i] = byRank[byRank.length - 1 - i];
    }
    assertEquals("Zipf slope of the words", -1.0, zipfSlope(descending, 200), 0.1);
    assertTrue("hosts: " + hosts.size(), hosts.size() > 100);
    assertEquals(
        "rank 1 is the most frequent word",
        Vocabulary.get().word(1),
        counts.entrySet().stream().max(Map.Entry.comparingByValue()).get().getKey());
  }

  @Test
  public void outDegreeLawHasMeanSevenPointTwo() {
    assertEquals(78137, OutDegrees.CUTOFF);
    assertEquals(7.2, OutDegrees.exactMean(), 0.001);
    SplittableRandom random = new SplittableRandom(3);
    long sum = 0;
    long ones = 0;
    long twos = 0;
    int samples = 4_000_000;
    for (int i = 0; i < samples; i++) {
      int d = OutDegrees.sample(random);
      sum += d;
      ones += d == 1 ? 1 : 0;
      twos += d == 2 ? 1 : 0;
    }
    assertEquals("sample mean within 5%", 7.2, (double) sum / samples, 0.05 * 7.2);
    assertEquals("P(1)/P(2) = 4 for 1/i^2", 4.0, (double) ones / twos, 0.05);
  }

  @Test
  public void generatedGraphHasMeanOutDegreeSevenPointTwoAndNoRepeatedEdges() throws Exception {
    byte[] edges =
        GeneratedData.generate(
            new GraphModel(), new Configuration(), 5, 2, new Budget(Budget.Unit.RECORDS, 700_000));
    Map<Long, Integer> outDegree = new HashMap<>();
    long previousSource = -1;
    long previousTarget = -1;
    long edgeCount = 0;
    for (String line : GeneratedData.lines(edges)) {
      int tab = line.indexOf('\t');
      long p = Long.parseLong(line.substring(0, tab));
      long q = Long.parseLong(line.substring(tab + 1));
      assertTrue("self loop " + line, p != q);
      assertTrue(
          "a node's targets are distinct and sorted: " + line,
          p != previousSource || q > previousTarget);
      previousSource = p;
      previousTarget = q;
      outDegree.merge(p, 1, Integer::sum);
      edgeCount++;
    }
    double mean = (double) edgeCount / outDegree.size();
    assertEquals("mean out-degree", 7.2, mean, 0.05 * 7.2);
    long ones = outDegree.values().stream().filter(d -> d == 1).count();
    assertEquals(
        "P(out-degree 1) = 6/pi^2",
        6 / (Math.PI * Math.PI),
        (double) ones / outDegree.size(),
        0.01);
  }

  /**
   * Hash partitioning (LongWritable's hash is its value) must spread each part file's source nodes
   * over the reduces, whatever their number: a file whose sources all fell into one partition
   * would send most of every map's output to a single reduce.
   */
  @Test
  public void everyGraphFileSpreadsItsSourceNodesEvenlyOverAnyNumberOfReduces() throws Exception {
    int tasks = 4;
    Budget budget = new Budget(Budget.Unit.RECORDS, 400_000);
    Set<Long> seen = new HashSet<>();
    HashPartitioner<LongWritable, Object> partitioner = new HashPartitioner<>();
    for (int t = 0; t < tasks; t++) {
      Set<Long> sources = new HashSet<>();
      byte[] part =
          GeneratedData.generateTask(new GraphModel(), new Configuration(), 5, t, tasks, budget);
      for (String line : GeneratedData.lines(part)) {
        sources.add(Long.parseLong(line.substring(0, line.indexOf('\t'))));
      }
      for (long p : sources) {
        assertTrue("node " + p + " is the source of two part files", seen.add(p));
      }
      for (int reduces : new int[] {2, 3, 4, 8, 30}) {
        long[] perReduce = new long[reduces];
        for (long p : sources) {
          perReduce[partitioner.getPartition(new LongWritable(p), null, reduces)]++;
        }
        long min = Arrays.stream(perReduce).min().getAsLong();
        long max = Arrays.stream(perReduce).max().getAsLong();
        assertTrue(
            "part " + t + " over " + reduces + " reduces: " + Arrays.toString(perReduce),
            max <= 1.05 * min);
      }
    }
  }

  @Test
  public void ratingsAreOneToFiveSkewedAndMoviePopularityIsHeavyTailed() throws Exception {
    byte[] data =
        GeneratedData.generate(
            new RatingsModel(), new Configuration(), 2, 2, new Budget(Budget.Unit.RECORDS, 400));
    long[] stars = new long[6];
    List<String> lines = GeneratedData.lines(data);
    int[] sizes = new int[lines.size()];
    Set<Long> movies = new HashSet<>();
    for (int i = 0; i < lines.size(); i++) {
      MovieRatings movie = MovieRatings.parse(lines.get(i));
      assertTrue("unique movie ids", movies.add(movie.movieId()));
      sizes[i] = movie.size();
      for (int r = 0; r < movie.size(); r++) {
        stars[movie.rating(r)]++;
        assertTrue(movie.rater(r) >= 0 && movie.rater(r) < RatingsModel.DEFAULT_RATERS);
      }
    }
    assertEquals(400, movies.size());
    assertTrue("ids are dense", movies.contains(400L) && movies.contains(1L));
    assertEquals(0, stars[0]);
    long total = stars[1] + stars[2] + stars[3] + stars[4] + stars[5];
    assertTrue("4 stars are the most common", stars[4] > stars[3] && stars[4] > stars[5]);
    assertTrue("1 star is the rarest", stars[1] < stars[2]);
    assertEquals("4-star share", 0.336, (double) stars[4] / total, 0.05);
    Arrays.sort(sizes);
    assertTrue("at least the minimum number of ratings", sizes[0] >= 20);
    assertTrue(
        "heavy tail: max " + sizes[sizes.length - 1] + " vs median " + sizes[200],
        sizes[sizes.length - 1] > 20 * sizes[200]);
  }

  @Test
  public void selfJoinListsAreSortedFiveElementsWithSharedPrefixes() throws Exception {
    byte[] data =
        GeneratedData.generate(
            new SelfJoinModel(),
            new Configuration(),
            3,
            2,
            new Budget(Budget.Unit.RECORDS, 20_000));
    Set<String> prefixes = new HashSet<>();
    for (String line : GeneratedData.lines(data)) {
      String[] elements = line.split(" ");
      assertEquals(5, elements.length);
      for (int i = 1; i < 5; i++) {
        assertTrue("sorted and distinct: " + line, elements[i - 1].compareTo(elements[i]) < 0);
      }
      prefixes.add(line.substring(0, line.lastIndexOf(' ')));
    }
    assertTrue(
        "about records/20 prefixes: " + prefixes.size(),
        prefixes.size() <= 1_000 && prefixes.size() > 500);
  }

  @Test
  public void binaryRecordsAreWholeHundredByteRecords() throws Exception {
    byte[] data =
        GeneratedData.generate(
            new BinaryModel(), new Configuration(), 4, 3, new Budget(Budget.Unit.BYTES, 10_050));
    assertEquals("each task's 3350 bytes round up to 34 whole records", 3 * 3_400, data.length);
    assertFalse(Arrays.equals(Arrays.copyOfRange(data, 0, 10), Arrays.copyOfRange(data, 100, 110)));
  }

  @Test
  public void invertedIndexLinesComeFromTheTextModel() throws Exception {
    byte[] data =
        GeneratedData.generate(
            new InvertedIndexModel(),
            new Configuration(),
            6,
            2,
            new Budget(Budget.Unit.BYTES, 50_000));
    for (String line : GeneratedData.lines(data)) {
      assertTrue(line, line.matches("[a-z]+:host-\\d{5}/doc-\\d+-\\d+\t[1-9]\\d*"));
    }
  }

  @Test
  public void sameSeedGivesTheSameBytesAndAnotherSeedDifferentBytes() throws Exception {
    List<DataModel> models =
        List.of(
            new TextModel(),
            new InvertedIndexModel(),
            new RatingsModel(),
            new SelfJoinModel(),
            new GraphModel(),
            new BinaryModel());
    Budget budget = new Budget(Budget.Unit.BYTES, 30_000);
    for (DataModel model : models) {
      byte[] first = GeneratedData.generate(model, new Configuration(), 42, 3, budget);
      assertArrayEquals(
          model.getClass().getSimpleName(),
          first,
          GeneratedData.generate(model, new Configuration(), 42, 3, budget));
      assertFalse(
          model.getClass().getSimpleName(),
          Arrays.equals(first, GeneratedData.generate(model, new Configuration(), 43, 3, budget)));
      assertTrue("budget met", first.length >= 30_000);
    }
  }
}
