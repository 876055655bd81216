/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.io;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;

/**
 * k-means' map and partial-reduce value: a partial similarity sum and count of a cluster, with
 * the member movies carried along for the next round. Similarities are fixed-point integers
 * ({@link #toFixed}) so sums are exact and do not depend on the order partial sums are added in.
 */
public class ClusterMembersWritable implements Writable {
  /** Fixed-point scale of similarities: 2^30, a resolution of about 1e-9. */
  public static final double SCALE = 1 << 30;

  /** One movie of the cluster: its id, similarity to the centroid and its ratings line. */
  public record Member(long movieId, long similarity, byte[] line) {}

  private long similaritySum;
  private long count;
  private final List<Member> members = new ArrayList<>();
  private long memberBytes;

  public static long toFixed(double similarity) {
    return Math.round(similarity * SCALE);
  }

  public void clear() {
    similaritySum = 0;
    count = 0;
    members.clear();
    memberBytes = 0;
  }

  /** Adds one movie (counted in the sums). */
  public void addMember(long movieId, long similarity, byte[] line) {
    similaritySum += similarity;
    count++;
    members.add(new Member(movieId, similarity, line));
    memberBytes += line.length;
  }

  /** Adds another partial value's sums and members. */
  public void addAll(ClusterMembersWritable other) {
    similaritySum += other.similaritySum;
    count += other.count;
    members.addAll(other.members);
    memberBytes += other.memberBytes;
  }

  public long similaritySum() {
    return similaritySum;
  }

  public long count() {
    return count;
  }

  public List<Member> members() {
    return members;
  }

  /** Bytes of movie data held, so a partial reducer can bound its values. */
  public long memberBytes() {
    return memberBytes;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    WritableUtils.writeVLong(out, similaritySum);
    WritableUtils.writeVLong(out, count);
    WritableUtils.writeVInt(out, members.size());
    for (Member m : members) {
      WritableUtils.writeVLong(out, m.movieId());
      WritableUtils.writeVLong(out, m.similarity());
      WritableUtils.writeVInt(out, m.line().length);
      out.write(m.line());
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    clear();
    similaritySum = WritableUtils.readVLong(in);
    count = WritableUtils.readVLong(in);
    int n = WritableUtils.readVInt(in);
    for (int i = 0; i < n; i++) {
      long movieId = WritableUtils.readVLong(in);
      long similarity = WritableUtils.readVLong(in);
      byte[] line = new byte[WritableUtils.readVInt(in)];
      in.readFully(line);
      members.add(new Member(movieId, similarity, line));
      memberBytes += line.length;
    }
  }
}
