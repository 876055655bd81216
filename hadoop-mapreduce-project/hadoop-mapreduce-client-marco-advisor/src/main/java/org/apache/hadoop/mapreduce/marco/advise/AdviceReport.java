/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.advise;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.classification.InterfaceAudience;

/**
 * The advisor's output: per job its breakdown, prediction, partial reducer and recommendation,
 * then the jobs ranked by predicted time saved (jobs the model does not apply to last); as text
 * for a reader or as JSON for scripts (docs/advisor.md describes both).
 */
@InterfaceAudience.Private
final class AdviceReport {
  private final List<Advice> ranked;
  private final List<AdviseException> errors;

  AdviceReport(List<Advice> advice, List<AdviseException> errors) {
    this.ranked = new ArrayList<>(advice);
    this.ranked.sort(
        Comparator.comparingDouble(AdviceReport::saved)
            .reversed()
            .thenComparing(a -> a.job().id()));
    this.errors = errors;
  }

  List<Advice> ranked() {
    return ranked;
  }

  /** Seconds saved; -1 for a job the model does not apply to, so it ranks last. */
  private static double saved(Advice a) {
    return a.prediction() == null ? -1 : a.prediction().savingSeconds();
  }

  void printText(PrintStream out) {
    for (Advice a : ranked) {
      JobRun j = a.job();
      out.printf(
          "%s  \"%s\"  user %s, queue %s, %s, submitted %s%n",
          j.id(), j.name(), j.user(), j.queue(), j.state(), Instant.ofEpochMilli(j.submit()));
      line(out, "from", j.source());
      line(
          out,
          "attempts",
          String.format(
              "%d maps, %d reduces succeeded; %d failed, %d killed (retried or speculative:"
                  + " the successful attempt counts)",
              j.maps().size(), j.reduces().size(), j.failedAttempts(), j.killedAttempts()));
      line(
          out,
          "MaRCO counters",
          j.ranWithMarco()
              ? "present: this run used MaRCO, so its breakdown is MaRCO's, not stock's"
              : "none (a stock run, as the model expects)");
      Breakdown b = a.breakdown();
      if (b != null) {
        line(
            out,
            "breakdown (s)",
            String.format(
                "startup %.1f | map %.1f | exposed shuffle %.1f | final merge %.1f | final reduce"
                    + " %.1f | output write %.1f | cleanup %.1f | job %.1f",
                b.startup(),
                b.map(),
                b.exposedShuffle(),
                b.finalMerge(),
                b.finalReduce(),
                b.outputWrite(),
                b.cleanup(),
                b.wall()));
        line(
            out,
            "CPU (estimated)",
            Double.isNaN(b.idleCpu())
                ? "unknown (the critical reduce has no CPU_MILLISECONDS): no CPU term"
                : String.format(
                    "%.1f core-s idle in the exposed shuffle for %.1f core-s of final work",
                    b.idleCpu(), b.finalCpu()));
        line(
            out,
            "predicted",
            String.format(
                "%s, %.1f s saved, %s; with partial sort alone %s",
                speedup(a.prediction()),
                a.prediction().savingSeconds(),
                a.prediction().bound().label(),
                speedup(a.sortOnly())));
      }
      line(out, "partial reducer", a.partialReducer().describe());
      line(out, "recommendation", a.recommendation());
      out.println();
    }
    out.println("Jobs ranked by predicted time saved:");
    out.printf(
        "%4s  %-24s %8s %8s  %-17s %-30s %s%n",
        "rank", "job", "saved s", "speedup", "bound", "partial reducer", "name");
    int rank = 0;
    for (Advice a : ranked) {
      SpeedupModel.Prediction p = a.prediction();
      out.printf(
          "%4d  %-24s %8s %8s  %-17s %-30s %s%n",
          ++rank,
          a.job().id(),
          p == null ? "-" : String.format("%.1f", p.savingSeconds()),
          p == null ? "-" : speedup(p),
          p == null ? "not applicable" : p.bound().label(),
          a.partialReducer().kind().name().toLowerCase().replace('_', ' '),
          a.job().name());
    }
  }

  private static void line(PrintStream out, String label, String text) {
    out.printf("  %-17s %s%n", label + ":", text);
  }

  private static String speedup(SpeedupModel.Prediction p) {
    return Double.isNaN(p.speedup()) ? "-" : String.format("%.2fx", p.speedup());
  }

  void printJson(PrintStream out) throws java.io.IOException {
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    ObjectNode root = mapper.createObjectNode();
    ArrayNode jobs = root.putArray("jobs");
    for (Advice a : ranked) {
      jobs.add(job(mapper, a));
    }
    ArrayNode errs = root.putArray("errors");
    for (AdviseException e : errors) {
      errs.addObject().put("source", e.source()).put("problem", e.problem());
    }
    out.println(mapper.writeValueAsString(root));
  }

  private static ObjectNode job(ObjectMapper mapper, Advice a) {
    JobRun j = a.job();
    ObjectNode n = mapper.createObjectNode();
    n.put("id", j.id())
        .put("name", j.name())
        .put("user", j.user())
        .put("queue", j.queue())
        .put("state", j.state())
        .put("submit_ms", j.submit())
        .put("finish_ms", j.finish())
        .put("source", j.source())
        .put("uberized", j.uberized())
        .put("maps", j.maps().size())
        .put("reduces", j.reduces().size())
        .put("failed_attempts", j.failedAttempts())
        .put("killed_attempts", j.killedAttempts())
        .put("marco_counters", j.ranWithMarco())
        .put("not_applicable", a.notApplicable());
    Breakdown b = a.breakdown();
    if (b != null) {
      ObjectNode phases = n.putObject("breakdown_s");
      phases
          .put("startup", b.startup())
          .put("map", b.map())
          .put("exposed_shuffle", b.exposedShuffle())
          .put("final_merge", b.finalMerge())
          .put("final_reduce", b.finalReduce())
          .put("output_write", b.outputWrite())
          .put("cleanup", b.cleanup())
          .put("job", b.wall());
      number(n, "idle_cpu_core_s", b.idleCpu());
      number(n, "final_cpu_core_s", b.finalCpu());
      prediction(n.putObject("predicted"), a.prediction());
      prediction(n.putObject("sort_only"), a.sortOnly());
    }
    n.putObject("partial_reducer")
        .put("kind", a.partialReducer().kind().name().toLowerCase())
        .put("class", a.partialReducer().className());
    if (j.conf() != null) {
      ObjectNode conf = n.putObject("conf");
      j.conf().forEach(conf::put);
    }
    n.put("recommendation", a.recommendation());
    return n;
  }

  private static void prediction(ObjectNode n, SpeedupModel.Prediction p) {
    n.put("saving_s", p.savingSeconds());
    number(n, "speedup", p.speedup());
    n.put("bound", p.bound().label());
  }

  /** NaN (unknown) as JSON null. */
  private static void number(ObjectNode n, String key, double value) {
    if (Double.isNaN(value)) {
      n.putNull(key);
    } else {
      n.put(key, value);
    }
  }
}
