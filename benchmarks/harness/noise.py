# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""How far MaRCO's speedups in one set could move by the machine's noise alone (a permutation
test).

If MaRCO and the stock variants ran a job equally fast, it would not matter which run came from
which variant. Dealing a job's measured wall times out to its configs again, each config keeping
its number of runs, and computing MaRCO's speedup over the better stock for every deal, gives the
speedups that noise alone produces on this machine for these runs. A measured speedup that at
most 5% of the deals reach (or undercut) is unlikely from noise alone; otherwise the runs do not
tell the variants apart. With few runs not even the most extreme deal is that rare, and the runs
cannot tell at all. Taking the faster of two stocks as the baseline also pulls the speedup below
1 when runs are noisy, and the median of the deals shows by how much.
"""

import itertools
import math
import random
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from . import catalog
from .aggregate import LIGHT_FLOOR, geomean, mean, ordered_rates
from .datatypes import Record

# Up to this many deals a job's are all enumerated; beyond, and for the geometric means, which
# combine every job's deals, this many are drawn at random.
EXACT_LIMIT = 20000
SAMPLES = 2000
# Seeds derive from it and the set, rate and job: the same records always give the same report,
# and runs added for one job or rate leave the others' bands as they were.
SEED = 1
LOW, HIGH = 0.05, 0.95
# A one-sided share of deals at or beyond the measured speedup up to this is "unlikely from
# noise alone" (with LOW and HIGH: a two-sided test at 10%).
SIGNIFICANCE = 0.05
# Speedups this close are one value (the same deal reached by another order of the runs).
TIE = 1e-9

Times = dict[str, list[float]]


def percentile(sorted_xs: list[float], q: float) -> float:
    """The value at index round(q * (n - 1)) of a sorted, non-empty list."""
    return sorted_xs[round(q * (len(sorted_xs) - 1))]


def speedup(times: Times, config: str) -> float:
    """`config`'s speedup over the stock config with the lower mean wall time."""
    best = min(mean(ts) for c, ts in times.items() if c != config)
    return best / mean(times[config])


def dealt(times: Times, rng: random.Random) -> Times:
    """The same wall times dealt to the same configs at random, each keeping its number."""
    pool = [t for ts in times.values() for t in ts]
    rng.shuffle(pool)
    return split(times, pool)


def split(times: Times, order: list[float]) -> Times:
    """`order` cut into the configs of `times`, each taking as many as it has."""
    out, start = {}, 0
    for c, ts in times.items():
        out[c] = order[start : start + len(ts)]
        start += len(ts)
    return out


def deal_count(times: Times) -> int:
    """How many ways there are to deal the runs out (the multinomial coefficient)."""
    count, left = 1, sum(len(ts) for ts in times.values())
    for ts in times.values():
        count *= math.comb(left, len(ts))
        left -= len(ts)
    return count


def every_deal(times: Times) -> Iterator[Times]:
    """Every way to deal the runs out to the configs, each once."""
    pool = [t for ts in times.values() for t in ts]
    sizes = [len(ts) for ts in times.values()]

    def deals(indices: tuple[int, ...], k: int) -> Iterator[list[tuple[int, ...]]]:
        if k == len(sizes) - 1:
            yield [indices]
            return
        for chosen in itertools.combinations(indices, sizes[k]):
            rest = tuple(i for i in indices if i not in chosen)
            for tail in deals(rest, k + 1):
                yield [chosen, *tail]

    for groups in deals(tuple(range(len(pool))), 0):
        yield split(times, [pool[i] for group in groups for i in group])


def job_deals(times: Times, config: str, seed: str) -> tuple[list[float], bool]:
    """`config`'s speedup in every deal of the job's runs, or in SAMPLES random ones where
    there are more than EXACT_LIMIT; and whether they are every deal."""
    if deal_count(times) <= EXACT_LIMIT:
        return [speedup(d, config) for d in every_deal(times)], True
    rng = random.Random(seed)
    return [speedup(dealt(times, rng), config) for _ in range(SAMPLES)], False


def band(observed: float, deals: list[float], exact: bool) -> dict[str, Any]:
    """The measured speedup against the deals': their 5th percentile, median and 95th
    percentile, the share of deals at least as far out on either side, and the verdict."""
    xs = sorted(deals)
    at_or_above = sum(x >= observed - TIE for x in xs)
    at_or_below = sum(x <= observed + TIE for x in xs)
    # A sampled share counts the measured deal itself, so it is never 0.
    share = (lambda k: k / len(xs)) if exact else (lambda k: (k + 1) / (len(xs) + 1))
    # The rarest a measured speedup can be: the share of the most extreme deal on either side.
    rarest = min(
        share(sum(x >= xs[-1] - TIE for x in xs)), share(sum(x <= xs[0] + TIE for x in xs))
    )
    verdict = (
        "too few runs to tell"
        if rarest > SIGNIFICANCE
        else "faster"
        if share(at_or_above) <= SIGNIFICANCE
        else "slower"
        if share(at_or_below) <= SIGNIFICANCE
        else None
    )
    return {
        "speedup": observed,
        "low": percentile(xs, LOW),
        "median": percentile(xs, 0.5),
        "high": percentile(xs, HIGH),
        "share_at_or_above": share(at_or_above),
        "share_at_or_below": share(at_or_below),
        "exact": exact,
        "beyond_noise": verdict,
    }


def job_times(records: list[Record], set_name: str, config: str) -> dict[Any, Times]:
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


def mean_band(
    observed: dict[str, float], joint: list[dict[str, float]], jobs: list[str]
) -> dict[str, Any] | None:
    """The band of the geometric mean over `jobs`, from the combined deals."""
    if not jobs:
        return None
    return band(
        geomean([observed[j] for j in jobs]), [geomean([d[j] for j in jobs]) for d in joint], False
    )


def share_at_floor(joint: list[dict[str, float]], jobs: list[str]) -> float | None:
    """The share of the combined deals in which every one of `jobs` reached LIGHT_FLOOR."""
    if not jobs:
        return None
    return mean([all(d[j] >= LIGHT_FLOOR for j in jobs) for d in joint])


def rate_ranges(times: dict[str, Times], config: str, seed: str) -> dict[str, Any]:
    """`ranges` at one rate; `times` maps each job to its configs' wall times."""
    jobs = sorted(times)
    observed = {job: speedup(times[job], config) for job in jobs}
    per_job = {job: job_deals(times[job], config, f"{seed}/{job}") for job in jobs}
    # The means combine the jobs' deals: one deal of every job, drawn at random.
    rng = random.Random(seed)
    joint = [{job: rng.choice(per_job[job][0]) for job in jobs} for _ in range(SAMPLES)]
    heavy = [job for job in jobs if catalog.is_shuffle_heavy(job)]
    light = [job for job in jobs if not catalog.is_shuffle_heavy(job)]
    return {
        "jobs": {job: band(observed[job], *per_job[job]) for job in jobs},
        "geomean": mean_band(observed, joint, jobs),
        "heavy_geomean": mean_band(observed, joint, heavy),
        "two_stocks": any(len(times[job]) > 2 for job in jobs),
        "every_job_at_least_floor": share_at_floor(joint, jobs),
        "light_at_least_floor": share_at_floor(joint, light),
    }


def ranges(records: list[Record], set_name: str, config: str = "marco") -> dict[Any, Any]:
    """rate -> the measured speedup of `config` over the better stock with the band that noise
    alone gives it, per job and as the geometric means over all jobs and over the shuffle-heavy
    ones; whether two stock configs were measured; and how often, with noise alone, every job
    and every light job would reach LIGHT_FLOOR."""
    times = job_times(records, set_name, config)
    rates = ordered_rates(rate for rate, _ in times)
    return {
        rate: rate_ranges(
            {job: t for (r, job), t in times.items() if r == rate},
            config,
            f"{SEED}/{set_name}/{rate}",
        )
        for rate in rates
    }
