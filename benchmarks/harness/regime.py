# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""The regime map (`marco-bench regime`): the parametric job at every reduce cost and bisection
rate of the profile's `regime` grid, a stock variant against MaRCO, and the map's cells.

Each reduce cost is a set of its own (`regime-c<COST>`), so that every cell's runs are compared
with the stock runs of the same cost and rate, as the harness compares any set's runs at a rate.
A cell's measured speedup is MaRCO's over the better stock; its model value is docs/model.md's
prediction from the stock runs' breakdown and, where the machine's CPU was sampled, the CPU their
exposed shuffle left idle (model.predict_baseline, as the report's model check); its ideal is the
paper's, the speedup MaRCO would reach by hiding the whole of min(exposed shuffle, final merge +
final reduce) (aggregate.compare)."""

from typing import Any

from . import catalog, model
from .datatypes import Profile, Summary
from .runner import Config, Run, plan

SET_PREFIX = "regime-c"
COST_KEY = "marco.benchmarks.parametric.reduce.cost"
DEFAULT_VARIANTS = ["stock-early", "marco"]


def set_name(cost: int) -> str:
    return f"{SET_PREFIX}{cost}"


def is_regime_set(name: str) -> bool:
    return name.startswith(SET_PREFIX)


def section(prof: Profile) -> dict[str, Any]:
    """The profile's regime section with its defaults; ValueError naming what is wrong."""
    r = prof.get("regime")
    if not r:
        raise ValueError(
            f"profile {prof['name']} has no 'regime' section; use --profile regime (or "
            "regime-fine), or add one (docs/harness.md, profile key regime)"
        )
    out = {"job": "parametric", "variants": DEFAULT_VARIANTS, "conf": {}, **r}
    out.setdefault("repetitions", prof["repetitions"])
    catalog.check_jobs([out["job"]])
    catalog.check_variants(out["variants"])
    for key in ("reduce_costs", "rates"):
        values = out.get(key)
        if not values or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 for v in values
        ):
            raise ValueError(
                f"profile {prof['name']}: regime.{key} must be a non-empty list of numbers >= 0, "
                f"got {values!r}"
            )
        if len(set(values)) != len(values):
            raise ValueError(f"profile {prof['name']}: regime.{key} repeats a value: {values!r}")
    if not all(isinstance(c, int) for c in out["reduce_costs"]):
        raise ValueError(
            f"profile {prof['name']}: regime.reduce_costs are hash passes per value, whole "
            f"numbers, got {out['reduce_costs']!r}"
        )
    if 0 in out["rates"]:
        raise ValueError(f"profile {prof['name']}: regime.rates must be > 0 Mbit/s")
    return out


def runs(prof: Profile) -> list[Run]:
    """Every cell's runs, rate by rate (one re-shaping per rate), cost by cost within a rate;
    a cell's repetitions are blocks of every variant in a drawn order (runner.plan)."""
    r = section(prof)
    out = []
    for rate in r["rates"]:
        for cost in r["reduce_costs"]:
            conf = {**r["conf"], COST_KEY: cost}
            configs = [Config(v, v, dict(conf), rate=rate) for v in r["variants"]]
            out += plan(set_name(cost), [r["job"]], configs, r["repetitions"])
    return out


def cells(summaries: list[Summary]) -> list[dict[str, Any]]:
    """One cell per (reduce cost, rate, non-stock config) with a stock baseline: the measured
    speedup, the model's and the ideal, the baseline's wall time, whether the outputs were
    identical."""
    by_key = {(s["set"], s["rate_mbit"], s["job"], s["config"]): s for s in summaries}
    out = []
    for s in summaries:
        if not is_regime_set(s["set"]) or catalog.is_stock(s["variant"]) or not s.get("baseline"):
            continue
        predicted = model.predict_baseline(
            by_key[(s["set"], s["rate_mbit"], s["job"], s["baseline"])]
        )
        out.append(
            {
                "cost": int(s["set"][len(SET_PREFIX) :]),
                "rate_mbit": s["rate_mbit"],
                "config": s["config"],
                "baseline": s["baseline"],
                "speedup": s["speedup"],
                "model": predicted.speedup,
                "bound": predicted.bound,
                "ideal": s.get("ideal_speedup"),
                "wall_s": s["wall_s"]["mean"],
                "baseline_wall_s": s["wall_s"]["mean"] * s["speedup"],
                "runs": s["runs"],
                "identical": s.get("identical_to_stock"),
            }
        )
    return sorted(out, key=lambda c: (c["config"], c["cost"], c["rate_mbit"] or 0))
