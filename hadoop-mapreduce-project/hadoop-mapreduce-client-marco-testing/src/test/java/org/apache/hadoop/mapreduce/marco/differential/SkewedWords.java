/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.differential;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.io.Text;

/**
 * Word-count input with Zipf-like skew (word i has weight 1/(i+1), so the first word is about
 * a sixth of all words over a 500-word vocabulary), and the exact output a correct word count
 * must produce for it, computed here without MapReduce.
 */
public final class SkewedWords {
  private static final int VOCABULARY = 500;
  private static final int WORDS_PER_LINE = 10;

  private SkewedWords() {}

  /**
   * {@code files} files of {@code wordsPerFile} words; the files whose index is in
   * {@code emptyFiles} are empty (their maps emit nothing). Same seed, same input.
   */
  public static List<List<String>> generate(
      int files, int wordsPerFile, List<Integer> emptyFiles, long seed) {
    double[] cumulative = cumulativeWeights();
    Random random = new Random(seed);
    List<List<String>> input = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      List<String> lines = new ArrayList<>();
      if (!emptyFiles.contains(f)) {
        StringBuilder line = new StringBuilder();
        for (int w = 1; w <= wordsPerFile; w++) {
          line.append(word(cumulative, random.nextDouble()));
          if (w % WORDS_PER_LINE == 0 || w == wordsPerFile) {
            lines.add(line.toString());
            line.setLength(0);
          } else {
            line.append(' ');
          }
        }
      }
      input.add(lines);
    }
    return input;
  }

  /**
   * The concatenated part files of a word count with {@code reducers} reducers and Hadoop's
   * default HashPartitioner: partition by {@code Text.hashCode}, keys in byte order.
   */
  public static String expectedCounts(List<List<String>> input, int reducers) {
    List<Map<Text, Long>> partitions = new ArrayList<>();
    for (int r = 0; r < reducers; r++) {
      partitions.add(new TreeMap<>());
    }
    for (List<String> file : input) {
      for (String line : file) {
        for (String token : line.split(" ")) {
          Text word = new Text(token);
          partitions
              .get((word.hashCode() & Integer.MAX_VALUE) % reducers)
              .merge(word, 1L, Long::sum);
        }
      }
    }
    StringBuilder text = new StringBuilder();
    for (Map<Text, Long> partition : partitions) {
      partition.forEach((word, count) -> text.append(word).append('\t').append(count).append('\n'));
    }
    return text.toString();
  }

  private static double[] cumulativeWeights() {
    double[] cumulative = new double[VOCABULARY];
    double total = 0;
    for (int i = 0; i < VOCABULARY; i++) {
      total += 1.0 / (i + 1);
      cumulative[i] = total;
    }
    for (int i = 0; i < VOCABULARY; i++) {
      cumulative[i] /= total;
    }
    return cumulative;
  }

  private static String word(double[] cumulative, double u) {
    int at = Arrays.binarySearch(cumulative, u);
    int i = Math.min(at >= 0 ? at : -at - 1, cumulative.length - 1);
    return String.format("w%04d", i);
  }
}
