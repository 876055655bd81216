/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.gen;

import java.io.IOException;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;

/**
 * gen-text: a Project Gutenberg stand-in. Documents of {@code 1 + Geometric} lines (mean
 * {@value #MEAN_LINES}) of 5 to 15 words drawn from the English {@link Vocabulary} with Zipf
 * exponent {@value #EXPONENT} (default 1.0); each document belongs to one of {@value #HOSTS}
 * hosts (default 1000), host sizes Zipf with exponent 1. Line format:
 * {@code host-00042/doc-<task>-<n> <TAB> word word ...}.
 */
public class TextModel implements DataModel {
  public static final String HOSTS = "marco.gen.text.hosts";
  public static final int DEFAULT_HOSTS = 1000;
  public static final String EXPONENT = "marco.gen.text.zipf.exponent";
  public static final double DEFAULT_EXPONENT = 1.0;
  static final int MEAN_LINES = 20;
  static final int MIN_WORDS = 5;
  static final int MAX_WORDS = 15;

  /** The documents of one task, drawn one at a time. */
  static final class Documents {
    private final SplittableRandom random;
    private final Vocabulary vocabulary = Vocabulary.get();
    private final ZipfSampler words;
    private final ZipfSampler hosts;
    private final int task;
    private long documents;

    Documents(TaskSpec spec) {
      Configuration conf = spec.conf();
      this.random = spec.random();
      this.words = new ZipfSampler(vocabulary.size(), conf.getDouble(EXPONENT, DEFAULT_EXPONENT));
      int hostCount = conf.getInt(HOSTS, DEFAULT_HOSTS);
      if (hostCount < 1) {
        throw new IllegalArgumentException(HOSTS + " must be at least 1, got " + hostCount);
      }
      this.hosts = new ZipfSampler(hostCount, 1.0);
      this.task = spec.taskIndex();
    }

    /** The next document's name, {@code host-NNNNN/doc-<task>-<n>}. */
    String nextName() {
      return String.format("host-%05d/doc-%d-%d", hosts.sample(random) - 1, task, documents++);
    }

    /** How many lines the next document has. */
    int nextLineCount() {
      double u = 1.0 - random.nextDouble();
      return 1 + (int) (Math.log(u) / Math.log(1.0 - 1.0 / MEAN_LINES));
    }

    /** Appends one line's words, space-separated. */
    void appendLine(StringBuilder line) {
      int count = random.nextInt(MIN_WORDS, MAX_WORDS + 1);
      for (int i = 0; i < count; i++) {
        if (i > 0) {
          line.append(' ');
        }
        line.append(vocabulary.word(words.sample(random)));
      }
    }
  }

  @Override
  public void generate(TaskSpec task, RecordSink sink) throws IOException {
    Documents documents = new Documents(task);
    StringBuilder line = new StringBuilder();
    while (!sink.full()) {
      String name = documents.nextName();
      for (int lines = documents.nextLineCount(); lines > 0 && !sink.full(); lines--) {
        line.setLength(0);
        line.append(name).append('\t');
        documents.appendLine(line);
        sink.emitLine(line);
      }
    }
  }

  public static void main(String[] args) throws Exception {
    GeneratorTool.main("gen-text", TextModel.class, args);
  }
}
