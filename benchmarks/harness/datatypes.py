# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Names for the JSON-like dicts the harness passes between its modules and writes to a results
directory. They are plain dicts (read from and written to JSON as they are); the names say which
one a function takes or returns. docs/harness.md describes their keys."""

from typing import Any

# A loaded profile (profile.load): cluster, jobs, variants, repetitions, data, ...
Profile = dict[str, Any]
# A profile's "cluster" section: workers, groups, rate_mbit, cpu_per_worker, ...
ClusterProfile = dict[str, Any]
# Hadoop job settings, key -> value as a profile or a sweep gives it (string, number or boolean).
JobConf = dict[str, Any]
# One run: one line of results.jsonl (runner.Runner.run_one).
Record = dict[str, Any]
# The runs of one (set, rate, job, config) together: means, speedups, ideal (aggregate.summarize).
Summary = dict[str, Any]
# phase (breakdown.PHASES) -> seconds
Breakdown = dict[str, float]
# Hadoop counters flattened to "GROUP.NAME" -> value.
Counters = dict[str, int]
# The regime test's numbers for one stock run (calibration.assess).
CalibrationRow = dict[str, Any]
# One command's entry in sessions.json: command, start, seconds, phases, environment.
SessionEntry = dict[str, Any]
# What must match for runs to be compared (resume.identity): commit, profile, cluster shape.
Identity = dict[str, Any]
