#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Counts the MaRCO partial invocations that Hadoop's tests ran, per test class.

Every reduce of the hadoop-tests stage writes its MaRCO timeline to
TIMELINE_DIR/<job id>/<attempt id>.jsonl (mapreduce.marco.timeline.dir in the module's
mapred-site.xml). A job belongs to the test class whose output names its id (surefire's
TEST-<class>.xml and <class>-output.txt). Prints a line per class: its surefire result and
duration, and the partial work of its jobs' reduces.

Exits 1 when no partial invocation ran at all (such a run shows only that Hadoop's tests pass
with the plugin, not with its partial work), or when a partial invocation or re-merge failed for
another reason than a partial reducer that broke its contract: the engine hides such a failure
from the job's output (the inputs go to the final merge as they are), only the timeline shows it.
"""

import argparse
import json
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from pathlib import Path

JOB_ID = re.compile(r"\bjob_(?:local)?\d+_\d+\b")
NO_CLASS = "(no test class names the job)"
CONTRACT_VIOLATION = "MarcoContractViolationException"
# Columns of the table: what each counts is in count_events.
COLUMNS = ["reduces", "invoc", "reducing", "sortonly", "remerges", "spills", "contract", "failed"]
LEGEND = (
    "invoc: partial invocations that committed (reducing: with the job's combiner as partial"
    " reducer; sortonly: partial sort); remerges: re-merges of partial runs; spills: memory"
    " spills; contract: invocations whose partial reducer broke its contract; failed: other"
    " failed invocations and re-merges"
)


def short(test_class: str) -> str:
    return test_class.removeprefix("org.apache.hadoop.")


def job_classes(reports: Path) -> dict[str, str]:
    """{job id: test class} from the job ids that each class's output names."""
    owner = {}
    outputs = [(f.name[len("TEST-") : -len(".xml")], f) for f in reports.glob("TEST-*.xml")]
    outputs += [(f.name[: -len("-output.txt")], f) for f in reports.glob("*-output.txt")]
    for test_class, output in sorted(outputs):
        for job in set(JOB_ID.findall(output.read_text(errors="replace"))):
            owner.setdefault(job, test_class)
    return owner


def class_results(reports: Path) -> dict[str, str]:
    """{test class: "PASS  12.3 s  3/3"} from surefire's XML reports."""
    results = {}
    for report in sorted(reports.glob("TEST-*.xml")):
        suite = ET.parse(report).getroot()
        tests = int(suite.get("tests", 0))
        failed = int(suite.get("failures", 0)) + int(suite.get("errors", 0))
        skipped = int(suite.get("skipped", 0))
        verdict = "FAIL" if failed else "PASS"
        seconds = float(suite.get("time", 0))
        passed = f"{tests - failed - skipped}/{tests}"
        results[suite.get("name")] = f"{verdict} {seconds:6.1f} s {passed:>5}"
    return results


def count_events(timeline: Path) -> tuple[Counter, list[str]]:
    """The partial work in one reduce's timeline, and the errors of what failed in it."""
    counts = Counter(reduces=1)
    errors = []
    for line in timeline.read_text(errors="replace").splitlines():
        if not line.strip():
            continue
        event = json.loads(line)
        kind = event.get("event")
        if kind == "invocation-end":
            counts["invoc"] += 1
            counts["reducing" if event.get("reduce") else "sortonly"] += 1
        elif kind == "remerge-end":
            counts["remerges"] += 1
        elif kind == "spill-end":
            counts["spills"] += 1
        elif kind in ("invocation-failed", "remerge-failed"):
            if CONTRACT_VIOLATION in str(event.get("error", "")):
                counts["contract"] += 1
            else:
                counts["failed"] += 1
                errors.append(f"{kind} #{event.get('n')}: {event.get('error')}")
    return counts, errors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("timeline_dir", type=Path, help="mapreduce.marco.timeline.dir of the run")
    parser.add_argument("reports_dir", type=Path, help="surefire's reports directory")
    args = parser.parse_args()

    owner = job_classes(args.reports_dir)
    results = class_results(args.reports_dir)
    per_class = defaultdict(Counter)
    jobs = defaultdict(set)
    failures = []
    timelines = sorted(args.timeline_dir.glob("*/*.jsonl")) if args.timeline_dir.is_dir() else []
    for timeline in timelines:
        job = timeline.parent.name
        test_class = owner.get(job, NO_CLASS)
        counts, errors = count_events(timeline)
        per_class[test_class].update(counts)
        jobs[test_class].add(job)
        failures += [f"{timeline} ({short(test_class)}): {error}" for error in errors]

    print(f"{'test class':<54} {'result':<20} {'jobs':>4} " + " ".join(f"{c:>8}" for c in COLUMNS))
    total = Counter()
    for test_class in sorted(set(results) | set(per_class)):
        counts = per_class[test_class]
        total.update(counts)
        result = results.get(test_class, "(no report)")
        cells = " ".join(f"{counts[c]:>8}" for c in COLUMNS)
        print(f"{short(test_class):<54} {result:<20} {len(jobs[test_class]):>4} {cells}")
    cells = " ".join(f"{total[c]:>8}" for c in COLUMNS)
    print(f"{'total':<54} {'':<20} {sum(len(j) for j in jobs.values()):>4} {cells}")
    print(LEGEND)

    status = 0
    if not timelines:
        print(f"ERROR: no MaRCO timeline in {args.timeline_dir}: no reduce ran MaRCO")
        status = 1
    elif total["invoc"] == 0:
        print(
            "ERROR: no partial invocation ran: the run shows that Hadoop's tests pass with the"
            " plugin, not that they pass with its partial work"
        )
        status = 1
    for failure in failures:
        print(f"ERROR: a partial invocation failed: {failure}")
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
