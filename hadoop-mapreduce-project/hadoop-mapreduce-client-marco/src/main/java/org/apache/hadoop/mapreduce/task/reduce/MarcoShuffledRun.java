/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.Merger.Segment;

/**
 * One sorted run held by the MaRCO merge manager: a fetched map output (in memory or on local
 * disk) or the output of a partial invocation. Each call to {@link #segment()} opens a fresh,
 * preserved segment, so a failed merge leaves the run intact for the final merge.
 */
abstract class MarcoShuffledRun<K, V> {
  /** The raw length of an IFile without records: the end marker, as key and as value length. */
  private static final long EMPTY_RAW_LENGTH = 2L * WritableUtils.getVIntSize(IFile.EOF_MARKER);

  private final String name;
  private final int mapOutputs;
  private final boolean fetched;

  MarcoShuffledRun(String name, int mapOutputs, boolean fetched) {
    this.name = name;
    this.mapOutputs = mapOutputs;
    this.fetched = fetched;
  }

  /** True for a map output as fetched; false for a run MaRCO wrote (spill or partial output). */
  boolean fetched() {
    return fetched;
  }

  /** What the run holds, for logs and the timeline (a map attempt id or a partial run name). */
  String name() {
    return name;
  }

  /** How many map outputs this run stands for (a map output: 1; a partial run: its inputs). */
  int mapOutputs() {
    return mapOutputs;
  }

  abstract boolean inMemory();

  /** Bytes of the run as its segment reads them (uncompressed IFile bytes). */
  abstract long rawLength();

  /** True for a run whose IFile holds no record (a map that emitted nothing for this reduce). */
  boolean holdsNoRecords() {
    return rawLength() == EMPTY_RAW_LENGTH;
  }

  /** A segment that leaves the run intact, for merges that may fail and be retried later. */
  abstract Segment<K, V> segment() throws IOException;

  /**
   * A segment for the final merge, which takes the run over from its owner. It removes what it
   * has read where no other merge still reads the run; else {@link #keptByFinalMerge} is true,
   * and the final merge releases the run once the reducer is done.
   */
  abstract Segment<K, V> finalSegment() throws IOException;

  /** True when the final merge's segment left the run for a {@link #release} after the reduce. */
  boolean keptByFinalMerge() {
    return false;
  }

  /**
   * The owner's release: frees what the run holds (memory or file) once its records are merged
   * elsewhere. A file that a merge still reads goes when that merge ends its read.
   */
  abstract void release() throws IOException;

  /**
   * A merge is about to read the run (called before it is handed to that merge's thread): the
   * run's file stays until {@link #endRead}, whoever releases it meanwhile.
   */
  void beginRead() {}

  /** The merge that called {@link #beginRead} has closed the run; lock-free, on any thread. */
  void endRead() throws IOException {}

  @Override
  public String toString() {
    return name + (inMemory() ? " (memory, " : " (disk, ") + rawLength() + " bytes)";
  }

  /** The map outputs {@code runs} stand for. */
  static <K, V> int mapOutputsOf(List<MarcoShuffledRun<K, V>> runs) {
    int n = 0;
    for (MarcoShuffledRun<K, V> run : runs) {
      n += run.mapOutputs();
    }
    return n;
  }

  /** The raw bytes of {@code runs}. */
  static <K, V> long bytesOf(List<MarcoShuffledRun<K, V>> runs) {
    long n = 0;
    for (MarcoShuffledRun<K, V> run : runs) {
      n += run.rawLength();
    }
    return n;
  }

  /** The raw bytes of those of {@code runs} held in memory. */
  static <K, V> long memoryBytesOf(List<MarcoShuffledRun<K, V>> runs) {
    long n = 0;
    for (MarcoShuffledRun<K, V> run : runs) {
      if (run.inMemory()) {
        n += run.rawLength();
      }
    }
    return n;
  }
}
