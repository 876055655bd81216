# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""How far MaRCO's speedups in one set could move by the machine's noise alone (a permutation
test).

If MaRCO and the stock variants ran a job equally fast, it would not matter which run came from
which variant. Dealing a job's measured wall times out to its configs again at random, each
config keeping its number of runs, and computing MaRCO's speedup over the better stock each
time, gives the speedups that noise alone produces on this machine for these runs. A measured
speedup outside their 5th to 95th percentile is a difference between the variants; inside, the
runs do not show one. Taking the faster of two stocks as the baseline also pulls the ratio below
1 when runs are noisy, and the median of the dealt speedups shows by how much.
"""

import random
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from . import catalog
from .aggregate import LIGHT_FLOOR, geomean, mean
from .datatypes import Record

DEALS = 2000
# A fixed seed: the same records always give the same report.
SEED = 1
LOW, HIGH = 0.05, 0.95


def percentile(sorted_xs: Sequence[float], q: float) -> float:
    """The nearest-rank q-quantile of a sorted, non-empty sequence."""
    return sorted_xs[round(q * (len(sorted_xs) - 1))]


def speedup(times: dict[str, list[float]], config: str) -> float:
    """`config`'s speedup over the stock config with the lower mean wall time."""
    best = min(mean(ts) for c, ts in times.items() if c != config)
    return best / mean(times[config])


def dealt(times: dict[str, list[float]], rng: random.Random) -> dict[str, list[float]]:
    """The same wall times dealt to the same configs at random, each keeping its number."""
    pool = [t for ts in times.values() for t in ts]
    rng.shuffle(pool)
    out, start = {}, 0
    for c, ts in times.items():
        out[c] = pool[start : start + len(ts)]
        start += len(ts)
    return out


def band(observed: float, deals: list[float]) -> dict[str, Any]:
    xs = sorted(deals)
    low, high = percentile(xs, LOW), percentile(xs, HIGH)
    return {
        "speedup": observed,
        "low": low,
        "median": percentile(xs, 0.5),
        "high": high,
        # Which way the runs show a difference, if they do.
        "beyond_noise": "faster" if observed > high else "slower" if observed < low else None,
    }


def job_times(records: list[Record], set_name: str, config: str) -> dict[Any, dict]:
    """(rate, job) -> config -> wall times, for jobs with `config` and a stock config measured,
    at least two runs of `config`, and no fault runs."""
    by_job = defaultdict(lambda: defaultdict(list))
    for r in records:
        if r["set"] != set_name or r["status"] != "ok" or r.get("fault"):
            continue
        stock = catalog.is_stock(r["variant"]) and r["config"] == r["variant"]
        if r["config"] == config or stock:
            by_job[(r["rate_mbit"], r["job"])][r["config"]].append(r["wall_s"])
    return {
        key: dict(times)
        for key, times in by_job.items()
        if len(times.get(config, [])) >= 2 and len(times) >= 2
    }


def ranges(records: list[Record], set_name: str, config: str = "marco") -> dict[Any, Any]:
    """rate -> the measured speedup of `config` over the better stock with the band that noise
    alone gives it, per job and as the geometric means over all jobs and over the shuffle-heavy
    ones; and how often, with noise alone, every job would reach LIGHT_FLOOR."""
    times = job_times(records, set_name, config)
    rng = random.Random(SEED)
    out = {}
    for rate in sorted({rate for rate, _ in times}, key=lambda r: (r is None, r)):
        jobs = sorted(job for r, job in times if r == rate)
        observed = {job: speedup(times[(rate, job)], config) for job in jobs}
        deals = [
            {job: speedup(dealt(times[(rate, job)], rng), config) for job in jobs}
            for _ in range(DEALS)
        ]
        heavy = [job for job in jobs if catalog.is_shuffle_heavy(job)]
        out[rate] = {
            "jobs": {job: band(observed[job], [d[job] for d in deals]) for job in jobs},
            "geomean": band(
                geomean(list(observed.values())), [geomean(list(d.values())) for d in deals]
            ),
            "heavy_geomean": (
                band(
                    geomean([observed[j] for j in heavy]),
                    [geomean([d[j] for j in heavy]) for d in deals],
                )
                if heavy
                else None
            ),
            "all_at_least_floor": mean([all(s >= LIGHT_FLOOR for s in d.values()) for d in deals]),
        }
    return out
