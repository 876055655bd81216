/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.differential;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.io.Text;

/**
 * Input for {@link SortedValues} ({@code key value} lines over a few keys, so most reducers get
 * an empty partition) and the output it must produce with Hadoop's HashPartitioner.
 */
public final class KeyedValues {
  private KeyedValues() {}

  public static List<List<String>> generate(
      int files, int linesPerFile, List<String> keys, long seed) {
    Random random = new Random(seed);
    List<List<String>> input = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      List<String> lines = new ArrayList<>();
      for (int l = 0; l < linesPerFile; l++) {
        lines.add(
            keys.get(random.nextInt(keys.size()))
                + " "
                + String.format("v%05d", random.nextInt(100_000)));
      }
      input.add(lines);
    }
    return input;
  }

  public static String expected(List<List<String>> input, int reducers) {
    List<Map<Text, List<String>>> partitions = new ArrayList<>();
    for (int r = 0; r < reducers; r++) {
      partitions.add(new TreeMap<>());
    }
    for (List<String> file : input) {
      for (String line : file) {
        String[] fields = line.split(" ", 2);
        Text key = new Text(fields[0]);
        partitions
            .get(partition(key, reducers))
            .computeIfAbsent(key, k -> new ArrayList<>())
            .add(fields[1]);
      }
    }
    StringBuilder text = new StringBuilder();
    for (Map<Text, List<String>> partition : partitions) {
      partition.forEach(
          (key, values) -> {
            Collections.sort(values);
            text.append(key).append('\t').append(String.join(",", values)).append('\n');
          });
    }
    return text.toString();
  }

  private static int partition(Text key, int reducers) {
    return (key.hashCode() & Integer.MAX_VALUE) % reducers;
  }
}
