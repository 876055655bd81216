# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""The model that predicts MaRCO's speedup from a stock run's breakdown (docs/model.md).

MaRCO saves what it moves from after the shuffle into the shuffle: the final merge and final
reduce, done as partial work while map outputs still arrive. The saving is the smallest of three
terms, and the smallest names the regime:

  final-work-bound  final merge + final reduce: there is no more work to move;
  network-bound     the exposed shuffle: work can only hide behind the time the network keeps the
                    shuffle open after the last map;
  CPU-bound         final work x idle CPU / final work's CPU: partial work runs at a low priority
                    and gets only the CPU the exposed shuffle leaves idle.

With the CPU unknown the third term drops out, and the saving is the paper's ideal. The
predicted speedup is wall / (wall - saving). This is the one definition in Python; the advisor's
org.apache.hadoop.mapreduce.marco.advise.SpeedupModel is its Java twin, and both are held to the
cases of tests/bench/data/model-cases.json."""

import math
from dataclasses import dataclass

from .datatypes import Breakdown

FINAL_WORK = "final-work-bound"
NETWORK = "network-bound"
CPU = "CPU-bound"
# Of equal terms the first names the regime: no more work, then no more shuffle, then no CPU.
BOUNDS = (FINAL_WORK, NETWORK, CPU)


@dataclass(frozen=True)
class Prediction:
    saving_s: float
    # None where the saving is the whole job (a job with no time left cannot be sped up by it).
    speedup: float | None
    bound: str


def predict(
    wall_s: float,
    exposed_shuffle_s: float,
    final_merge_s: float,
    final_reduce_s: float,
    idle_cpu_s: float | None = None,
    final_cpu_s: float | None = None,
) -> Prediction:
    """MaRCO's saving and speedup over a stock run with these seconds (its wall time, exposed
    shuffle, final merge and final reduce without the output write), and, where known, the
    core-seconds its exposed shuffle left idle and its final merge and reduce kept busy."""
    values = {
        "wall": wall_s,
        "exposed shuffle": exposed_shuffle_s,
        "final merge": final_merge_s,
        "final reduce": final_reduce_s,
        "idle CPU": idle_cpu_s,
        "final work's CPU": final_cpu_s,
    }
    for name, value in values.items():
        if value is not None and (math.isnan(value) or math.isinf(value) or value < 0):
            raise ValueError(f"the model's {name} must be a number >= 0 seconds, not {value}")
    final = final_merge_s + final_reduce_s
    terms = [final, exposed_shuffle_s]
    if idle_cpu_s is not None and final_cpu_s:
        terms.append(final * idle_cpu_s / final_cpu_s)
    saving = min(terms)
    return Prediction(
        saving_s=saving,
        speedup=wall_s / (wall_s - saving) if wall_s > saving else None,
        bound=BOUNDS[terms.index(saving)],
    )


def predict_stock(
    wall_s: float, b: Breakdown, cpu_by_phase: dict[str, dict[str, float]] | None = None
) -> Prediction:
    """The prediction from a stock run's (or mean of runs') wall time and breakdown, with the CPU
    term where the machine's CPU by phase (machine_cpu.by_phase) was sampled."""
    idle = final_cpu = None
    if cpu_by_phase:
        idle = cpu_by_phase["exposed_shuffle"]["idle"]
        final_cpu = cpu_by_phase["final_merge"]["busy"] + cpu_by_phase["final_reduce"]["busy"]
    return predict(
        wall_s, b["exposed_shuffle"], b["final_merge"], b["final_reduce"], idle, final_cpu
    )


def predict_baseline(baseline: dict) -> Prediction:
    """The prediction from a stock summary (aggregate.summarize): its mean wall time and
    breakdown, and its machine CPU by phase where sampled."""
    return predict_stock(
        baseline["wall_s"]["mean"], baseline["breakdown"], baseline.get("machine_cpu_by_phase")
    )
