/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.jobs;

import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.marco.benchmarks.BenchmarkJob;
import org.apache.hadoop.marco.benchmarks.io.PostingsWritable;
import org.apache.hadoop.util.ToolRunner;

/**
 * inverted-index (shuffle-heavy): input lines {@code word:file <TAB> n}; the map emits
 * (word, {n:file}); no combiner (the counts are already per file); the partial reducer builds
 * partial posting lists; the final reducer merges them into one list per word, by decreasing n
 * (ties by file name): {@code word <TAB> n1:file1,n2:file2,...}.
 */
public class InvertedIndex extends BenchmarkJob {

  /** Parses {@code word:file <TAB> n} and emits (word, {n:file}). */
  public static class PostingMapper extends Mapper<Object, Text, Text, PostingsWritable> {
    private final Text word = new Text();
    private final PostingsWritable single = new PostingsWritable();

    @Override
    protected void map(Object key, Text value, Context context)
        throws IOException, InterruptedException {
      String line = value.toString();
      int colon = line.indexOf(':');
      int tab = line.lastIndexOf('\t');
      if (colon <= 0 || tab < colon) {
        throw new IllegalArgumentException(
            "Not an inverted-index line (expected word:file<TAB>n,"
                + " as gen-inverted-index writes): '"
                + line
                + "'");
      }
      long count;
      try {
        count = Long.parseLong(line.substring(tab + 1).trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "The count after the tab is not a number in '" + line + "'; expected word:file<TAB>n",
            e);
      }
      word.set(line.substring(0, colon));
      single.clear();
      single.add(count, line.substring(colon + 1, tab));
      context.write(word, single);
    }
  }

  /**
   * Partial reducer (partial posting lists) and final reducer (the merged list): both merge and
   * sort, the final one's output is printed.
   */
  public static class PostingListBuilder
      extends Reducer<Text, PostingsWritable, Text, PostingsWritable> {
    @Override
    protected void reduce(Text word, Iterable<PostingsWritable> values, Context context)
        throws IOException, InterruptedException {
      PostingsWritable merged = new PostingsWritable();
      for (PostingsWritable v : values) {
        merged.addAll(v);
      }
      merged.sort();
      context.write(word, merged);
    }
  }

  /**
   * {@link PostingListBuilder} with the paper's cost ({@link PaperReducers}): the postings as a
   * list string built by linear-scan de-duplication and concatenation, then sorted.
   */
  public static class PaperPostingListBuilder
      extends Reducer<Text, PostingsWritable, Text, PostingsWritable> {
    @Override
    protected void reduce(Text word, Iterable<PostingsWritable> values, Context context)
        throws IOException, InterruptedException {
      PaperReducers.QuadraticList list = new PaperReducers.QuadraticList();
      for (PostingsWritable v : values) {
        for (PostingsWritable.Posting p : v.postings()) {
          list.add(p.count() + ":" + p.file());
        }
      }
      PostingsWritable merged = new PostingsWritable();
      for (String posting : list.elements()) {
        int colon = posting.indexOf(':');
        merged.add(Long.parseLong(posting.substring(0, colon)), posting.substring(colon + 1));
      }
      merged.sort();
      context.write(word, merged);
    }
  }

  @Override
  public String programName() {
    return "inverted-index";
  }

  @Override
  protected void configure(Job job, String[] extraArgs) {
    job.setMapperClass(PostingMapper.class);
    PaperReducers.choose(job, PostingListBuilder.class, PaperPostingListBuilder.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(PostingsWritable.class);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new InvertedIndex(), args));
  }
}
