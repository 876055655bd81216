/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.engine;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;

/**
 * A map output of Hadoop's merge manager, passed through unchanged, whose commit is recorded in
 * {@link StockArrivals} once Hadoop's commit returns: the moment the fetcher hands the whole map
 * output to the merge manager, where MaRCO's timeline records its arrivals.
 */
final class ArrivalRecordingMapOutput<K, V> extends MapOutput<K, V> {
  private final MapOutput<K, V> output;
  private final StockArrivals arrivals;

  ArrivalRecordingMapOutput(MapOutput<K, V> output, StockArrivals arrivals) {
    super(output.getMapId(), output.getSize(), output.isPrimaryMapOutput());
    this.output = output;
    this.arrivals = arrivals;
  }

  @Override
  public void shuffle(
      MapHost host,
      InputStream input,
      long compressedLength,
      long decompressedLength,
      ShuffleClientMetrics metrics,
      Reporter reporter)
      throws IOException {
    output.shuffle(host, input, compressedLength, decompressedLength, metrics, reporter);
  }

  @Override
  public void commit() throws IOException {
    output.commit();
    arrivals.arrived(getMapId(), getSize(), getDescription().toLowerCase(Locale.ROOT));
  }

  @Override
  public void abort() {
    output.abort();
  }

  @Override
  public String getDescription() {
    return output.getDescription();
  }
}
