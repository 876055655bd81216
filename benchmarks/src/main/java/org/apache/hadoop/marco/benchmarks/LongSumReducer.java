package org.apache.hadoop.marco.benchmarks;

import java.io.IOException;

import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * Sums the counts of one key. Summation is commutative and associative, so the same class serves
 * as combiner, partial reducer and final reducer (word-count and both histograms).
 */
public class LongSumReducer<K> extends Reducer<K, LongWritable, K, LongWritable> {
  private final LongWritable sum = new LongWritable();

  @Override
  protected void reduce(K key, Iterable<LongWritable> values, Context context)
      throws IOException, InterruptedException {
    long total = 0;
    for (LongWritable v : values) {
      total += v.get();
    }
    sum.set(total);
    context.write(key, sum);
  }
}
