# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Time to safepoint in the reduces. Every garbage collection and every other VM operation
stops the JVM's Java threads at a safepoint, and waits until the last of them has reached it: a
thread the scheduler has put aside (MaRCO's partial threads run at nice 19) holds up every
fetcher and the reduce meanwhile. The harness starts every reduce JVM of a run, stock and MaRCO
alike, with HotSpot's safepoint log in its container's log directory (JVM_OPTION), and reads
each one back here. JDK 17 writes one line per safepoint:

  [12.345s] Safepoint "G1CollectForAllocation", Time since last: 123456 ns, Reaching safepoint:
  98765 ns, Cleanup: 1234 ns, At safepoint: 456789 ns, Total: 555555 ns

(on one line). "Reaching safepoint" is the time to safepoint: from the VM asking every thread to
stop to the last one stopping. "At safepoint" is the operation itself (the collection)."""

import re
from pathlib import Path
from statistics import median
from typing import Any

# The file each reduce JVM writes in its container's log directory, and the option that makes it
# write it (YARN puts the directory in for <LOG_DIR>). The uptime decorator keeps the lines short.
SAFEPOINT_LOG = "safepoint.log"
JVM_OPTION = f"-Xlog:safepoint=info:file=<LOG_DIR>/{SAFEPOINT_LOG}:uptime"
REDUCE_JAVA_OPTS = "mapreduce.reduce.java.opts"
# What Hadoop reads for a reduce's options where mapreduce.reduce.java.opts is not set.
CHILD_JAVA_OPTS = "mapred.child.java.opts"

# Any decorators, then the line; "Cleanup" is left out by some JDK versions.
LINE = re.compile(
    r'Safepoint "(?P<operation>[^"]*)", Time since last: \d+ ns, '
    r"Reaching safepoint: (?P<reaching>\d+) ns, (?:Cleanup: \d+ ns, )?"
    r"At safepoint: (?P<at>\d+) ns, Total: \d+ ns"
)


def with_log_option(java_opts: str) -> str:
    """The reduce JVM options with the safepoint log added after the ones given, which stay as
    they are (a heap size among them, say); unchanged where they name the log already."""
    java_opts = java_opts.strip()
    if SAFEPOINT_LOG in java_opts:
        return java_opts
    return f"{java_opts} {JVM_OPTION}".strip()


def parse(text: str) -> dict[str, Any]:
    """One reduce JVM's safepoints: how many, the largest time to safepoint (ms) and the VM
    operation it was for, the total time to safepoint and the total time at safepoint (ms).
    Lines that are not a safepoint's are skipped."""
    count, reaching_max, reaching_total, at_total = 0, 0, 0, 0
    slowest = None
    for m in LINE.finditer(text):
        reaching, at = int(m["reaching"]), int(m["at"])
        count += 1
        reaching_total += reaching
        at_total += at
        if slowest is None or reaching > reaching_max:
            reaching_max, slowest = reaching, m["operation"]
    return {
        "count": count,
        "ttsp_max_ms": reaching_max / 1e6,
        "ttsp_max_operation": slowest,
        "ttsp_total_ms": reaching_total / 1e6,
        "at_safepoint_total_ms": at_total / 1e6,
    }


def read_run(log_dir: Path) -> dict[str, Any] | None:
    """The run's safepoints from <log_dir>/<job>/<attempt>.log, the copies of its reduces' logs:
    each reduce's (`by_reduce`, by attempt), and over its reduces the largest time to safepoint
    and, per reduce on average, the safepoints, the time to safepoint and the time at safepoint.
    None where there is no log (a cluster whose container logs the harness cannot read)."""
    by_reduce = {
        p.stem: parse(p.read_text(errors="replace")) for p in sorted(log_dir.rglob("*.log"))
    }
    if not by_reduce:
        return None
    reduces = list(by_reduce.values())

    def per_reduce(key: str) -> float:
        return sum(r[key] for r in reduces) / len(reduces)

    return {
        "reduces": len(reduces),
        "ttsp_max_ms": max(r["ttsp_max_ms"] for r in reduces),
        "count_per_reduce": per_reduce("count"),
        "ttsp_per_reduce_ms": per_reduce("ttsp_total_ms"),
        "at_safepoint_per_reduce_ms": per_reduce("at_safepoint_total_ms"),
        "by_reduce": by_reduce,
    }


# A run's figures that the summaries and the report give (read_run).
SUMMARY_KEYS = (
    "ttsp_max_ms",
    "count_per_reduce",
    "ttsp_per_reduce_ms",
    "at_safepoint_per_reduce_ms",
)


def summarize(runs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The median over runs of each run's figures (read_run); None where a run has none (run
    before the harness read safepoint logs, or on a cluster whose logs it cannot read)."""
    measured = [r.get("safepoints") for r in runs]
    if not measured or None in measured:
        return None
    return {
        "runs": len(measured),
        **{k: median(m[k] for m in measured) for k in SUMMARY_KEYS},
    }
