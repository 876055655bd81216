/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.gen;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The English vocabulary of the text generators: every all-lowercase word of Debian's
 * {@code wamerican} list (public domain), shipped in the jar as {@code vocabulary.txt}. Words are
 * ranked for the Zipf draw shortest first (frequent words are short, Zipf's law of
 * abbreviation), ties in a fixed pseudo-random order, so rank 1 is a one-letter word.
 */
public final class Vocabulary {
  private static final String RESOURCE = "vocabulary.txt";
  private static volatile Vocabulary instance;

  private final String[] byRank;

  private Vocabulary(List<String> words) {
    words.sort(
        Comparator.comparingInt(String::length)
            .thenComparingLong(Vocabulary::scrambled)
            .thenComparing(Comparator.naturalOrder()));
    byRank = words.toArray(new String[0]);
  }

  /** The shared vocabulary, loaded from the jar once per JVM. */
  public static Vocabulary get() {
    if (instance == null) {
      synchronized (Vocabulary.class) {
        if (instance == null) {
          instance = new Vocabulary(load());
        }
      }
    }
    return instance;
  }

  public int size() {
    return byRank.length;
  }

  /** The word of a rank in 1..size(). */
  public String word(long rank) {
    return byRank[(int) rank - 1];
  }

  private static long scrambled(String word) {
    long h = word.hashCode() * 0x9E3779B97F4A7C15L;
    return h ^ (h >>> 29);
  }

  private static List<String> load() {
    InputStream in = Vocabulary.class.getResourceAsStream(RESOURCE);
    if (in == null) {
      throw new IllegalStateException(
          "The vocabulary resource "
              + RESOURCE
              + " is missing from the benchmarks jar; rebuild hadoop-marco-benchmarks.");
    }
    List<String> words = new ArrayList<>();
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (!line.isEmpty()) {
          words.add(line);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the vocabulary resource " + RESOURCE, e);
    }
    return words;
  }
}
