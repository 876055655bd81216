# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""`marco-bench report`: results.json + results.csv + summary.csv, the PNG figures and report.md
from a results directory (results.jsonl and sessions.json written by run/sweep/faults/main)."""

import csv
import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import (
    advisorcheck,
    aggregate,
    calibration,
    catalog,
    modelcheck,
    noise,
    plots,
    regime,
    safepoints,
)
from .breakdown import PHASES
from .datatypes import Record, SessionEntry, Summary
from .runner import load_results


def write_report(
    out_dir: str | Path, img_prefix: str = "img", mapred: Path | None = None
) -> tuple[Path, dict[str, Path]]:
    """MAPRED, the distribution's launcher, runs the advisor on the stock runs' histories for
    the model check; without it (or where it fails) the advisor's column stays empty and the
    report says why."""
    out = Path(out_dir)
    records = load_results(out / "results.jsonl")
    if not records:
        raise FileNotFoundError(
            f"no runs recorded in {out / 'results.jsonl'}: run "
            f"`marco-bench run` (or main) with --out {out} first"
        )
    sessions = (
        json.loads((out / "sessions.json").read_text()) if (out / "sessions.json").exists() else []
    )
    summaries = aggregate.summarize(records)
    sets = list(dict.fromkeys(r["set"] for r in records))
    bands = {s: noise.ranges(records, s) for s in sets if not regime.is_regime_set(s)}
    checks = modelcheck.rows(records, summaries, bands)
    advisor_note = annotate_with_advisor(out, records, checks, mapred)
    cells = regime.cells(summaries)
    (out / "results.json").write_text(
        json.dumps(
            {
                "runs": records,
                "summaries": summaries,
                "sessions": sessions,
                # JSON keys are strings: the rate as json writes it ("3.5"; "null" if unknown).
                "targets": {
                    s: {
                        json.dumps(rate): aggregate.targets(
                            summaries,
                            s,
                            rate,
                            half_bands=modelcheck.job_half_bands(bands.get(s, {}), rate),
                        )
                        for rate in aggregate.set_rates(summaries, s)
                    }
                    for s in sets
                },
                "noise": bands,
                "model_check": checks,
                "regime_cells": cells,
            },
            indent=1,
        )
    )
    write_runs_csv(records, out / "results.csv")
    write_summary_csv(summaries, out / "summary.csv")
    img = out / img_prefix
    img.mkdir(exist_ok=True)
    figures = {}
    for config in dict.fromkeys(c["config"] for c in cells):
        figures[f"regime-{config}"] = plots.regime_map(cells, config, img / f"regime-{config}.png")
    for s in sets:
        if s in ("bandwidth", "threshold", "stop-fraction") or regime.is_regime_set(s):
            continue
        figures[f"normalized-{s}"] = plots.normalized_runtime(
            summaries, s, img / f"normalized-{s}.png"
        )
        figures[f"breakdown-{s}"] = plots.breakdown_stacks(summaries, s, img / f"breakdown-{s}.png")
    figures["sensitivity"] = plots.sensitivity(summaries, img / "sensitivity.png")
    timeline_run = pick_timeline_run(records)
    if timeline_run:
        figures["timeline"] = plots.reduce_timeline(out, timeline_run, img / "timeline.png")
    figures = {k: v for k, v in figures.items() if v}
    (out / "report.md").write_text(
        markdown(records, summaries, bands, sessions, figures, out, checks, cells, advisor_note)
    )
    return out / "report.md", figures


def pick_timeline_run(records: list[Record]) -> Record | None:
    """The first ok MaRCO run of the most shuffle-heavy job measured, with timelines."""
    candidates = [
        r
        for r in records
        if r["status"] == "ok"
        and r["variant"] == "marco"
        and r.get("timelines")
        and not r.get("fault")
    ]
    if not candidates:
        return None
    return max(candidates, key=lambda r: (r["shuffle_heavy"], r["shuffle_bytes"], -r["rep"]))


RUN_COLUMNS = [
    "key",
    "set",
    "rate_mbit",
    "job",
    "config",
    "variant",
    "rep",
    "status",
    "wall_s",
    *PHASES,
    "shuffle_bytes",
    "bisection_bytes",
    "task_cpu_s",
    "map_output_bytes",
    "peak_reduce_memory_bytes",
    "maps",
    "maps_by_node",
    "am_nodes",
    "data_local_maps",
    "invocations",
    "partial_sort_millis",
    "partial_reduce_millis",
    "adaptive_disables",
    "fetch_wait_s",
    "fetch_stalls",
    "fetches_to_disk",
    "merge_manager_wait_s",
    *safepoints.SUMMARY_KEYS,
    "link_slack_s",
    "failed_attempts",
    "killed_attempts",
    "retries_without_partial_work",
    "output_sha256",
    "job_ids",
    "command",
]


def write_runs_csv(records: list[Record], path: Path) -> None:
    sp_keys = set(safepoints.SUMMARY_KEYS)
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(RUN_COLUMNS)
        for r in records:
            flat = {
                **r,
                **r.get("breakdown", {}),
                **r.get("marco", {}),
                "job_ids": " ".join(r.get("job_ids", [])),
                "maps_by_node": " ".join(
                    f"{host}:{n}" for host, n in r.get("maps_by_node", {}).items()
                ),
                "am_nodes": " ".join(r.get("am_nodes", [])),
                **{k: v for k, v in (r.get("safepoints") or {}).items() if k in sp_keys},
                "task_cpu_s": (
                    sum(r["task_cpu_s_by_node"].values()) if "task_cpu_s_by_node" in r else ""
                ),
            }
            w.writerow([flat.get(c, "") for c in RUN_COLUMNS])


def write_summary_csv(summaries: list[Summary], path: Path) -> None:
    cols = [
        "set",
        "rate_mbit",
        "job",
        "config",
        "runs",
        "wall_mean",
        "wall_min",
        "wall_max",
        "speedup",
        "ideal_speedup",
        "fraction_of_ideal",
        *PHASES,
        "partial_work_s",
        "fetch_wait_s",
        "merge_manager_wait_s",
        *safepoints.SUMMARY_KEYS,
        "link_slack_s",
        "shuffle_bytes",
        "bisection_bytes",
        "task_cpu_s",
        "busiest_node_cpu_s",
        "peak_reduce_memory_bytes",
        "identical_to_stock",
    ]
    sp_keys = set(safepoints.SUMMARY_KEYS)
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for s in summaries:
            flat = {
                **s,
                **s["breakdown"],
                **{k: v for k, v in (s.get("safepoints") or {}).items() if k in sp_keys},
                "wall_mean": s["wall_s"]["mean"],
                "wall_min": s["wall_s"]["min"],
                "wall_max": s["wall_s"]["max"],
            }
            w.writerow([flat.get(c, "") for c in cols])


def f1(x: float | None, unit: str = "") -> str:
    return "–" if x is None else f"{x:.1f}{unit}"


def f2(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}"


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.0f}%"


def share(x: float) -> str:
    """A share of deals, to a tenth of a percent: the verdicts' line is 5.0%."""
    return f"{100 * x:.1f}%"


def mb(x: float | None) -> str:
    return "–" if x is None else f"{x / 1e6:.1f}"


def cpu_cell(summary: Summary) -> str:
    """All tasks' CPU seconds, and the busiest node's in brackets."""
    if summary.get("task_cpu_s") is None:
        return "–"
    return f"{summary['task_cpu_s']:.0f} ({summary['busiest_node_cpu_s']:.0f})"


def markdown(
    records: list[Record],
    summaries: list[Summary],
    bands: dict[str, dict],
    sessions: list[SessionEntry],
    figures: dict[str, Path],
    out: Path,
    checks: list[dict] | None = None,
    cells: list[dict] | None = None,
    advisor_note: str = "",
) -> str:
    lines = ["# marco-bench report", ""]
    failed = [r for r in records if r["status"] != "ok"]
    ok = [r for r in records if r["status"] == "ok"]
    lines += [
        f"{len(records) - len(failed)} runs ok, {len(failed)} failed; results in "
        f"`results.jsonl` (one line per run), `results.json`, `results.csv`, `summary.csv`.",
        # A partial reducer that runs a reduce out of memory shows as a failed attempt and a
        # retry without partial work, in a run that still succeeds.
        f"Task attempts that failed in the runs that succeeded: "
        f"{sum(r.get('failed_attempts', 0) for r in ok)}; reduce attempts retried without "
        f"partial work: "
        f"{sum(r.get('marco', {}).get('retries_without_partial_work', 0) for r in ok)}.",
        "Every number below is the mean over the repetitions with [min–max]; runs of "
        "different variants were interleaved on the same data and cluster.",
        "",
    ]
    lines += environment_section(sessions)
    lines += probe_section(out)
    lines += example_commands(records)
    sets = [s for s in dict.fromkeys(s["set"] for s in summaries) if not regime.is_regime_set(s)]
    explained = False
    for set_name in sets:
        lines += set_section(set_name, summaries, figures, bands.get(set_name, {}))
        lines += stock_baselines_section(records, summaries, set_name)
        lines += noise_section(bands.get(set_name, {}), set_name, explain=not explained)
        explained = explained or bool(bands.get(set_name))
    lines += model_check_section(checks or [], advisor_note)
    lines += reducer_kinds_section(summaries, sets)
    lines += regime_map_section(cells or [], figures, out)
    lines += regime_section(records, sessions)
    lines += fault_section(records, summaries)
    if "sensitivity" in figures:
        lines += ["## Sensitivity", "", f"![sensitivity]({rel(figures['sensitivity'], out)})", ""]
    if "timeline" in figures:
        lines += [
            "## One reduce's timeline",
            "",
            "Map outputs arriving (step line), partial invocations (green: sort+reduce, "
            "purple: sort only), stop point, shuffle end and final merge of the reduce that "
            "finished last in one MaRCO run.",
            "",
            f"![timeline]({rel(figures['timeline'], out)})",
            "",
        ]
    if failed:
        lines += ["## Failed runs", ""]
        for r in failed:
            first = (r.get("error") or "").splitlines()[:1]
            lines.append(f"- `{r['key']}`: {first[0] if first else 'unknown error'}")
        lines.append("")
    return "\n".join(lines) + "\n"


def rel(path: str | Path, out: Path) -> str:
    return str(Path(path).relative_to(out))


def environment_section(sessions: list[SessionEntry]) -> list[str]:
    lines = ["## Environment and commands", ""]
    if not sessions:
        return lines + ["(no session information recorded)", ""]
    env = sessions[-1]["environment"]
    lines += [
        f"- machine: {env.get('cores')} cores, {env.get('memory_gib')} GiB memory, "
        f"kernel {env.get('kernel')}, {env.get('java')}",
        f"- cluster: {env.get('cluster')}",
        f"- profile: `{env.get('profile')}`; git commit {env.get('git_commit')}",
        "",
    ]
    lines += ["Commands (in order, with their wall time):", "", "```"]
    for i, s in enumerate(sessions, 1):
        took = f"   # {s['seconds']:.0f} s" if s.get("seconds") is not None else "   # interrupted"
        lines.append(f"[{i}] {s['command']}{took}  ({s['started']})")
    lines += ["```", ""]
    timed = [(i, s) for i, s in enumerate(sessions, 1) if s.get("phases")]
    if timed:
        lines += ["Where the time went:", "", "| command | step | seconds |", "|---|---|---|"]
        for i, s in timed:
            for step, secs in s["phases"].items():
                lines.append(f"| [{i}] | {step} | {secs:.0f} |")
        lines.append("")
    return lines


def probe_section(out: Path) -> list[str]:
    """How `main` picked its rate, where its calibration probe did (calibration.json)."""
    path = out / "calibration.json"
    cal = json.loads(path.read_text()) if path.exists() else {}
    if not cal.get("probe_job") or not cal.get("rows"):
        return []
    row = cal["rows"][0]
    limit = calibration.network_bound_limit(row)
    return [
        "## The rate main picked",
        "",
        f"`main` ran at **{cal['chosen_rate_mbit']} Mbit/s** per node between the groups. Its "
        f"calibration probe, one stock run of {cal['probe_job']} at the profile's "
        f"{cal['profile_rate_mbit']} Mbit/s after the warm-up (set `calibration`), had a map "
        f"phase of {f1(row['map_s'])} s, and what a node receives from the other groups needed "
        f"{f1(row['network_s'])} s at that rate: the link needs at least the map phase at "
        f"{limit:.2f} Mbit/s or less, rounded down to a multiple of {calibration.RATE_STEP} "
        f"(the regime test's network-bound half, below). The probe's hideable share was "
        f"{pct(row['hideable_share'])} (the test asks {pct(calibration.MIN_HIDEABLE_SHARE)}), "
        f"its start-up {pct(row['startup_share'])} (under "
        f"{pct(calibration.MAX_STARTUP_SHARE)}). The bandwidth curve's rates are multiples of "
        "this rate.",
        "",
    ]


def annotate_with_advisor(
    out: Path, records: list[Record], checks: list[dict], mapred: Path | None
) -> str:
    """Adds the advisor's predictions to the model check's rows (advisorcheck.annotate); returns
    the sentence that says why it could not, or "" where it did."""
    if not checks:
        return ""
    if mapred is None:
        return "The advisor was not run: no distribution was given."
    if not mapred.exists():
        return f"The advisor was not run: no {mapred} (build the distribution first)."
    try:
        advisorcheck.annotate(out, records, checks, mapred)
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
        return f"The advisor was not run: {e}."
    return ""


def model_check_section(checks: list[dict], advisor_note: str = "") -> list[str]:
    """The model's prediction from the stock runs against the speedup measured
    (modelcheck.rows), per job and config, with the advisor's from the same runs' histories."""
    if not checks:
        return []
    lines = [
        "## Model check (prediction from the stock runs vs measured)",
        "",
        "The model of docs/model.md, from the better stock baseline's mean breakdown and, where "
        "the machine's CPU was sampled, the core-seconds its exposed shuffle left idle against "
        "those its final merge and reduce kept busy (`CPU term`). `noise ±` is half the width "
        "of the 5-95% band that noise alone gives the speedup (see the noise sections); a "
        "measured speedup agrees when it is within that or "
        f"{modelcheck.TOLERANCE_FLOOR}, whichever is wider, of the prediction. `advisor` is "
        "`mapred marco-advise` on the baseline runs' own job histories (mean of its per-run "
        "predictions), as an operator would run it before deploying MaRCO.",
        "",
        *table_head(
            [
                "set",
                "Mbit/s",
                "job",
                "config",
                "baseline (runs)",
                "predicted saving s",
                "predicted",
                "bound",
                "CPU term",
                "measured (runs)",
                "measured - predicted",
                "noise ±",
                "within",
                "advisor (histories)",
                "advisor within",
            ]
        ),
    ]
    for c in checks:
        error = "–" if c["error"] is None else f"{c['error']:+.3f}"
        half = "–" if c["noise_half_band"] is None else f"{c['noise_half_band']:.3f}"
        advisor = (
            "–"
            if c.get("advisor_speedup") is None
            else f"{c['advisor_speedup']:.2f} ({c['advisor_histories']})"
        )
        advisor_within = (
            "–" if c.get("advisor_speedup") is None else "yes" if c["advisor_within"] else "**no**"
        )
        lines.append(
            f"| {c['set']} | {c['rate_mbit']} | {c['job']} | {c['config']} | "
            f"{c['baseline']} ({c['stock_runs']}) | {f1(c['predicted_saving_s'])} | "
            f"{f2(c['predicted_speedup'])} | {c['bound']} | {'yes' if c['cpu_term'] else 'no'} | "
            f"{c['measured_speedup']:.2f} ({c['runs']}) | {error} | {half} | "
            f"{'yes' if c['within'] else '**no**'} (±{c['tolerance']:.3f}) | {advisor} | "
            f"{advisor_within} |"
        )
    agree = sum(c["within"] for c in checks)
    advised = [c for c in checks if c.get("advisor_speedup") is not None]
    summary = [f"{agree} of {len(checks)} within their tolerance."]
    if advised:
        summary.append(
            f"The advisor: {sum(c['advisor_within'] for c in advised)} of {len(advised)} "
            "within the same tolerance."
        )
    if advisor_note:
        summary.append(advisor_note)
    return [*lines, "", " ".join(summary), ""]


def regime_section(records: list[Record], sessions: list[SessionEntry]) -> list[str]:
    """The regime test (calibration.py) applied to every fault-free stock run of the directory,
    per (set, rate, job, config), means over the repetitions."""
    shape = cluster_shape(sessions)
    runs = [
        r
        for r in records
        if r["status"] == "ok" and catalog.is_stock(r["variant"]) and not r.get("fault")
    ]
    if not shape or not runs:
        return []
    groups = {}
    for r in runs:
        groups.setdefault((r["set"], r["rate_mbit"], r["job"], r["config"]), []).append(
            calibration.assess(r, *shape)
        )
    lines = [
        "## Regime test (stock's own breakdown)",
        "",
        "Per stock run: the seconds the shaped link needs for what one node receives from "
        "the other groups (network), against the map phase; the hideable final merge + "
        "final reduce as a share of the job; the start-up share. Passes: network >= map, "
        f"hideable >= {pct(calibration.MIN_HIDEABLE_SHARE)}, start-up < "
        f"{pct(calibration.MAX_STARTUP_SHARE)} (see docs/harness.md).",
        "",
        "| set | Mbit/s | job | config | runs | wall s | map s | network s | exposed shuffle s "
        "| hideable | start-up | passes |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for (set_name, rate, job, config), rows in sorted(
        groups.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0, kv[0][2], kv[0][3])
    ):
        m = {
            k: aggregate.mean([row[k] for row in rows])
            for k in (
                "wall_s",
                "map_s",
                "network_s",
                "exposed_shuffle_s",
                "hideable_share",
                "startup_share",
            )
        }
        verdict = "yes" if all(row["passes"] for row in rows) else "no"
        lines.append(
            f"| {set_name} | {rate} | {job} | {config} | {len(rows)} | {f1(m['wall_s'])} | "
            f"{f1(m['map_s'])} | {f1(m['network_s'])} | {f1(m['exposed_shuffle_s'])} | "
            f"{pct(m['hideable_share'])} | {pct(m['startup_share'])} | {verdict} |"
        )
    return lines + [""]


def cluster_shape(sessions: list[SessionEntry]) -> tuple[int, int] | None:
    """(workers, groups) of the last session's cluster, or None where it was not recorded
    (sessions of older harness versions say it only in words: "4 workers in 2 groups")."""
    env = sessions[-1].get("environment", {}) if sessions else {}
    if "workers" in env and "groups" in env:
        return env["workers"], env["groups"]
    said = re.search(r"(\d+) workers in (\d+) groups", env.get("cluster", ""))
    return (int(said[1]), int(said[2])) if said else None


def fault_section(records: list[Record], summaries: list[Summary]) -> list[str]:
    """What each fault run injected, whether it hit a running attempt, and its output check."""
    runs = [r for r in records if r.get("fault") and r["status"] == "ok"]
    if not runs:
        return []
    identical = {
        (s["set"], s["rate_mbit"], s["job"], s["config"]): s.get("identical_to_stock")
        for s in summaries
    }
    lines = [
        "## Fault runs",
        "",
        "| run | wall s | injected | took effect | output = stock |",
        "|---|---|---|---|---|",
    ]
    for r in runs:
        if r["fault"] == "kill-reduce":
            f = r.get("fault_injected") or {}
            what = (
                f"killed {f['killed']} at {f['at_s']} s"
                if f.get("killed")
                else f"nothing ({f.get('why', 'no attempt found')})"
            )
            effect = "yes" if f.get("took_effect") else "no (the attempt had ended)"
        else:
            what = f"partial invocation failures: {r['marco']['failed_invocations']}"
            effect = "yes" if r["marco"]["failed_invocations"] > 0 else "no"
        same = identical.get((r["set"], r["rate_mbit"], r["job"], r["config"]))
        lines.append(
            f"| `{r['key']}` | {r['wall_s']:.1f} | {what} | {effect} | "
            f"{'yes' if same else '**NO**'} |"
        )
    return lines + [""]


# The absolute part of a path to the repository's cluster script or distribution: it says only
# where the repository was checked out, so the report gives those paths relative to it.
CHECKOUT_PREFIX = re.compile(r"(?<![\w.-])/\S*?/(?=cluster/marco-cluster|dist/hadoop-marco-)")


def repo_relative(command: str) -> str:
    """The command with the repository's own scripts and distribution named from its root."""
    return CHECKOUT_PREFIX.sub("", command)


def example_commands(records: list[Record]) -> list[str]:
    """The exact job command of the first run of each variant (every run's is in results.csv)."""
    firsts = {}
    for r in records:
        firsts.setdefault(r["variant"], r)
    if not firsts:
        return []
    lines = [
        "Exact job command of the first run of each variant (every run's command is in "
        "`results.csv`):",
        "",
    ]
    for variant, r in firsts.items():
        lines += [
            f"- {variant} (`{r['key']}`):",
            "",
            "  ```",
            f"  {repo_relative(r['command'])}",
            "  ```",
            "",
        ]
    return lines


def ratio(part: float, whole: float) -> str:
    return f"{part / whole:.3f}" if whole else "–"


def volume_table(stock_rows: list[Summary]) -> list[str]:
    """The paper's shuffle-heavy/light split as measured: bytes the maps wrote (before the
    combiner) and the reduces fetched (after it), per byte the job read."""
    if not stock_rows:
        return []
    lines = [
        "Shuffle volume (stock as shipped; map output bytes before the combiner, shuffle bytes as "
        "the reduces fetched them, both per input byte read from HDFS):",
        "",
        "| job | class | input MB | map output / input | shuffle / input | output records |",
        "|---|---|---|---|---|---|",
    ]
    for s in stock_rows:
        read = s.get("input_bytes") or 0
        lines.append(
            f"| {s['job']} | {'heavy' if s['shuffle_heavy'] else 'light'} | {mb(read)} | "
            f"{ratio(s['map_output_bytes'], read)} | {ratio(s['shuffle_bytes'], read)} | "
            f"{s.get('output_records', 0):.0f} |"
        )
    return [*lines, ""]


def table_head(columns: list[str]) -> list[str]:
    """A markdown table's header and separator lines."""
    return ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]


def phase_names(phases: list[str]) -> list[str]:
    return [p.replace("_", " ") for p in phases]


def savings_table(rows: list[Summary]) -> list[str]:
    """Where each non-stock config's difference from the better stock baseline came from, phase
    by phase, and how much of the baseline's final merge plus reduce it hid: what a missed aim
    is explained by."""
    rows = [s for s in rows if s.get("saved_by_phase") and not catalog.is_stock(s["variant"])]
    if not rows:
        return []
    phases = list(rows[0]["saved_by_phase"])
    lines = [
        "Where the difference from the better stock baseline came from (mean seconds the phase "
        "took less than in the baseline, negative where it took more; they add up to the "
        "difference in wall time). The last column is the share of the baseline's final merge "
        "plus final reduce that no longer runs after the shuffle; what stays is the config's "
        "own final pass (for MaRCO, merging and re-reducing its partial results):",
        "",
        *table_head(
            [
                "job",
                "config",
                "baseline",
                *phase_names(phases),
                "wall",
                "final merge + reduce hidden",
            ]
        ),
    ]
    for s in rows:
        saved = s["saved_by_phase"]
        lines.append(
            f"| {s['job']} | {s['config']} | {s['baseline']} | "
            + " | ".join(f"{saved[p]:+.1f}" for p in phases)
            + f" | {sum(saved.values()):+.1f} | {pct(s.get('final_phase_hidden'))} |"
        )
    return [*lines, ""]


def per_config_table(
    rows: list[Summary],
    key: str,
    intro: str,
    columns: list[str],
    cells: Callable[[dict], list[str]],
) -> list[str]:
    """A table of the configs whose summary has `key`, after its introduction: job, config, the
    runs that had it, then cells(summary[key]); nothing where no config has it."""
    rows = [s for s in rows if s.get(key)]
    if not rows:
        return []
    lines = [intro, "", *table_head(["job", "config", "runs", *columns])]
    for s in rows:
        lines.append(
            f"| {s['job']} | {s['config']} | {s[key]['runs']} | " + " | ".join(cells(s[key])) + " |"
        )
    return [*lines, ""]


def safepoint_table(rows: list[Summary]) -> list[str]:
    """Time to safepoint in the reduces (safepoints.py), per config: how long the reduce JVMs'
    threads took to stop for a garbage collection or another VM operation, while every other
    thread of the JVM stood still."""
    return per_config_table(
        rows,
        "safepoints",
        "Time to safepoint in the reduces (median over the runs, in ms, from each reduce JVM's "
        "safepoint log): the largest time any reduce of a run waited for its last thread to "
        "stop for a VM operation, and per reduce the safepoints, their time to safepoint and "
        "their time at safepoint (the operations themselves, mostly garbage collection), "
        "summed. All of the JVM's other threads stand still for both:",
        [
            "largest time to safepoint",
            "safepoints per reduce",
            "time to safepoint per reduce",
            "time at safepoint per reduce",
        ],
        lambda sp: [
            f2(sp["ttsp_max_ms"]),
            f"{sp['count_per_reduce']:.0f}",
            f2(sp["ttsp_per_reduce_ms"]),
            f2(sp["at_safepoint_per_reduce_ms"]),
        ],
    )


def link_lag_table(rows: list[Summary]) -> list[str]:
    """When the link slack arose (linklag.py), per config with logged arrivals: on the job's
    busiest cross-group link, how far the arrivals trailed the shaped rate when the maps ended
    and at the end, and how full the link ran after the maps ended."""
    return per_config_table(
        rows,
        "link_lag",
        "When the link slack arose (median over the runs whose reduces logged their arrivals: "
        "MaRCO's and the stock variants', not `hadoop`'s): on the job's "
        "binding link, the cross-group link that needed longest, how many seconds its arrivals "
        "trailed a link carrying each at the shaped rate once it was ready, when the last map "
        "ended and at its last arrival, and the rate it carried bytes at after the last map "
        "ended, over the shaped rate:",
        ["lag when the maps ended", "lag at the end", "rate after"],
        lambda lag: [
            f1(lag["lag_at_map_end_s"]),
            f1(lag["final_lag_s"]),
            f2(lag["rate_after_maps"]),
        ],
    )


def machine_cpu_table(rows: list[Summary]) -> list[str]:
    """The machine's CPU in the phases partial work is about: what the map phase and the exposed
    shuffle left idle (all that work at a low priority could have had there), what ran at a
    positive nice value (MaRCO's partial threads), and what the final merge and reduce kept busy
    (the work there was to hide)."""
    rows = [s for s in rows if s.get("machine_cpu_by_phase")]
    if not rows:
        return []
    lines = [
        "The machine's CPU by phase (mean core-seconds, from /proc/stat on the host, which all "
        "the nodes share): idle is what any work at a low priority could still have had, busy "
        "everything else, and nice, part of busy, the user time of threads at a positive nice "
        "value (MaRCO's partial threads run at nice 19):",
        "",
        *table_head(
            [
                "job",
                "config",
                "map: idle / nice",
                "exposed shuffle: idle / nice",
                "final merge + reduce: busy / idle",
                "whole run: nice",
            ]
        ),
    ]
    for s in rows:
        cpu = s["machine_cpu_by_phase"]
        final = {k: sum(cpu[p][k] for p in aggregate.FINAL_PHASES) for k in ("busy", "idle")}
        lines.append(
            f"| {s['job']} | {s['config']} | {f1(cpu['map']['idle'])} / {f1(cpu['map']['nice'])} | "
            f"{f1(cpu['exposed_shuffle']['idle'])} / {f1(cpu['exposed_shuffle']['nice'])} | "
            f"{f1(final['busy'])} / {f1(final['idle'])} | "
            f"{f1(sum(c['nice'] for c in cpu.values()))} |"
        )
    return [*lines, ""]


def noise_explanation() -> list[str]:
    """How the noise sections' bands are made and how to read their verdicts."""
    return [
        "Each job's wall times dealt out to its configs again within their repetition blocks "
        "(a block runs every config once, close in time, in a drawn order), every deal, or "
        f"{noise.SAMPLES} random ones where there are more than {noise.EXACT_LIMIT}: the speedups "
        "MaRCO would show over the better stock if every variant ran the job equally fast "
        "(`hadoop`, a reference compared with the stocks below, is dealt only where it is the "
        "faster stock). "
        "Dealing within blocks keeps the machine's drift from one block to the next out of the "
        "deals. Where the blocks are too few for that to show anything (two configs need 5, "
        "three need 3), the job's runs are dealt across the set, each config keeping its number "
        "of runs: drift only widens those deals. "
        f"`faster` or `slower`: at most {noise.SIGNIFICANCE:.0%} of the deals reach the "
        "measured speedup on that side, so it is unlikely from noise alone; `within noise`: the "
        "runs do not tell the variants apart (with no difference at all, about one job in ten "
        "still lands outside); `too few runs to tell`: not even the most extreme deal is that "
        "rare. The geometric means combine one random "
        f"deal of every job, {noise.SAMPLES} times.",
        "",
    ]


def noise_section(by_rate: dict, set_name: str, explain: bool = True) -> list[str]:
    """MaRCO's speedups in the set against the band the machine's noise alone gives them
    (`noise.ranges` of the set); with `explain`, how the band is made and read (the report's
    first such section says it once)."""
    if not by_rate:
        return []
    lines = [f"### What noise alone gives (set `{set_name}`, MaRCO vs the better stock)", ""]
    lines += (
        noise_explanation()
        if explain
        else ["Made and read as in the first section of this name above.", ""]
    )
    for rate, r in by_rate.items():
        rows = sorted(r["jobs"].items(), key=lambda item: catalog.JOB_ORDER.index(item[0]))
        rows += [("all jobs, geometric mean", r["geomean"])]
        if r["heavy_geomean"]:
            rows += [("shuffle-heavy jobs, geometric mean", r["heavy_geomean"])]
        lines += [f"At {rate} Mbit/s between groups:", ""]
        lines += table_head(
            [
                "job",
                "speedup",
                f"noise alone: {noise.LOW:.0%}",
                "median",
                f"{noise.HIGH:.0%}",
                "deals at or above / below it",
                "dealt",
                "shown",
            ]
        )
        lines += [
            f"| {job} | {b['speedup']:.3f} | {b['low']:.3f} | {b['median']:.3f} | "
            f"{b['high']:.3f} | {share(b['share_at_or_above'])} / "
            f"{share(b['share_at_or_below'])} | {b['dealt'] or 'each job as above'} | "
            f"{b['beyond_noise'] or 'within noise'} |"
            for job, b in rows
        ]
        floor = aggregate.LIGHT_FLOOR
        shares = [f"every job at {floor} or more in {share(r['every_job_at_least_floor'])}"]
        if r["light_at_least_floor"] is not None:
            shares.append(f"every shuffle-light job in {share(r['light_at_least_floor'])}")
        lines += ["", f"With noise alone, of the combined deals: {'; '.join(shares)}.", ""]
        if r["two_stocks"]:
            lines += [
                "The median is below 1 where the runs spread: the faster of two stock configs "
                "is the baseline, and the lower of two noisy means is lower than either "
                "config's own.",
                "",
            ]
    return lines


def ideal_share_text(v: dict[str, Any]) -> str:
    """ "84% ± 38% of it": a job's share of its ideal gain and its noise band."""
    band = "" if v["band"] is None else f" ± {pct(v['band'])}"
    return f"{pct(v['share'])}{band} of it"


def aims_lines(t: dict, where: str) -> list[str]:
    """The aims section of one set at one rate (`aggregate.targets`); `where` names the rate
    when the set has several."""
    if t["heavy_geomean_speedup"] is None and not t["light_at_least_floor"]:
        return []
    return [
        f"### Aims{where} (MaRCO vs the better stock baseline)",
        "",
        f"- shuffle-heavy geometric-mean speedup: {f2(t['heavy_geomean_speedup'])} "
        f"(aim >= {aggregate.HEAVY_GEOMEAN_AIM}: "
        f"{'met' if t['heavy_geomean_met'] else 'not met'}); the ideal, every heavy job's "
        f"final merge and reduce hidden: {f2(t['heavy_ideal_geomean_speedup'])}",
        f"- shuffle-heavy jobs at >= {pct(aggregate.IDEAL_SHARE_AIM)} of their ideal gain, "
        "held to the noise band of their speedup: "
        + (
            ", ".join(
                f"{j} {v['verdict'] or '–'} ({ideal_share_text(v)}; "
                f"final merge + reduce hidden: {pct(t['heavy_final_phase_hidden'][j])})"
                for j, v in t["heavy_ideal_share"].items()
            )
            or "–"
        ),
        f"- shuffle-light jobs at >= {aggregate.LIGHT_FLOOR}: "
        + (
            ", ".join(f"{j} {'yes' if v else 'no'}" for j, v in t["light_at_least_floor"].items())
            or "–"
        ),
        f"- MaRCO's map phase vs the baseline's, mean over jobs: "
        f"{f2(t['map_phase_ratio'])} (aim <= {aggregate.MAP_PHASE_SLACK}: "
        f"{'met' if t['map_phase_met'] else 'not met'})",
        f"- every variant's output identical to stock: {'yes' if t['all_identical'] else 'NO'}",
        "",
    ]


def set_section(
    set_name: str, summaries: list[Summary], figures: dict[str, Path], set_bands: dict[Any, Any]
) -> list[str]:
    rows = [s for s in summaries if s["set"] == set_name]
    lines = [f"## Set `{set_name}`", ""]
    rates = aggregate.set_rates(summaries, set_name)
    for rate in rates:
        rr = sorted(
            [s for s in rows if s["rate_mbit"] == rate],
            key=lambda s: (
                catalog.JOB_ORDER.index(s["job"]),
                not catalog.is_stock(s["variant"]),
                s["config"],
            ),
        )
        lines += [
            f"### Runtime at {rate} Mbit/s between groups",
            "",
            "| job | class | reducers | config | runs | wall s mean [min–max] | speedup vs better "
            "stock | speedup vs each stock | ideal speedup | of ideal | map phase vs baseline | "
            "shuffle MB | bisection MB | task CPU s (busiest node) | peak reduce MB | "
            "output = stock |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for s in rr:
            w = s["wall_s"]
            is_base = s.get("baseline") == s["config"]
            # MaRCO's columns (ideal reached, map phase) say nothing about a stock config.
            is_stock = catalog.is_stock(s["variant"])
            ident = (
                "(baseline)"
                if is_base
                else (
                    "yes"
                    if s.get("identical_to_stock")
                    else (
                        "stock runs differ" if not s.get("stock_outputs_agree", True) else "**NO**"
                    )
                )
            )
            if is_base and not s.get("stock_outputs_agree", True):
                ident = "**stock runs differ**"
            each = ", ".join(
                f"{c} {f2(v)}" for c, v in s.get("speedup_vs", {}).items() if c != s["config"]
            )
            lines.append(
                f"| {s['job']} | {'heavy' if s['shuffle_heavy'] else 'light'} | "
                f"{s.get('reducers', 'efficient')} | {s['config']} | {s['runs']} | "
                f"{w['mean']:.1f} [{w['min']:.1f}–{w['max']:.1f}] | "
                f"{'' if is_base else f2(s.get('speedup'))} | {each} | "
                f"{f2(s.get('ideal_speedup')) if is_base else ''} | "
                f"{'' if is_stock else pct(s.get('fraction_of_ideal'))} | "
                f"{'' if is_stock else f2(s.get('map_phase_ratio'))} | "
                f"{mb(s['shuffle_bytes'])} | {mb(s.get('bisection_bytes'))} | "
                f"{cpu_cell(s)} | {mb(s['peak_reduce_memory_bytes'])} | {ident} |"
            )
        lines += [
            "",
            "Phase breakdown (mean seconds along the critical path; the phases add up to "
            "the wall time; partial work runs overlapped with the shuffle; fetch wait is the "
            "time fetchers were blocked waiting for shuffle memory, summed over every fetcher "
            "of every reduce; manager wait, summed likewise, the time fetchers waited to enter "
            "the merge manager to reserve, commit or release a map output; link slack is how "
            "much later than the throttled links allowed, given where the maps ran, the last "
            "shuffle ended):",
            "",
            *table_head(
                [
                    "job",
                    "config",
                    *phase_names(PHASES),
                    "sum",
                    "wall",
                    "partial sort+reduce",
                    "invocations",
                    "fetch wait",
                    "manager wait",
                    "link slack",
                ]
            ),
        ]
        for s in rr:
            b = s["breakdown"]
            lines.append(
                f"| {s['job']} | {s['config']} | "
                + " | ".join(f1(b[p]) for p in PHASES)
                + f" | {f1(sum(b.values()))} | {f1(s['wall_s']['mean'])} | "
                f"{f1(s['partial_work_s'])} | {f1(s['invocations'])} | "
                f"{f1(s.get('fetch_wait_s'))} | {f1(s.get('merge_manager_wait_s'))} | "
                f"{f1(s.get('link_slack_s'))} |"
            )
        lines.append("")
        lines += safepoint_table(rr)
        lines += link_lag_table(rr)
        lines += savings_table(rr)
        lines += machine_cpu_table(rr)
        lines += volume_table([s for s in rr if s["variant"] == "stock"])
    for rate in rates:
        where = f" at {rate} Mbit/s between groups" if len(rates) > 1 else ""
        half_bands = modelcheck.job_half_bands(set_bands, rate)
        lines += aims_lines(
            aggregate.targets(summaries, set_name, rate, half_bands=half_bands), where
        )
    for kind in ("normalized", "breakdown"):
        key = f"{kind}-{set_name}"
        if key in figures:
            lines += [f"![{key}]({Path(figures[key]).parent.name}/{Path(figures[key]).name})", ""]
    return lines


def stock_baselines_section(
    records: list[Record], summaries: list[Summary], set_name: str
) -> list[str]:
    """Hadoop as shipped beside this project's stock variants, where the set ran it: each
    one's wall time, and each stock variant's speedup over `hadoop` with the band the noise of
    those two configs' runs alone gives it (noise.pair_ranges)."""
    rows = [
        s
        for s in summaries
        if s["set"] == set_name and catalog.is_stock(s["variant"]) and not s.get("fault")
    ]
    if not any(s["variant"] == "hadoop" for s in rows):
        return []
    ours = [c for c in catalog.STOCK_VARIANTS if c != "hadoop"]
    bands = {c: noise.pair_ranges(records, set_name, c, "hadoop") for c in ours}
    lines = [
        f"### Stock baselines side by side (set `{set_name}`)",
        "",
        "`hadoop` is Hadoop as shipped: its MRAppMaster, Shuffle and MergeManagerImpl, none of "
        "this project's jars on the AppMaster's or the tasks' classpath, none of its settings "
        "(checked per run from the job's configuration and counters). `stock` is Hadoop's "
        "Shuffle under this project's AppMaster with its fetch waits counted, `stock-early` "
        "the same with reduces requested from the first map on. Each stock variant's speedup "
        "over `hadoop`, with the 5%-95% band of the speedups that dealing the two configs' runs "
        "again within their blocks gives (read as in the noise sections):",
        "",
        *table_head(
            ["Mbit/s", "job", *(f"{c} wall s" for c in catalog.STOCK_VARIANTS)]
            + [f"{c} vs hadoop [noise band]" for c in ours]
            + [f"{c}: shown" for c in ours]
        ),
    ]
    by = {(s["rate_mbit"], s["job"], s["config"]): s for s in rows}
    for rate in aggregate.set_rates(rows, set_name):
        jobs = [j for j in catalog.JOB_ORDER if (rate, j, "hadoop") in by]
        for job in jobs:
            walls = []
            for c in catalog.STOCK_VARIANTS:
                w = by[(rate, job, c)]["wall_s"] if (rate, job, c) in by else None
                walls.append(f"{w['mean']:.1f} [{w['min']:.1f}–{w['max']:.1f}]" if w else "–")
            pairs, shown = [], []
            for c in ours:
                b = bands[c].get(rate, {}).get(job)
                pairs.append(f"{b['speedup']:.3f} [{b['low']:.3f}–{b['high']:.3f}]" if b else "–")
                shown.append((b["beyond_noise"] or "within noise") if b else "–")
            lines.append(f"| {rate} | {job} | " + " | ".join(walls + pairs + shown) + " |")
    return [*lines, ""]


def reducer_kinds_section(summaries: list[Summary], sets: list[str]) -> list[str]:
    """Figure 5 with both reducer kinds: for every set that has a paper-reducers twin, each
    job's runtime normalised to the better stock, and its ideal, with our reducers and with the
    paper's, side by side."""
    lines = []
    for ours in sets:
        paper = f"{ours}-paper-reducers"
        if paper not in sets:
            continue
        rows = {
            (s["set"], s["rate_mbit"], s["job"], s["config"]): s
            for s in summaries
            if s["set"] in (ours, paper) and s.get("normalized")
        }
        keys = sorted(
            {(rate, job, config) for _, rate, job, config in rows},
            key=lambda k: (k[0] or 0, catalog.JOB_ORDER.index(k[1]), k[2]),
        )
        lines += [
            f"## Figure 5 with both reducer kinds (sets `{ours}` and `{paper}`)",
            "",
            "Runtime normalised to the better stock baseline of the same set (mean [min–max]) "
            "and the ideal, with our reducers and with reducers of the paper's cost (each key's "
            "list built by linear-scan de-duplication and string concatenation, quadratic in its "
            "values; inverted-index, self-join and adjacency-list only). Their difference is "
            "the share of the paper's margin that came from its reducers' cost.",
            "",
            *table_head(
                [
                    "Mbit/s",
                    "job",
                    "config",
                    "ours: runtime",
                    "ours: ideal",
                    "paper's: runtime",
                    "paper's: ideal",
                    "paper's reducers",
                ]
            ),
        ]
        for rate, job, config in keys:
            a, b = rows.get((ours, rate, job, config)), rows.get((paper, rate, job, config))
            if catalog.is_stock(config) and (a or b or {}).get("baseline") == config:
                continue
            lines.append(
                f"| {rate} | {job} | {config} | {normalized_cell(a)} | "
                f"{f2(a and a.get('ideal_speedup'))} | {normalized_cell(b)} | "
                f"{f2(b and b.get('ideal_speedup'))} | {b['reducers'] if b else '–'} |"
            )
        lines += [
            "",
            f"Figures: `normalized-{ours}.png` and `normalized-{paper}.png`.",
            "",
        ]
    return lines


def normalized_cell(s: Summary | None) -> str:
    if not s:
        return "–"
    n = s["normalized"]
    return f"{n['mean']:.3f} [{n['min']:.3f}–{n['max']:.3f}]"


def regime_map_section(cells: list[dict], figures: dict[str, Path], out: Path) -> list[str]:
    """The regime map (`marco-bench regime`): its figure and every cell's numbers."""
    if not cells:
        return []
    lines = [
        "## Where MaRCO pays: the regime map",
        "",
        "The parametric job (a word count over 100-byte records: no combiner, an exact partial "
        "reducer, a reduce cost of N hash passes over each value) at every reduce cost and "
        "bisection rate of the grid. Colour and numbers: the measured speedup over the better "
        "stock; lines: the model's speedup (docs/model.md) from the stock runs' breakdown and "
        "the CPU their exposed shuffle left idle, as in the model check; `ideal` is the paper's "
        "(stock time / (stock time - min(exposed shuffle, final merge + final reduce))).",
        "",
    ]
    for key, path in figures.items():
        if key.startswith("regime-"):
            lines += [f"![{key}]({rel(path, out)})", ""]
    lines += table_head(
        [
            "config",
            "reduce cost",
            "Mbit/s",
            "runs",
            "baseline",
            "baseline wall s",
            "wall s",
            "measured speedup",
            "model",
            "bound",
            "ideal",
            "measured - model",
            "output = stock",
        ]
    )
    for c in cells:
        gap = None if c["model"] is None else c["speedup"] - c["model"]
        lines.append(
            f"| {c['config']} | {c['cost']} | {c['rate_mbit']} | {c['runs']} | {c['baseline']} | "
            f"{f1(c['baseline_wall_s'])} | {f1(c['wall_s'])} | {f2(c['speedup'])} | "
            f"{f2(c['model'])} | {c['bound'] or '–'} | {f2(c['ideal'])} | "
            f"{'–' if gap is None else f'{gap:+.2f}'} | "
            f"{'yes' if c['identical'] else '**NO**'} |"
        )
    return [*lines, ""]
