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

/**
 * Input for {@link OldApiSecondarySort} ({@code group number} lines) and the output it must
 * produce: per partition, groups in order, each group's numbers in descending order.
 */
public final class GroupedNumbers {
  private GroupedNumbers() {}

  public static List<List<String>> generate(int files, int linesPerFile, int groups, long seed) {
    Random random = new Random(seed);
    List<List<String>> input = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      List<String> lines = new ArrayList<>();
      for (int l = 0; l < linesPerFile; l++) {
        lines.add(String.format("g%02d %d", random.nextInt(groups), random.nextInt(100_000)));
      }
      input.add(lines);
    }
    return input;
  }

  public static String expected(List<List<String>> input, int reducers) {
    Map<String, List<Long>> byGroup = new TreeMap<>();
    for (List<String> file : input) {
      for (String line : file) {
        String[] fields = line.split(" ");
        byGroup.computeIfAbsent(fields[0], g -> new ArrayList<>()).add(Long.parseLong(fields[1]));
      }
    }
    StringBuilder text = new StringBuilder();
    for (int r = 0; r < reducers; r++) {
      for (Map.Entry<String, List<Long>> group : byGroup.entrySet()) {
        if (OldApiSecondarySort.partitionOf(group.getKey(), reducers) != r) {
          continue;
        }
        List<Long> numbers = group.getValue();
        numbers.sort(Collections.reverseOrder());
        text.append(group.getKey()).append('\t');
        for (int i = 0; i < numbers.size(); i++) {
          text.append(i == 0 ? "" : ",").append(numbers.get(i));
        }
        text.append('\n');
      }
    }
    return text.toString();
  }
}
