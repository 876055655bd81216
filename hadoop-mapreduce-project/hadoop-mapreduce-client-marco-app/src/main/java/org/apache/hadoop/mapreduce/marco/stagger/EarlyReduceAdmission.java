/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.stagger;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.hadoop.classification.InterfaceAudience;

/**
 * Splits newly allocated reduce containers into those a job may use while its maps run and those
 * it must hand back: a node may hold at most {@code k} reduce containers, counting the ones the
 * job already holds there. Containers are considered in the order the RM returned them.
 *
 * @param <C> container type
 */
@InterfaceAudience.Private
public final class EarlyReduceAdmission<C> {
  private final List<C> admitted;
  private final List<C> withheld;

  private EarlyReduceAdmission(List<C> admitted, List<C> withheld) {
    this.admitted = Collections.unmodifiableList(admitted);
    this.withheld = Collections.unmodifiableList(withheld);
  }

  /**
   * @param perNode k, at least 1
   * @param heldNodes the node of every reduce container the job holds now (one entry each)
   * @param offered newly allocated reduce containers
   * @param nodeOf the node a container is on
   * @param <C> container type
   * @param <N> node identity (equals/hashCode)
   */
  public static <C, N> EarlyReduceAdmission<C> decide(
      int perNode, Iterable<N> heldNodes, List<C> offered, Function<C, N> nodeOf) {
    if (perNode < 1) {
      throw new IllegalArgumentException("reduces per node must be at least 1, got " + perNode);
    }
    Map<N, Integer> held = new HashMap<>();
    for (N node : heldNodes) {
      held.merge(node, 1, Integer::sum);
    }
    List<C> admitted = new ArrayList<>();
    List<C> withheld = new ArrayList<>();
    for (C container : offered) {
      N node = nodeOf.apply(container);
      int onNode = held.getOrDefault(node, 0);
      if (onNode < perNode) {
        held.put(node, onNode + 1);
        admitted.add(container);
      } else {
        withheld.add(container);
      }
    }
    return new EarlyReduceAdmission<>(admitted, withheld);
  }

  public List<C> admitted() {
    return admitted;
  }

  public List<C> withheld() {
    return withheld;
  }
}
