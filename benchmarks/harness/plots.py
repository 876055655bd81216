# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""PNG figures (matplotlib, Agg backend): normalised runtime with min/max bars (Figure 5), phase
breakdown stacks (Figure 7), sensitivity curves (Figures 9-10), the regime map and one reduce's
timeline."""

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.colors import TwoSlopeNorm  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from . import catalog  # noqa: E402
from .breakdown import PHASES  # noqa: E402
from .datatypes import Record, Summary  # noqa: E402
from .profile import rounded_rate  # noqa: E402

PHASE_COLORS = {
    "startup": "#bbbbbb",
    "map": "#4c72b0",
    "exposed_shuffle": "#dd8452",
    "final_merge": "#55a868",
    "final_reduce": "#c44e52",
    "output_write": "#8172b2",
    "cleanup": "#8c8c8c",
}


def _jobs_in_order(rows: list[Summary]) -> list[str]:
    present = {s["job"] for s in rows}
    return [j for j in catalog.JOB_ORDER if j in present]


def normalized_runtime(summaries: list[Summary], set_name: str, path: Path) -> Path | None:
    rows = [s for s in summaries if s["set"] == set_name and s.get("normalized")]
    # Every config but the baseline itself (a stock config that is the faster one everywhere).
    configs = [
        c
        for c in dict.fromkeys(s["config"] for s in rows)
        if any(s["config"] == c and s["baseline"] != c for s in rows)
    ]
    jobs = _jobs_in_order(rows)
    if not jobs or not configs:
        return None
    by = {(s["job"], s["config"]): s for s in rows}
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(jobs) * max(1, len(configs)) / 1.5), 4.2))
    width = 0.8 / len(configs)
    for i, c in enumerate(configs):
        xs, ys, lo, hi = [], [], [], []
        for x, j in enumerate(jobs):
            s = by.get((j, c))
            if s:
                n = s["normalized"]
                xs.append(x + (i - (len(configs) - 1) / 2) * width)
                ys.append(n["mean"])
                lo.append(n["mean"] - n["min"])
                hi.append(n["max"] - n["mean"])
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, label=c)
    ideal = [
        (x, 1 / by[(j, configs[0])]["ideal_speedup"])
        for x, j in enumerate(jobs)
        if by.get((j, configs[0])) and by[(j, configs[0])].get("ideal_speedup")
    ]
    if ideal:
        ax.scatter(
            [x for x, _ in ideal],
            [y for _, y in ideal],
            marker="_",
            s=400,
            color="black",
            zorder=5,
            label="ideal (stock - min(exposed shuffle, final sort+reduce))",
        )
    ax.axhline(1.0, color="gray", linewidth=0.8)
    heavy = sum(1 for j in jobs if catalog.is_shuffle_heavy(j))
    if 0 < heavy < len(jobs):
        ax.axvline(heavy - 0.5, color="gray", linestyle=":")
    return _save(
        fig,
        ax,
        path,
        list(range(len(jobs))),
        jobs,
        dict(rotation=30),
        "runtime / better stock Hadoop runtime",
        f"Normalised runtime ({set_name}; bars: mean, whiskers: min-max)",
        "lower left",
    )


def _save(
    fig: Figure,
    ax: Axes,
    path: Path,
    ticks: Sequence[float],
    labels: Sequence[str],
    label_style: dict[str, Any],
    ylabel: str,
    title: str,
    legend_loc: str,
) -> Path:
    """The x labels, titles and legend every bar chart has, then the PNG."""
    ax.set_xticks(ticks)
    ax.set_xticklabels(labels, ha="right", **label_style)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=7, loc=legend_loc)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def breakdown_stacks(summaries: list[Summary], set_name: str, path: Path) -> Path | None:
    rows = [s for s in summaries if s["set"] == set_name]
    jobs = _jobs_in_order(rows)
    configs = list(dict.fromkeys(s["config"] for s in rows))
    if not jobs:
        return None
    by = {(s["job"], s["config"]): s for s in rows}
    fig, ax = plt.subplots(figsize=(max(7, 0.55 * len(jobs) * len(configs)), 4.6))
    labels, ticks, x = [], [], 0
    for j in jobs:
        for c in configs:
            s = by.get((j, c))
            if not s:
                continue
            bottom = 0
            for p in PHASES:
                v = s["breakdown"][p]
                ax.bar(
                    x,
                    v,
                    0.8,
                    bottom=bottom,
                    color=PHASE_COLORS[p],
                    label=p.replace("_", " ") if x == 0 else None,
                )
                bottom += v
            if s["partial_work_s"]:
                ax.bar(
                    x + 0.3,
                    s["partial_work_s"],
                    0.2,
                    bottom=s["breakdown"]["startup"] + s["breakdown"]["map"],
                    color="black",
                    alpha=0.6,
                    label="partial sort+reduce (overlapped)"
                    if not any(
                        label == "partial sort+reduce (overlapped)"
                        for label in ax.get_legend_handles_labels()[1]
                    )
                    else None,
                )
            labels.append(f"{j}\n{c}")
            ticks.append(x)
            x += 1
        x += 0.5
    return _save(
        fig,
        ax,
        path,
        ticks,
        labels,
        dict(rotation=60, fontsize=6),
        "seconds (mean of the repetitions)",
        f"Phase breakdown along the critical path ({set_name})",
        "upper right",
    )


def curve_points(summaries: list[Summary]) -> list[tuple[float, float, Summary]]:
    """The bandwidth curve's points: (rate, MaRCO's speedup, its summary) per job and config."""
    bw = [
        s
        for s in summaries
        if s["set"] == "bandwidth" and not catalog.is_stock(s["variant"]) and s.get("speedup")
    ]
    # The main set is one more point of the curve, at the profile's rate, against the same stock
    # config as the curve's points (the main set may have measured more than one), unless the
    # curve ran that rate itself.
    curve_base = {s["job"]: s["baseline"] for s in bw}
    swept = {(s["job"], s["config"]) for s in bw}
    measured = {(s["job"], s["config"], rounded_rate(s["rate_mbit"])) for s in bw}
    points = [(s["rate_mbit"], s["speedup"], s) for s in bw]
    return points + [
        (s["rate_mbit"], s["speedup_vs"][curve_base[s["job"]]], s)
        for s in summaries
        if s["set"] == "main"
        and s["rate_mbit"] is not None
        and (s["job"], s["config"]) in swept
        and (s["job"], s["config"], rounded_rate(s["rate_mbit"])) not in measured
        and curve_base[s["job"]] in s.get("speedup_vs", {})
    ]


def sensitivity(summaries: list[Summary], path: Path) -> Path | None:
    """Speedup of MaRCO over stock against bandwidth, start threshold and stop fraction."""
    panels = []
    points = curve_points(summaries)
    if points:
        panels.append(("bisection Mbit/s per node", points))
    for set_name, key, label in (
        ("threshold", "mapreduce.marco.start.threshold", "start threshold"),
        ("stop-fraction", "mapreduce.marco.stop.fraction", "stop fraction"),
    ):
        points = [
            (float(s["conf"][key]), s["speedup"], s)
            for s in summaries
            if s["set"] == set_name and not catalog.is_stock(s["variant"]) and s.get("speedup")
        ]
        if points:
            panels.append((label, points))
    if not panels:
        return None
    fig, axes = plt.subplots(1, len(panels), figsize=(4.5 * len(panels), 3.6), squeeze=False)
    for ax, (label, points) in zip(axes[0], panels, strict=True):
        for job, variant in sorted({(s["job"], s["variant"]) for _, _, s in points}):
            pts = sorted(
                (x, y) for x, y, s in points if s["job"] == job and s["variant"] == variant
            )
            ax.plot(
                [p[0] for p in pts], [p[1] for p in pts], marker="o", label=f"{job} ({variant})"
            )
        ax.axhline(1.0, color="gray", linewidth=0.8)
        ax.set_xlabel(label)
        ax.set_ylabel("speedup over stock (mean)")
        ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


# The model's speedups drawn as contour lines over the regime map.
MODEL_LEVELS = [1.0, 1.05, 1.1, 1.2, 1.3, 1.5, 2.0]


def regime_grid(
    cells: list[dict[str, Any]], config: str
) -> tuple[list[int], list[float], np.ndarray, np.ndarray]:
    """The cells of one config as (costs, rates, measured, model): two arrays indexed [cost,
    rate], NaN where a cell was not measured or has no model value."""
    own = [c for c in cells if c["config"] == config]
    costs = sorted({c["cost"] for c in own})
    rates = sorted({c["rate_mbit"] for c in own})
    measured = np.full((len(costs), len(rates)), np.nan)
    model = np.full((len(costs), len(rates)), np.nan)
    for c in own:
        i, j = costs.index(c["cost"]), rates.index(c["rate_mbit"])
        measured[i, j] = c["speedup"]
        model[i, j] = np.nan if c["model"] is None else c["model"]
    return costs, rates, measured, model


def regime_map(cells: list[dict[str, Any]], config: str, path: Path) -> Path | None:
    """The regime map: `config`'s measured speedup over the better stock per reduce cost and
    bisection rate as a heatmap (red: faster, blue: slower, white: equal), each cell's value
    written in it, and the model's speedup (docs/model.md, from stock's breakdown and the CPU its
    exposed shuffle left idle) as contour lines over it."""
    costs, rates, measured, model = regime_grid(cells, config)
    if not costs:
        return None
    fig, ax = plt.subplots(figsize=(1.3 * len(rates) + 2.5, 0.9 * len(costs) + 1.8))
    finite = measured[np.isfinite(measured)]
    spread = max(0.05, float(np.max(np.abs(finite - 1)))) if finite.size else 0.05
    norm = TwoSlopeNorm(vmin=1 - spread, vcenter=1.0, vmax=1 + spread)
    image = ax.imshow(
        np.ma.masked_invalid(measured), cmap="RdBu_r", norm=norm, origin="lower", aspect="auto"
    )
    fig.colorbar(image, ax=ax, label=f"measured speedup of {config} over the better stock")
    for i in range(len(costs)):
        for j in range(len(rates)):
            if np.isfinite(measured[i, j]):
                ax.text(j, i, f"{measured[i, j]:.2f}", ha="center", va="center", fontsize=8)
    if len(costs) > 1 and len(rates) > 1 and np.isfinite(model).sum() >= 4:
        lines = ax.contour(
            np.arange(len(rates)),
            np.arange(len(costs)),
            np.ma.masked_invalid(model),
            levels=MODEL_LEVELS,
            colors="black",
            linewidths=0.9,
        )
        ax.clabel(lines, fmt="model %.2f", fontsize=7)
    ax.set_xticks(range(len(rates)))
    ax.set_xticklabels([f"{r:g}" for r in rates])
    ax.set_yticks(range(len(costs)))
    ax.set_yticklabels([str(c) for c in costs])
    ax.set_xlabel("bisection Mbit/s per node")
    ax.set_ylabel("reduce cost (hash passes per value)")
    ax.set_title(
        "Where MaRCO pays: measured speedup; lines: the model's prediction from stock's runs "
        "(docs/model.md)",
        fontsize=8,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def reduce_timeline(out_dir: str | Path, record: Record, path: Path) -> Path | None:
    """One reduce of one MaRCO run: map outputs arrived over time, partial invocations as spans,
    shuffle end and final merge, against the job's map phase."""
    files = [Path(out_dir) / t for t in record.get("timelines", [])]
    if not files:
        return None
    attempts = {a["attempt"]: a for a in record["reduce_attempts"]}
    crit = max(record["reduce_attempts"], key=lambda a: a["finish"])
    chosen = next((f for f in files if crit["attempt"] in f.name), files[0])
    events = [json.loads(line) for line in chosen.read_text().splitlines() if line.strip()]
    if not events:
        return None
    t0 = record["start_ms"]
    sec = lambda ms: (ms - t0) / 1000  # noqa: E731
    arrivals = [sec(e["ts"]) for e in events if e["event"] == "arrival"]
    starts = {e["n"]: sec(e["ts"]) for e in events if e["event"] == "invocation-start"}
    ends = {
        e["n"]: (sec(e["ts"]), e.get("reduce"))
        for e in events
        if e["event"] in ("invocation-end", "invocation-failed", "invocation-abandoned")
    }
    fig, ax = plt.subplots(figsize=(8, 3.8))
    ax.step(
        arrivals,
        range(1, len(arrivals) + 1),
        where="post",
        color="#4c72b0",
        label="map outputs arrived",
    )
    top = max(len(arrivals), 1)
    for n, s in starts.items():
        e, reduced = ends.get(n, (s, None))
        ax.barh(
            -0.06 * top * (1 + (n - 1) % 3),
            e - s,
            left=s,
            height=0.05 * top,
            color="#55a868" if reduced else "#8172b2",
            label=("partial invocation" if n == min(starts) else None),
        )
    for e in events:
        if e["event"] in ("shuffle-end", "stop-point", "final-merge-start", "final-merge-end"):
            ax.axvline(
                sec(e["ts"]),
                linestyle="--",
                linewidth=0.8,
                color={
                    "shuffle-end": "#dd8452",
                    "stop-point": "gray",
                    "final-merge-start": "#c44e52",
                    "final-merge-end": "#c44e52",
                }[e["event"]],
                label=e["event"],
            )
    a = attempts.get(crit["attempt"], crit)
    ax.axvline(sec(a["finish"]), color="black", linewidth=0.8, label="reduce finished")
    ax.set_xlabel("seconds since the client started the job")
    ax.set_ylabel("map outputs")
    ax.set_title(
        f"{record['job']} / {record['config']} rep {record['rep']}: {chosen.stem}", fontsize=8
    )
    ax.legend(fontsize=6, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
