# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""The model check (docs/model.md): for every job and every config that is not stock, the model's
prediction from the better stock baseline's runs against the speedup measured over that baseline.

A measured speedup agrees with the prediction when it lies within the wider of its noise band
and TOLERANCE_FLOOR of it. The band is half the width of noise.py's 5-95% band of the deals, the
speedups the same runs give with no difference between the configs: how far noise alone moves a
speedup of this job at this rate. A job with too few runs for a band is held to the floor."""

from typing import Any

from . import catalog, model, noise
from .datatypes import Record, Summary

TOLERANCE_FLOOR = 0.03


def half_band(band: dict[str, Any] | None) -> float | None:
    return (band["high"] - band["low"]) / 2 if band else None


def job_half_bands(set_bands: dict[Any, Any], rate: float | None) -> dict[str, float]:
    """job -> the half band of its speedup at `rate`, from one set's noise.ranges."""
    jobs = set_bands.get(rate, {}).get("jobs", {})
    return {job: h for job, band in jobs.items() if (h := half_band(band)) is not None}


def rows(
    records: list[Record], summaries: list[Summary], marco_bands: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """One row per (set, rate, job, config) with a stock baseline: the prediction, the bound, the
    measured speedup, its noise band and whether they agree. `marco_bands` are noise.ranges of
    config "marco" per set where the caller has them already."""
    bands = {(s, "marco"): b for s, b in (marco_bands or {}).items()}
    by_key = {(s["set"], s["rate_mbit"], s["job"], s["config"]): s for s in summaries}
    out = []
    for s in summaries:
        if catalog.is_stock(s["variant"]) or s.get("fault") or not s.get("baseline"):
            continue
        base = by_key[(s["set"], s["rate_mbit"], s["job"], s["baseline"])]
        p = model.predict_baseline(base)
        if (s["set"], s["config"]) not in bands:
            bands[(s["set"], s["config"])] = noise.ranges(records, s["set"], s["config"])
        by_rate = bands[(s["set"], s["config"])].get(s["rate_mbit"], {})
        half = half_band(by_rate.get("jobs", {}).get(s["job"]))
        tolerance = max(half or 0.0, TOLERANCE_FLOOR)
        error = s["speedup"] - p.speedup if p.speedup is not None else None
        out.append(
            {
                "set": s["set"],
                "rate_mbit": s["rate_mbit"],
                "job": s["job"],
                "config": s["config"],
                "baseline": s["baseline"],
                "stock_runs": base["runs"],
                "runs": s["runs"],
                "predicted_saving_s": p.saving_s,
                "predicted_speedup": p.speedup,
                "bound": p.bound,
                "cpu_term": base.get("machine_cpu_by_phase") is not None,
                "measured_speedup": s["speedup"],
                "noise_half_band": half,
                "tolerance": tolerance,
                "error": error,
                "within": error is not None and abs(error) <= tolerance,
            }
        )
    return out
