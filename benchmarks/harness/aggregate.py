# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Turns the per-run records into per-(set, rate, job, config) summaries: means with min/max,
speedups against the stock runs of the same set and rate, the paper's ideal speedup, the output
identity check, and the aims."""

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from . import catalog, linklag, model, safepoints
from .breakdown import PHASES
from .datatypes import Breakdown, Record, Summary

MIN_IDEAL_SAVING_S = 0.5
# The phases a shuffle-overlapping reduce sets out to hide, and their name as one phase.
FINAL_PHASES = ("final_merge", "final_reduce")
FINAL_PHASE = "final_merge_and_reduce"

# (set, rate, job): the runs of one job at one rate, whatever the config
JobKey = tuple[str, float | None, str]


def mean(xs: Sequence[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def geomean(xs: Sequence[float]) -> float | None:
    return math.exp(mean([math.log(x) for x in xs])) if xs else None


def stats(xs: Sequence[float]) -> dict[str, float] | None:
    return {"mean": mean(xs), "min": min(xs), "max": max(xs), "n": len(xs)} if xs else None


def group_key(r: Record) -> tuple[str, float | None, str, str]:
    return (r["set"], r["rate_mbit"], r["job"], r["config"])


def summarize(records: list[Record]) -> list[Summary]:
    ok = [r for r in records if r["status"] == "ok"]
    groups = defaultdict(list)
    for r in ok:
        groups[group_key(r)].append(r)
    summaries = []
    for (set_name, rate, job, config), runs in groups.items():
        # Records made before the harness kept per-node CPU have none.
        cpu = (
            [r["task_cpu_s_by_node"] for r in runs]
            if all("task_cpu_s_by_node" in r for r in runs)
            else None
        )
        summaries.append(
            {
                "set": set_name,
                "rate_mbit": rate,
                "job": job,
                "config": config,
                "variant": runs[0]["variant"],
                "conf": runs[0].get("conf", {}),
                "fault": runs[0].get("fault"),
                "shuffle_heavy": catalog.is_shuffle_heavy(job),
                # Records written before reducer kinds existed ran ours.
                "reducers": runs[0].get("reducers", "efficient"),
                "wall_s": stats([r["wall_s"] for r in runs]),
                # Records written before a phase existed count it as 0.
                "breakdown": {p: mean([r["breakdown"].get(p, 0) for r in runs]) for p in PHASES},
                "partial_work_s": mean(
                    [
                        (r["marco"]["partial_sort_millis"] + r["marco"]["partial_reduce_millis"])
                        / 1000
                        for r in runs
                    ]
                ),
                "invocations": mean([r["marco"]["invocations"] for r in runs]),
                "adaptive_disables": mean([r["marco"]["adaptive_disables"] for r in runs]),
                # Records written before stock's fetch waits were counted have none.
                "fetch_wait_s": (
                    mean([r["fetch_wait_s"] for r in runs])
                    if all("fetch_wait_s" in r for r in runs)
                    else None
                ),
                # Records written before it was counted have none.
                "merge_manager_wait_s": (
                    mean([r["merge_manager_wait_s"] for r in runs])
                    if all("merge_manager_wait_s" in r for r in runs)
                    else None
                ),
                # The median over runs of each run's reduces' time to safepoint; None where a run
                # has no safepoint logs.
                "safepoints": safepoints.summarize(runs),
                # The median over MaRCO's runs of when their binding link lost its time.
                "link_lag": linklag.summarize(runs),
                # Records written before it was measured, or off a shaped netns cluster, have
                # none.
                "link_slack_s": (
                    mean([r["link_slack_s"] for r in runs])
                    if all(r.get("link_slack_s") is not None for r in runs)
                    else None
                ),
                "shuffle_bytes": mean([r["shuffle_bytes"] for r in runs]),
                "map_output_bytes": mean([r["map_output_bytes"] for r in runs]),
                "input_bytes": mean([r.get("hdfs_bytes_read", 0) for r in runs]),
                "output_records": mean([r.get("reduce_output_records", 0) for r in runs]),
                # Runs on a cluster whose bisection is not shaped (or not known) have none.
                "bisection_bytes": (
                    mean([r["bisection_bytes"] for r in runs])
                    if all("bisection_bytes" in r for r in runs)
                    else None
                ),
                "machine_cpu_by_phase": machine_cpu_means(runs),
                "task_cpu_s": cpu and mean([sum(by_node.values()) for by_node in cpu]),
                "busiest_node_cpu_s": cpu
                and mean([max(by_node.values(), default=0) for by_node in cpu]),
                "peak_reduce_memory_bytes": max(r["peak_reduce_memory_bytes"] for r in runs),
                "failed_attempts": sum(r["failed_attempts"] for r in runs),
                "killed_attempts": sum(r["killed_attempts"] for r in runs),
                "output_sha256": sorted({r["output_sha256"] for r in runs}),
                "runs": len(runs),
            }
        )
    compare(summaries)
    return summaries


def machine_cpu_means(runs: list[Record]) -> dict[str, dict[str, float]] | None:
    """phase -> mean core-seconds idle, nice and busy over the runs; None where a run has none
    (records written before the harness sampled the machine's CPU)."""
    by_phase = [r.get("machine_cpu_by_phase") for r in runs]
    if not by_phase or None in by_phase:
        return None
    return {
        p: {kind: mean([x[p][kind] for x in by_phase]) for kind in ("idle", "nice", "busy")}
        for p in by_phase[0]
    }


def baselines(summaries: list[Summary]) -> dict[JobKey, list[Summary]]:
    """(set, rate, job) -> the stock summaries without a fault: stock as shipped and, where
    measured, stock with early reduces."""
    out = defaultdict(list)
    for s in summaries:
        if catalog.is_stock(s["variant"]) and not s.get("fault"):
            out[(s["set"], s["rate_mbit"], s["job"])].append(s)
    return out


def saved_by_phase(base: Breakdown, own: Breakdown) -> dict[str, float]:
    """Seconds each phase took less than in the baseline (negative: more), with the final merge
    and the final reduce as one: where a config's difference from the baseline came from. The
    phases add up to the wall time, so these add up to the difference in mean wall time."""
    out = {}
    for p in PHASES:
        if p == FINAL_PHASES[0]:
            out[FINAL_PHASE] = sum(base[q] - own[q] for q in FINAL_PHASES)
        elif p not in FINAL_PHASES:
            out[p] = base[p] - own[p]
    return out


def final_phase_hidden(base: Breakdown, own: Breakdown) -> float | None:
    """The share of the baseline's final merge plus final reduce (the work a shuffle-overlapping
    reduce sets out to hide) that a config no longer spends after its shuffle. What stays is the
    config's own final pass: for MaRCO, merging and re-reducing its partial results."""
    hideable = sum(base[p] for p in FINAL_PHASES)
    if hideable < MIN_IDEAL_SAVING_S:
        return None
    return (hideable - sum(own[p] for p in FINAL_PHASES)) / hideable


def compare(summaries: list[Summary]) -> None:
    """Adds speedup, normalised runtime, ideal and identity fields against the better stock
    baseline of the same set, rate and job (the faster of 'stock' and 'stock-early'), and the
    speedup against each stock baseline (so a gain splits into early fetching and partial work)."""
    stocks = baselines(summaries)
    for s in summaries:
        bases = stocks.get((s["set"], s["rate_mbit"], s["job"]))
        if not bases:
            s["baseline"] = None
            continue
        base = min(bases, key=lambda b: b["wall_s"]["mean"])
        b = base["wall_s"]["mean"]
        w = s["wall_s"]
        # The paper's ideal: the model without its CPU term (docs/model.md).
        ideal = model.predict_stock(b, base["breakdown"])
        saving = ideal.saving_s
        s["baseline"] = base["config"]
        s["normalized"] = {"mean": w["mean"] / b, "min": w["min"] / b, "max": w["max"] / b}
        s["speedup"] = b / w["mean"]
        s["speedup_vs"] = {x["config"]: x["wall_s"]["mean"] / w["mean"] for x in bases}
        s["map_phase_ratio"] = (
            s["breakdown"]["map"] / base["breakdown"]["map"] if base["breakdown"]["map"] else None
        )
        s["ideal_saving_s"] = saving
        s["ideal_speedup"] = ideal.speedup
        # Below half a second the ideal saving is within run-to-run noise; a fraction of it
        # would be meaningless.
        s["fraction_of_ideal"] = (b - w["mean"]) / saving if saving >= MIN_IDEAL_SAVING_S else None
        s["saved_by_phase"] = saved_by_phase(base["breakdown"], s["breakdown"])
        s["final_phase_hidden"] = final_phase_hidden(base["breakdown"], s["breakdown"])
        stock_shas = {sha for x in bases for sha in x["output_sha256"]}
        s["stock_outputs_agree"] = len(stock_shas) == 1
        s["identical_to_stock"] = set(s["output_sha256"]) == stock_shas and len(stock_shas) == 1


def all_identical(summaries: list[Summary], set_name: str) -> bool:
    """True when the set has compared outputs and every one equals stock's."""
    compared = [
        s
        for s in summaries
        if s["set"] == set_name and s.get("baseline") and s["baseline"] != s["config"]
    ]
    return bool(compared) and all(s.get("identical_to_stock") for s in compared)


HEAVY_GEOMEAN_AIM = 1.15
IDEAL_SHARE_AIM = 0.95
LIGHT_FLOOR = 0.98
MAP_PHASE_SLACK = 1.03


def ordered_rates(rates: Iterable[float | None]) -> list[float | None]:
    """Distinct rates, lowest first; an unknown rate (None) last."""
    return sorted(set(rates), key=lambda r: (r is None, r))


def set_rates(summaries: list[Summary], set_name: str) -> list[float | None]:
    """The rates the set ran at, in `ordered_rates` order."""
    return ordered_rates(s["rate_mbit"] for s in summaries if s["set"] == set_name)


def ideal_share(summary: Summary, half_band: float | None) -> dict[str, Any]:
    """A heavy job's share of its ideal gain against IDEAL_SHARE_AIM, held to what its runs can
    tell: `band` is the noise half-band of its speedup (modelcheck.half_band) as a share of the
    ideal gain, and the verdict is "met", "within noise" (short of the aim by less than the
    band), "not met", or "ideal within noise" (an ideal gain no larger than the band: the runs
    cannot tell any share of it from noise), or None without an ideal to hold it to."""
    share = summary.get("fraction_of_ideal")
    ideal = summary.get("ideal_speedup")
    if share is None or ideal is None or ideal <= 1:
        return {"share": share, "band": None, "verdict": None}
    band = half_band / (ideal - 1) if half_band is not None else None
    if band is not None and band >= 1:
        verdict = "ideal within noise"
    elif share >= IDEAL_SHARE_AIM:
        verdict = "met"
    elif band is not None and share + band >= IDEAL_SHARE_AIM:
        verdict = "within noise"
    else:
        verdict = "not met"
    return {"share": share, "band": band, "verdict": verdict}


def targets(
    summaries: list[Summary],
    set_name: str,
    rate: float | None,
    config: str = "marco",
    half_bands: dict[str, float] | None = None,
) -> dict[str, Any]:
    """The aims for one set at one rate, against the better stock baseline: shuffle-heavy
    geometric-mean speedup >= 1.15, each heavy job >= 95% of its ideal gain (`ideal_share`,
    with `half_bands` the noise half-band of each job's speedup where it is known), no job below
    0.98 among the light ones, MaRCO's map phase within 3% of the baseline's on average. One
    rate at a time: a job's speedup at one rate says nothing of its aim at another (the
    curve's set)."""
    rows = [
        s
        for s in summaries
        if s["set"] == set_name
        and s["rate_mbit"] == rate
        and s["config"] == config
        and s.get("speedup")
    ]
    heavy = [s for s in rows if s["shuffle_heavy"]]
    light = [s for s in rows if not s["shuffle_heavy"]]
    geo = geomean([s["speedup"] for s in heavy])
    # What the aim can be held against: hiding every heavy job's final merge and reduce.
    ideals = [s["ideal_speedup"] for s in heavy]
    ideal_geo = geomean(ideals) if None not in ideals else None
    map_ratios = [s["map_phase_ratio"] for s in rows if s.get("map_phase_ratio")]
    map_ratio = mean(map_ratios)
    return {
        "heavy_geomean_speedup": geo,
        "heavy_geomean_met": geo is not None and geo >= HEAVY_GEOMEAN_AIM,
        "heavy_ideal_geomean_speedup": ideal_geo,
        "heavy_ideal_share": {
            s["job"]: ideal_share(s, (half_bands or {}).get(s["job"])) for s in heavy
        },
        "heavy_final_phase_hidden": {s["job"]: s.get("final_phase_hidden") for s in heavy},
        "light_at_least_floor": {s["job"]: s["speedup"] >= LIGHT_FLOOR for s in light},
        "map_phase_ratio": map_ratio,
        "map_phase_met": map_ratio is not None and map_ratio <= MAP_PHASE_SLACK,
        "all_identical": all_identical(summaries, set_name),
    }
