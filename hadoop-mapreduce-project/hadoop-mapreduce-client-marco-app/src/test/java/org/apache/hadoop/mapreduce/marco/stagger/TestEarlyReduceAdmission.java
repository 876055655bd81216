/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.stagger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.util.List;
import java.util.function.Function;
import org.junit.Test;

public class TestEarlyReduceAdmission {
  /** A container named "<node>/<n>". */
  private static final Function<String, String> NODE = c -> c.substring(0, c.indexOf('/'));

  @Test
  public void admitsUpToKPerNodeInOfferOrder() {
    EarlyReduceAdmission<String> a =
        EarlyReduceAdmission.decide(
            1, List.of(), List.of("n1/1", "n1/2", "n2/1", "n3/1", "n2/2"), NODE);
    assertEquals(List.of("n1/1", "n2/1", "n3/1"), a.admitted());
    assertEquals(List.of("n1/2", "n2/2"), a.withheld());
  }

  @Test
  public void countsReducesTheJobAlreadyHolds() {
    EarlyReduceAdmission<String> a =
        EarlyReduceAdmission.decide(
            2, List.of("n1", "n1", "n2"), List.of("n1/3", "n2/2", "n2/3", "n4/1"), NODE);
    assertEquals(List.of("n2/2", "n4/1"), a.admitted());
    assertEquals(List.of("n1/3", "n2/3"), a.withheld());
  }

  @Test
  public void nothingOfferedNothingDecided() {
    EarlyReduceAdmission<String> a = EarlyReduceAdmission.decide(1, List.of("n1"), List.of(), NODE);
    assertEquals(List.of(), a.admitted());
    assertEquals(List.of(), a.withheld());
  }

  @Test
  public void limitBelowOneIsRejected() {
    assertThrows(
        IllegalArgumentException.class,
        () -> EarlyReduceAdmission.decide(0, List.of(), List.of("n1/1"), NODE));
  }
}
