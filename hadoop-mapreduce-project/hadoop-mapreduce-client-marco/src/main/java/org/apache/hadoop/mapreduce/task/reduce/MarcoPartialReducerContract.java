/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.hadoop.mapred.JobConf;

/**
 * Checks, for one merge, that a partial reducer emits only what keeps its run a sorted run of
 * the groups it was called with: each key in the group being reduced (the combiner grouping
 * comparator), and each key no smaller than the one before (the sort comparator). A run that
 * breaks either would make the final merge split a group or repeat an output key, and the job
 * would succeed with output that differs from stock Hadoop's.
 *
 * <p>Keys are compared serialized, with the job's raw comparators, so that any key type and any
 * comparator (also one that only compares bytes) is checked the way the merge will order it.
 * The group's key is serialized when the group starts ({@link #startGroup}), before the reducer
 * sees it: a reducer may rewrite the key object it was handed ({@code key.set(...)}, then
 * {@code write(key, ...)}, a common Hadoop idiom), and only the bytes the merged input gave
 * say which group it is reducing. An emitted key is serialized when it is written, so a key
 * object the reducer changes after writing it changes nothing. The first violation is kept: a
 * reducer that catches the exception still fails its merge.
 */
final class MarcoPartialReducerContract<K> {
  static final String KEY_ORDER_RULE = "emitted keys must be in sort order";
  static final String KEY_GROUP_RULE =
      "keys must be emitted only under the key the reducer was called with";

  private final String reducerName;
  private final RawComparator<K> sortComparator;
  private final RawComparator<K> groupComparator;
  private final Serializer<K> serializer;
  private DataOutputBuffer previous = new DataOutputBuffer();
  private DataOutputBuffer emitted = new DataOutputBuffer();
  private final DataOutputBuffer group = new DataOutputBuffer();
  private boolean inGroup;
  private boolean first = true;
  private MarcoContractViolationException violation;

  @SuppressWarnings("unchecked")
  MarcoPartialReducerContract(JobConf job, String reducerName) throws IOException {
    this.reducerName = reducerName;
    this.sortComparator = (RawComparator<K>) job.getOutputKeyComparator();
    this.groupComparator = (RawComparator<K>) job.getCombinerKeyGroupingComparator();
    this.serializer =
        new SerializationFactory(job).getSerializer((Class<K>) job.getMapOutputKeyClass());
  }

  /**
   * Records the key of the group the reducer is about to be called with; called by the runner
   * as the group starts, while {@code groupKey} still holds what the merged input gave.
   */
  void startGroup(K groupKey) throws IOException {
    serialize(groupKey, group);
    inGroup = true;
  }

  /**
   * @param key the key being emitted
   * @throws MarcoContractViolationException naming the reducer and the rule it broke; also for a
   *     key emitted before the first group started, which is under no key at all
   */
  void check(K key) throws IOException {
    if (violation != null) {
      throw violation;
    }
    if (!inGroup) {
      throw violated(KEY_GROUP_RULE);
    }
    serialize(key, emitted);
    if (compare(groupComparator, emitted, group) != 0) {
      throw violated(KEY_GROUP_RULE);
    }
    if (!first && compare(sortComparator, previous, emitted) > 0) {
      throw violated(KEY_ORDER_RULE);
    }
    first = false;
    DataOutputBuffer swap = previous;
    previous = emitted;
    emitted = swap;
  }

  /** The violation seen, if any, also one the reducer caught and did not pass on. */
  MarcoContractViolationException violation() {
    return violation;
  }

  private MarcoContractViolationException violated(String rule) {
    violation =
        new MarcoContractViolationException(
            "partial reducer " + reducerName + " broke its contract: " + rule);
    return violation;
  }

  private void serialize(K key, DataOutputBuffer into) throws IOException {
    into.reset();
    serializer.open(into);
    serializer.serialize(key);
  }

  private static <K> int compare(
      RawComparator<K> comparator, DataOutputBuffer a, DataOutputBuffer b) {
    return comparator.compare(a.getData(), 0, a.getLength(), b.getData(), 0, b.getLength());
  }
}
