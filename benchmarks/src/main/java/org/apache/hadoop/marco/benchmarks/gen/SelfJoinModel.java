/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.gen;

import java.io.IOException;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;

/**
 * gen-self-join: k=5 candidate lists, elements {@code i000123} in ascending (alphanumeric) order,
 * one list per line, space-separated. Every list is one of P shared 4-element prefixes plus a
 * last element above the prefix's last: P defaults to records / {@value #LIST_LENGTH}
 * (default 20), so the reducer's lists average about that many elements; prefixes are drawn Zipf
 * (exponent 0.5), so popular prefixes have long lists and the combiner finds duplicates. The
 * prefixes depend only on the seed, so all tasks share them; elements come from {@value #ITEMS}
 * (default 100000) items.
 */
public class SelfJoinModel implements DataModel {
  public static final String ITEMS = "marco.gen.selfjoin.items";
  public static final int DEFAULT_ITEMS = 100_000;
  public static final String LIST_LENGTH = "marco.gen.selfjoin.list.length";
  public static final int DEFAULT_LIST_LENGTH = 20;
  static final int K = 5;
  static final double PREFIX_EXPONENT = 0.5;

  /** Bytes per line: 5 elements of 7 characters plus separators. */
  static final double LINE_BYTES = K * 8;

  @Override
  public void generate(TaskSpec task, RecordSink sink) throws IOException {
    Configuration conf = task.conf();
    int items = conf.getInt(ITEMS, DEFAULT_ITEMS);
    int listLength = conf.getInt(LIST_LENGTH, DEFAULT_LIST_LENGTH);
    if (items < 2 * K || listLength < 1) {
      throw new IllegalArgumentException(
          "gen-self-join needs "
              + ITEMS
              + " >= "
              + (2 * K)
              + " and "
              + LIST_LENGTH
              + " >= 1; got "
              + items
              + " and "
              + listLength);
    }
    long prefixes = Math.max(1, task.budget().estimatedRecords(LINE_BYTES) / listLength);
    ZipfSampler prefixSampler = new ZipfSampler(prefixes, PREFIX_EXPONENT);
    String format = "i%0" + Math.max(6, String.valueOf(items - 1).length()) + "d";
    SplittableRandom random = task.random();
    StringBuilder line = new StringBuilder();
    while (!sink.full()) {
      int[] prefix = prefix(task.seed(), prefixSampler.sample(random), items);
      line.setLength(0);
      for (int element : prefix) {
        line.append(String.format(format, element)).append(' ');
      }
      int last = prefix[K - 2] + 1 + random.nextInt(items - 1 - prefix[K - 2]);
      line.append(String.format(format, last));
      sink.emitLine(line);
    }
  }

  /** Prefix number {@code index}: K-1 distinct sorted items below the largest item. */
  static int[] prefix(long seed, long index, int items) {
    SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index);
    int[] elements = new int[K - 1];
    int n = 0;
    while (n < elements.length) {
      int candidate = random.nextInt(items - 1);
      boolean fresh = true;
      for (int i = 0; i < n; i++) {
        fresh &= elements[i] != candidate;
      }
      if (fresh) {
        elements[n++] = candidate;
      }
    }
    Arrays.sort(elements);
    return elements;
  }

  public static void main(String[] args) throws Exception {
    GeneratorTool.main("gen-self-join", SelfJoinModel.class, args);
  }
}
