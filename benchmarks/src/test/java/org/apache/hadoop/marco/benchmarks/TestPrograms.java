/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.Test;

/** programs.tsv, the one list of the jar's programs, is whole and consistent. */
public class TestPrograms {
  private final List<Programs.Program> programs = Programs.all();

  @Test
  public void everyProgramHasAUniqueNameAndAMainForHadoopsProgramDriver() throws Exception {
    Set<String> names = new HashSet<>();
    for (Programs.Program p : programs) {
      assertTrue("duplicate name " + p.name(), names.add(p.name()));
      Method main = Class.forName(p.className()).getMethod("main", String[].class);
      assertTrue(p.name(), Modifier.isStatic(main.getModifiers()));
      assertTrue(
          p.name() + " has kind " + p.kind(),
          Set.of("heavy", "light", "extra", "alias", "generator", "tool").contains(p.kind()));
    }
  }

  @Test
  public void theElevenBenchmarksAndTheExtraOnesEachReadADataSetAGeneratorMakes() {
    List<Programs.Program> benchmarks =
        programs.stream().filter(Programs.Program::isBenchmark).toList();
    assertEquals(11, benchmarks.stream().filter(p -> !"extra".equals(p.kind())).count());
    assertEquals(6, benchmarks.stream().filter(p -> "heavy".equals(p.kind())).count());
    for (Programs.Program p : benchmarks) {
      assertTrue(p.summary(programs), p.summary(programs).contains("(input: gen-"));
    }
    Programs.Program sort = benchmarks.get(0);
    assertEquals(
        "Shuffle-heavy: sorts 100-byte records on 10-byte keys (input: gen-binary).",
        sort.summary(programs));
    Programs.Program parametric =
        benchmarks.stream().filter(p -> "parametric".equals(p.name())).findFirst().orElseThrow();
    assertTrue(
        parametric.summary(programs),
        parametric.summary(programs).startsWith("Shuffle-heavy, beyond the paper's jobs: "));
  }
}
