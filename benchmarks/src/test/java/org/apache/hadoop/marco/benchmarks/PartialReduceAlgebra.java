package org.apache.hadoop.marco.benchmarks;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.apache.hadoop.io.Writable;
import org.apache.hadoop.marco.benchmarks.JobFunctions.Record;

/**
 * The property MaRCO relies on, checked for any job: for random splits of the (combined) map
 * outputs into groups, reduce(partial(A) ++ partial(B) ++ ...) == reduce(A ++ B ++ ...), also
 * when partial outputs are partially reduced again (a later invocation re-reading earlier runs),
 * and whatever order the values of a key arrive in.
 */
final class PartialReduceAlgebra {
  private PartialReduceAlgebra() {
  }

  /**
   * Maps {@code input} as {@code maps} map tasks (each combined when the job has a combiner),
   * checks the property over {@code trials} random splits and returns the reference output.
   */
  static List<String> check(JobFunctions job, List<? extends Writable[]> input, int maps,
      int trials, long seed) throws Exception {
    Random random = new Random(seed);
    List<Record> mapOutputs = new ArrayList<>();
    int perMap = (input.size() + maps - 1) / maps;
    for (int start = 0; start < input.size(); start += perMap) {
      List<Record> out = job.map(input.subList(start, Math.min(input.size(), start + perMap)));
      mapOutputs.addAll(job.hasCombiner() ? job.combine(out, random) : out);
    }
    List<String> reference = job.reduce(mapOutputs, random);
    assertFalse("the test input must produce output", reference.isEmpty());
    for (int trial = 0; trial < trials; trial++) {
      int groups = 2 + random.nextInt(3);
      List<List<Record>> split = new ArrayList<>();
      for (int g = 0; g < groups; g++) {
        split.add(new ArrayList<>());
      }
      for (Record r : mapOutputs) {
        split.get(random.nextInt(groups)).add(r);
      }
      List<List<Record>> partials = new ArrayList<>();
      for (List<Record> group : split) {
        partials.add(job.partialReduce(group, random));
      }
      if (random.nextBoolean()) {
        List<Record> twoRuns = new ArrayList<>(partials.remove(0));
        twoRuns.addAll(partials.remove(0));
        partials.add(job.partialReduce(twoRuns, random));
      }
      List<Record> finalInput = new ArrayList<>();
      partials.forEach(finalInput::addAll);
      assertEquals("reduce(partials of " + groups + " random groups), trial " + trial,
          reference, job.reduce(finalInput, random));
    }
    return reference;
  }
}
