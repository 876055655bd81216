/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.gen;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * gen-inverted-index: the inverted-index input {@code word:file <TAB> n}, one line per distinct
 * word of a document, derived from gen-text's documents (same vocabulary, Zipf law, hosts and
 * options); the file is the document name {@code host-NNNNN/doc-<task>-<n>}.
 */
public class InvertedIndexModel implements DataModel {
  @Override
  public void generate(TaskSpec task, RecordSink sink) throws IOException {
    TextModel.Documents documents = new TextModel.Documents(task);
    StringBuilder text = new StringBuilder();
    while (!sink.full()) {
      String name = documents.nextName();
      text.setLength(0);
      for (int lines = documents.nextLineCount(); lines > 0; lines--) {
        text.append(' ');
        documents.appendLine(text);
      }
      Map<String, Integer> counts = new TreeMap<>();
      for (String word : text.toString().trim().split(" ")) {
        counts.merge(word, 1, Integer::sum);
      }
      for (Map.Entry<String, Integer> e : counts.entrySet()) {
        if (sink.full()) {
          return;
        }
        sink.emitLine(e.getKey() + ":" + name + "\t" + e.getValue());
      }
    }
  }

  public static void main(String[] args) throws Exception {
    GeneratorTool.main("gen-inverted-index", InvertedIndexModel.class, args);
  }
}
