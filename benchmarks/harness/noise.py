# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""How far MaRCO's speedups in one set could move by the machine's noise alone (a permutation
test).

A set runs each job in repetition blocks: a block runs every config once, close together in time
and in an order drawn at random. If MaRCO and the stock variants ran a job equally fast, it would
not matter which run of a block came from which config. Dealing each block's measured wall times
out to its configs again, and computing MaRCO's speedup over the better stock for every deal,
gives the speedups that noise alone produces on this machine for these runs. Dealing within
blocks keeps what drifts from one block to the next (the machine's speed over minutes) out of the
deals. A measured speedup that at most 5% of the deals reach (or undercut) is unlikely from noise
alone; otherwise the runs do not tell the variants apart.

With few blocks not even the most extreme deal within them is that rare (two configs need 5
blocks, three need 3). Such a job's runs are dealt across the set instead, as if it were one
block, each config keeping its number of runs: also a valid test, since drift between blocks
only widens those deals, but a weaker one when the machine drifts. With fewer runs still, the
runs cannot tell at all. Taking the faster of two stocks as the baseline also pulls the speedup
below 1 when runs are noisy, and the median of the deals shows by how much.
"""

import itertools
import math
import random
from collections import defaultdict
from collections.abc import Callable, Iterator
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
# Hadoop as shipped: a stock config, but a reference beside the baseline rather than one.
REFERENCE = "hadoop"

Times = dict[str, list[float]]
# How a job's runs were dealt out again.
WITHIN_BLOCKS = "within blocks"
ACROSS_THE_SET = "across the set"


def percentile(sorted_xs: list[float], q: float) -> float:
    """The value at index round(q * (n - 1)) of a sorted, non-empty list."""
    return sorted_xs[round(q * (len(sorted_xs) - 1))]


def speedup(times: Times, config: str) -> float:
    """`config`'s speedup over the stock config with the lower mean wall time."""
    best = min(mean(ts) for c, ts in times.items() if c != config)
    return best / mean(times[config])


def times_of(blocks: list[Times]) -> Times:
    """Each config's wall times over the blocks, in block order."""
    times = defaultdict(list)
    for block in blocks:
        for c, ts in block.items():
            times[c] += ts
    return dict(times)


def split(block: Times, order: list[float]) -> Times:
    """`order` cut into the configs of `block`, each taking as many as it has."""
    out, start = {}, 0
    for c, ts in block.items():
        out[c] = order[start : start + len(ts)]
        start += len(ts)
    return out


def dealt(blocks: list[Times], rng: random.Random) -> Times:
    """Each block's wall times dealt to its configs at random, each keeping its number."""
    deal = []
    for block in blocks:
        pool = [t for ts in block.values() for t in ts]
        rng.shuffle(pool)
        deal.append(split(block, pool))
    return times_of(deal)


def deal_count(blocks: list[Times]) -> int:
    """How many ways there are to deal each block's runs out to its configs (the product of the
    blocks' multinomial coefficients)."""
    count = 1
    for block in blocks:
        left = sum(len(ts) for ts in block.values())
        for ts in block.values():
            count *= math.comb(left, len(ts))
            left -= len(ts)
    return count


def block_deals(block: Times) -> Iterator[Times]:
    """Every way to deal one block's runs out to its configs, each once."""
    pool = [t for ts in block.values() for t in ts]
    sizes = [len(ts) for ts in block.values()]

    def deals(indices: tuple[int, ...], k: int) -> Iterator[list[tuple[int, ...]]]:
        if k == len(sizes) - 1:
            yield [indices]
            return
        for chosen in itertools.combinations(indices, sizes[k]):
            rest = tuple(i for i in indices if i not in chosen)
            for tail in deals(rest, k + 1):
                yield [chosen, *tail]

    for groups in deals(tuple(range(len(pool))), 0):
        yield split(block, [pool[i] for group in groups for i in group])


def every_deal(blocks: list[Times]) -> Iterator[Times]:
    """Every deal of the runs within their blocks, each once."""
    for deal in itertools.product(*(list(block_deals(b)) for b in blocks)):
        yield times_of(list(deal))


def deals_of(blocks: list[Times], config: str, seed: str) -> tuple[list[float], bool]:
    """`config`'s speedup in every deal of `blocks`, or in SAMPLES random ones where there are
    more than EXACT_LIMIT; and whether they are every deal."""
    if deal_count(blocks) <= EXACT_LIMIT:
        return [speedup(d, config) for d in every_deal(blocks)], True
    rng = random.Random(seed)
    return [speedup(dealt(blocks, rng), config) for _ in range(SAMPLES)], False


def job_deals(blocks: list[Times], config: str, seed: str) -> tuple[list[float], bool, str]:
    """`config`'s speedups in the deals of the job's runs, whether they are every deal, and how
    they were dealt: within the repetition blocks where those deals can be rare enough to show a
    difference, else across the set (the runs of all blocks pooled, as one block)."""
    within = deals_of(blocks, config, seed)
    if rarest_share(sorted(within[0]), within[1]) <= SIGNIFICANCE:
        return *within, WITHIN_BLOCKS
    return *deals_of([times_of(blocks)], config, seed), ACROSS_THE_SET


def share_function(n: int, exact: bool) -> Callable[[int], float]:
    """k deals of n as a share; a sampled share counts the measured deal itself, so it is
    never 0."""
    return (lambda k: k / n) if exact else (lambda k: (k + 1) / (n + 1))


def rarest_share(xs: list[float], exact: bool) -> float:
    """The rarest a measured speedup can be among the sorted deals `xs`: the share of the most
    extreme deal on either side."""
    share = share_function(len(xs), exact)
    return min(share(sum(x >= xs[-1] - TIE for x in xs)), share(sum(x <= xs[0] + TIE for x in xs)))


def band(
    observed: float, deals: list[float], exact: bool, how: str | None = None
) -> dict[str, Any]:
    """The measured speedup against the deals': their 5th percentile, median and 95th
    percentile, the share of deals at least as far out on either side, the verdict, and how the
    deals were dealt."""
    xs = sorted(deals)
    at_or_above = sum(x >= observed - TIE for x in xs)
    at_or_below = sum(x <= observed + TIE for x in xs)
    share = share_function(len(xs), exact)
    verdict = (
        "too few runs to tell"
        if rarest_share(xs, exact) > SIGNIFICANCE
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
        "dealt": how,
        "beyond_noise": verdict,
    }


def job_blocks(records: list[Record], set_name: str, config: str) -> dict[Any, list[Times]]:
    """(rate, job) -> the job's repetition blocks in repetition order, for jobs with `config`
    and a stock config measured, at least two runs of `config`, and no fault runs."""
    by_job = defaultdict(lambda: defaultdict(dict))
    for r in records:
        if r["set"] != set_name or r["status"] != "ok" or r.get("fault"):
            continue
        stock = catalog.is_stock(r["variant"]) and r["config"] == r["variant"]
        if r["config"] == config or stock:
            by_job[(r["rate_mbit"], r["job"])][r["rep"]][r["config"]] = [r["wall_s"]]
    blocks = {key: [reps[rep] for rep in sorted(reps)] for key, reps in by_job.items()}
    counts = {key: {c: len(ts) for c, ts in times_of(bs).items()} for key, bs in blocks.items()}
    return {
        key: bs
        for key, bs in blocks.items()
        if counts[key].get(config, 0) >= 2 and len(counts[key]) >= 2
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


def rate_ranges(blocks: dict[str, list[Times]], config: str, seed: str) -> dict[str, Any]:
    """`ranges` at one rate; `blocks` maps each job to its repetition blocks."""
    jobs = sorted(blocks)
    observed = {job: speedup(times_of(blocks[job]), config) for job in jobs}
    per_job = {job: job_deals(blocks[job], config, f"{seed}/{job}") for job in jobs}
    # The means combine the jobs' deals: one deal of every job, drawn at random.
    rng = random.Random(seed)
    joint = [{job: rng.choice(per_job[job][0]) for job in jobs} for _ in range(SAMPLES)]
    heavy = [job for job in jobs if catalog.is_shuffle_heavy(job)]
    light = [job for job in jobs if not catalog.is_shuffle_heavy(job)]
    return {
        "jobs": {job: band(observed[job], *per_job[job]) for job in jobs},
        "geomean": mean_band(observed, joint, jobs),
        "heavy_geomean": mean_band(observed, joint, heavy),
        "two_stocks": any(len(times_of(blocks[job])) > 2 for job in jobs),
        "every_job_at_least_floor": share_at_floor(joint, jobs),
        "light_at_least_floor": share_at_floor(joint, light),
    }


def without_reference(blocks: list[Times], config: str) -> list[Times]:
    """The blocks without Hadoop as shipped (REFERENCE) unless it is the job's faster stock. It
    runs beside the stocks to show that they are stock (the report compares it with each of them
    on its own, pair_ranges), and lacks the reduce placement they share with MaRCO: dealing its
    runs out to the others would count a difference that is real as noise, widening `config`'s
    band and pulling it below 1."""
    stocks = {c: mean(ts) for c, ts in times_of(blocks).items() if c != config}
    if REFERENCE not in stocks or min(stocks, key=stocks.__getitem__) == REFERENCE:
        return blocks
    return [{c: ts for c, ts in b.items() if c != REFERENCE} for b in blocks]


def ranges(records: list[Record], set_name: str, config: str = "marco") -> dict[Any, Any]:
    """rate -> the measured speedup of `config` over the better stock with the band that noise
    alone gives it, per job and as the geometric means over all jobs and over the shuffle-heavy
    ones; whether two stock configs were measured; and how often, with noise alone, every job
    and every light job would reach LIGHT_FLOOR."""
    blocks = {
        key: without_reference(bs, config)
        for key, bs in job_blocks(records, set_name, config).items()
    }
    rates = ordered_rates(rate for rate, _ in blocks)
    return {
        rate: rate_ranges(
            {job: bs for (r, job), bs in blocks.items() if r == rate},
            config,
            f"{SEED}/{set_name}/{rate}",
        )
        for rate in rates
    }


def pair_ranges(
    records: list[Record], set_name: str, config: str, baseline: str
) -> dict[Any, dict[str, dict[str, Any]]]:
    """rate -> job -> `config`'s speedup over `baseline` alone (two stock configs side by side),
    with the band of the deals of those two configs' runs within their blocks."""
    out: dict[Any, dict[str, dict[str, Any]]] = defaultdict(dict)
    for (rate, job), blocks in job_blocks(records, set_name, config).items():
        pair = [{c: ts for c, ts in b.items() if c in (config, baseline)} for b in blocks]
        pair = [b for b in pair if config in b and baseline in b]
        if len(pair) < 2:
            continue
        deals = job_deals(pair, config, f"{SEED}/{set_name}/{rate}/{job}/{baseline}")
        out[rate][job] = band(speedup(times_of(pair), config), *deals)
    return dict(out)
