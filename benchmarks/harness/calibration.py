# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""The regime test (`marco-bench calibrate`): from stock runs at several bisection rates, the rate
at which a job sits where the MaRCO paper ran it. A rate passes when, in stock's own breakdown,

- the network needs longer for the shuffle than the map phase lasts: the bytes a node receives
  from the other groups, at the shaped rate, take at least the map phase (so the shuffle cannot
  hide behind the maps);
- the hideable work, final merge plus final reduce, is at least 20% of the job (what MaRCO can
  move into the shuffle; the paper's shuffle-heavy jobs had 15-40% ideal speedups);
- job start-up (client, submission, AM) is under 15% of the job (a small job is mostly JVMs).

The chosen rate is the highest one at which every calibration job passes: the least throttled
bisection that still makes the shuffle the bottleneck. `main` picks its rate from one stock run of
the profile's probe job instead (`regime_rate`): the maps are CPU-bound, so the one run gives the
map phase, and the rate at which the network needs as long follows from the bytes."""

import math

from .datatypes import CalibrationRow, Record

MIN_HIDEABLE_SHARE = 0.20
MAX_STARTUP_SHARE = 0.15
MBIT = 1e6 / 8  # bytes per second of one Mbit/s
RATE_STEP = 0.5  # Mbit/s: the grain of a rate main picks from its probe run


def network_seconds(record: Record, workers: int, groups: int) -> float:
    """Seconds the shaped link needs for what one node receives from the other groups."""
    rate = record["rate_mbit"]
    if not rate:
        return 0.0
    crossing = record["shuffle_bytes"] * (groups - 1) / groups / workers
    return crossing / (rate * MBIT)


def assess(record: Record, workers: int, groups: int) -> CalibrationRow:
    """The test's numbers for one stock run, and whether it passes."""
    b = record["breakdown"]
    wall = record["wall_s"]
    net = network_seconds(record, workers, groups)
    hideable = b["final_merge"] + b["final_reduce"]
    row = {
        "job": record["job"],
        "rate_mbit": record["rate_mbit"],
        "wall_s": wall,
        "map_s": b["map"],
        "network_s": net,
        "exposed_shuffle_s": b["exposed_shuffle"],
        "hideable_s": hideable,
        "hideable_share": hideable / wall,
        "startup_share": b["startup"] / wall,
        "map_mb_per_s": record.get("hdfs_bytes_read", 0) / 1e6 / b["map"] if b["map"] else None,
        "final_mb_per_s": (
            record["shuffle_bytes"] / record["reduces"] / 1e6 / hideable
            if hideable and record.get("reduces")
            else None
        ),
    }
    row["network_bound"] = net >= b["map"]
    row["passes"] = (
        row["network_bound"]
        and row["hideable_share"] >= MIN_HIDEABLE_SHARE
        and row["startup_share"] < MAX_STARTUP_SHARE
    )
    return row


def choose(rows: list[CalibrationRow], jobs: list[str]) -> float | None:
    """The highest rate at which every one of `jobs` ran and passed, or None."""
    by_rate = {}
    for row in rows:
        by_rate.setdefault(row["rate_mbit"], {}).setdefault(row["job"], []).append(row["passes"])
    passing = [
        rate
        for rate, verdicts in by_rate.items()
        if set(verdicts) >= set(jobs) and all(all(v) for v in verdicts.values())
    ]
    return max(passing) if passing else None


def network_bound_limit(row: CalibrationRow) -> float:
    """The rate at which the bytes a node receives from the other groups take as long as this
    stock run's map phase: the highest that passes the test's network-bound half. The map phase
    is taken as the rate does not move it (the maps are CPU-bound)."""
    if not row["network_s"] or not row["map_s"]:
        raise ValueError(
            f"{row['job']} at {row['rate_mbit']} Mbit/s has no map phase or no shaped rate to "
            "scale from"
        )
    return row["rate_mbit"] * row["network_s"] / row["map_s"]


def regime_rate(row: CalibrationRow, step: float = RATE_STEP) -> float:
    """`network_bound_limit` rounded down to `step` Mbit/s, and at least one step; the hideable
    and start-up shares do not depend on the rate."""
    return max(step, math.floor(network_bound_limit(row) / step + 1e-9) * step)
