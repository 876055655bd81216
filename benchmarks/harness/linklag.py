# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""When a run's link slack arose. The link slack (breakdown.link_slack) says how much later than
the throttled links allowed a job's shuffle ended, not when the time was lost. A MaRCO reduce's
timeline logs every map output's arrival: when, how many bytes, from which map attempt. That
replays the busiest cross-group link transfer by transfer.

The binding link is the (node, direction) link whose bound is the job's link bound: the one that
needed longest to carry its cross-group map outputs, each ready once its map had ended and its
reduce had started. Its arrivals, in the order they came, are set against a link that carries
each at the shaped rate from when it was ready or the one before was done. How far the arrivals
trail that link when the last map ends, and at the last arrival, says whether the time was lost
while maps ran or after; the rate the link carried bytes at after the last map ended, over the
shaped rate, says whether it ran full then. A stock reduce of the benchmark's stock variants logs
its arrivals the same way (TimedStockShuffle's stock-arrivals.jsonl, under <run>/arrivals), so
their runs have these figures too; `hadoop`, Hadoop's own shuffle, logs none."""

import json
from pathlib import Path
from statistics import median
from typing import Any

from .breakdown import link_finish
from .history import JobHistory

# Each figure of a run (read_run) that the summaries and the report give.
SUMMARY_KEYS = ("lag_at_map_end_s", "final_lag_s", "rate_after_maps")

# The directories of a run whose <job>/<reduce attempt>.jsonl files log arrivals: MaRCO's
# timelines, and the stock shuffle's arrivals.
ARRIVAL_DIRS = ("timelines", "arrivals")


def arrivals(timeline: Path) -> list[tuple[int, str, int]]:
    """(arrival ms, map attempt, bytes) of each map output one reduce's timeline logged; a line
    cut short (a reduce that ended as it wrote) is left out."""
    out = []
    for line in timeline.read_text(errors="replace").splitlines():
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(event, dict) and event.get("event") == "arrival":
            out.append((int(event["ts"]), str(event["map"]), int(event["bytes"])))
    return out


def job_lag(
    h: JobHistory,
    by_reduce: dict[str, list[tuple[int, str, int]]],
    group_of: dict[str, int],
    ms_per_byte: float,
) -> dict[str, Any] | None:
    """The binding link's figures for one job from its reduces' arrivals (by reduce attempt);
    None where no map output crossed between groups or a host is in no group. An arrival from a
    map attempt that did not succeed (its output fetched before it was lost) is left out."""
    maps = dict(zip(h.map_attempts, zip(h.map_finishes, h.map_hosts, strict=True), strict=True))
    # (node, direction) -> (ready ms, bytes, arrived ms) of each cross-group transfer
    links: dict[tuple[str, str], list[tuple[float, int, int]]] = {}
    for r in h.reduces:
        for arrived, attempt, size in by_reduce.get(r.attempt, []):
            if attempt not in maps:
                continue
            finish, host = maps[attempt]
            if host not in group_of or r.host not in group_of:
                return None
            if group_of[host] != group_of[r.host]:
                transfer = (float(max(finish, r.start)), size, arrived)
                links.setdefault((r.host, "in"), []).append(transfer)
                links.setdefault((host, "out"), []).append(transfer)
    if not links:
        return None
    node, direction = max(
        links, key=lambda k: link_finish([(t[0], t[1]) for t in links[k]], ms_per_byte)
    )
    transfers = sorted(links[node, direction], key=lambda t: t[2])
    map_end = max(h.map_finishes)
    carried, lag_at_map_end = 0.0, None
    for ready, size, arrived in transfers:
        carried = max(carried, ready) + size * ms_per_byte
        if arrived <= map_end:
            lag_at_map_end = (arrived - carried) / 1000
    last = transfers[-1][2]
    after = sum(size for _, size, arrived in transfers if arrived > map_end)
    return {
        "link": f"{node} {direction}",
        "lag_at_map_end_s": lag_at_map_end,
        "final_lag_s": (last - carried) / 1000,
        "rate_after_maps": after * ms_per_byte / (last - map_end) if after else None,
    }


def read_run(
    histories: list[JobHistory],
    run_dir: Path,
    group_of: dict[str, int] | None,
    rate_mbit: float | None,
) -> dict[str, Any] | None:
    """The binding link's figures of the run's last job that has them, from the arrivals logged
    in <run_dir>/<ARRIVAL_DIRS>/<job>/<attempt>.jsonl; None without arrivals (`hadoop`), shaped
    groups or rate."""
    if not group_of or not rate_mbit or rate_mbit <= 0:
        return None
    ms_per_byte = 8 * 1000 / (rate_mbit * 1e6)
    found = None
    for h in histories:
        by_reduce = {
            p.stem: arrivals(p)
            for d in ARRIVAL_DIRS
            for p in sorted((run_dir / d / h.job_id).glob("*.jsonl"))
        }
        if by_reduce:
            found = job_lag(h, by_reduce, group_of, ms_per_byte) or found
    return found


def summarize(runs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The median over the runs that have them of each figure (read_run); None where no run
    has them."""
    measured = [r["link_lag"] for r in runs if r.get("link_lag")]
    if not measured:
        return None
    out: dict[str, Any] = {"runs": len(measured)}
    for key in SUMMARY_KEYS:
        values = [m[key] for m in measured if m[key] is not None]
        out[key] = median(values) if values else None
    return out
