# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""The phase breakdown of one run (the paper's Figure 7) along its critical path, so the phases
add up to the wall time the harness measured:

  startup        client start -> first map attempt starts (client JVM, submission, AM start)
  map            first map attempt starts -> last map attempt finishes
  exposed shuffle  last map finishes -> the critical reduce's shuffle ends (SHUFFLE_FINISHED)
  final merge    shuffle end -> the critical reduce's merge/sort ends (SORT_FINISHED)
  final reduce   merge end -> the critical reduce finishes, less its output write
  output write   the critical reduce's time in the job's record writer (opening, writing and
                 closing its HDFS file: the benchmark jobs count it in OUTPUT_WRITE_MILLIS);
                 no shuffle runtime can overlap it, so the ideal speedup leaves it out
  cleanup        critical reduce finishes -> the client returns (commit, AM exit, client exit)

The critical reduce is the one that finishes last. For a multi-round driver (k-means) the rounds'
phases add up and the time between rounds counts as startup. Partial sort/reduce (MaRCO) runs
during the shuffle; it is reported beside the stack (counters), not inside it."""

from collections import Counter
from typing import Any

from .datatypes import Breakdown
from .history import JobHistory

PHASES = [
    "startup",
    "map",
    "exposed_shuffle",
    "final_merge",
    "final_reduce",
    "output_write",
    "cleanup",
]
MARCO_GROUP = "org.apache.hadoop.mapreduce.marco.MarcoCounter"
TASK_GROUP = "org.apache.hadoop.mapreduce.TaskCounter"
STOCK_SHUFFLE_GROUP = "org.apache.hadoop.marco.benchmarks.engine.StockShuffleCounter"
OUTPUT_WRITE_MILLIS = "org.apache.hadoop.marco.benchmarks.io.OutputWriteCounter.OUTPUT_WRITE_MILLIS"


def job_phases(h: JobHistory) -> tuple[dict[str, int], int, int]:
    """Phases of one job from its first map start to its critical reduce's end (ms)."""
    first_map = min(h.map_starts) if h.map_starts else h.launch
    last_map = max(h.map_finishes) if h.map_finishes else first_map
    if not h.reduces:  # map-only
        return (
            {
                "map": last_map - first_map,
                "exposed_shuffle": 0,
                "final_merge": 0,
                "final_reduce": 0,
                "output_write": 0,
            },
            first_map,
            last_map,
        )
    crit = max(h.reduces, key=lambda r: r.finish)
    shuffle_end = max(crit.shuffle_end, last_map)
    sort_end = max(crit.sort_end, shuffle_end)
    finish = max(crit.finish, sort_end)
    write = min(crit.counters.get(OUTPUT_WRITE_MILLIS, 0), finish - sort_end)
    return (
        {
            "map": last_map - first_map,
            "exposed_shuffle": shuffle_end - last_map,
            "final_merge": sort_end - shuffle_end,
            "final_reduce": finish - sort_end - write,
            "output_write": write,
        },
        first_map,
        finish,
    )


def phase_windows(
    histories: list[JobHistory], start_ms: int, end_ms: int
) -> list[tuple[str, int, int]]:
    """(phase, begin ms, end ms) along the run's critical path, in order; a run of several jobs
    has a window per job for each of its phases."""
    windows = []
    cursor = start_ms
    for h in sorted(histories, key=lambda x: x.submit):
        phases, begin, end = job_phases(h)
        windows.append(("startup", cursor, max(cursor, begin)))
        t = begin
        for k, v in phases.items():
            windows.append((k, t, t + v))
            t += v
        cursor = max(cursor, end)
    windows.append(("cleanup", cursor, max(cursor, end_ms)))
    return windows


def run_breakdown(histories: list[JobHistory], start_ms: int, end_ms: int) -> Breakdown:
    """Seconds per phase for the jobs of one run; they add up to (end_ms - start_ms)."""
    totals = dict.fromkeys(PHASES, 0)
    for phase, begin, end in phase_windows(histories, start_ms, end_ms):
        totals[phase] += end - begin
    return {k: v / 1000.0 for k, v in totals.items()}


def run_metrics(histories: list[JobHistory]) -> dict[str, Any]:
    """Counters of a run: shuffle bytes, peak reduce memory, MaRCO totals, attempt faults."""

    def total(group: str, name: str) -> int:
        return sum(h.counter(group, name) for h in histories)

    peak = 0
    for h in histories:
        peak = max(
            peak,
            h.counter(TASK_GROUP, "REDUCE_PHYSICAL_MEMORY_BYTES_MAX"),
            *(r.counters.get(f"{TASK_GROUP}.PHYSICAL_MEMORY_BYTES", 0) for r in h.reduces),
        )
    marco = {
        name.lower(): total(MARCO_GROUP, name)
        for name in (
            "INVOCATIONS",
            "PARTIAL_INPUT_RECORDS",
            "PARTIAL_OUTPUT_RECORDS",
            "PARTIAL_SORT_MILLIS",
            "PARTIAL_REDUCE_MILLIS",
            "OVERLAPPED_MILLIS",
            "EXPOSED_AFTER_SHUFFLE_MILLIS",
            "FINAL_MERGE_MILLIS",
            "ADAPTIVE_DISABLES",
            "FAILED_INVOCATIONS",
            "ABANDONED_INVOCATIONS",
            "FETCH_WAIT_MILLIS",
            "FETCH_STALLS",
            "FETCHES_TO_DISK",
            "HEAP_BACKOFFS",
            "LATE_STARTS_HELD",
            # Reduce attempts that ran without partial work because an earlier attempt failed:
            # a partial reducer that ran a reduce out of memory shows here.
            "RETRIES_WITHOUT_PARTIAL_WORK",
        )
    }
    return {
        # Both shuffles count fetchers' blocked time and WAIT answers the same way (a run has
        # one of the two groups).
        "fetch_wait_s": (
            total(MARCO_GROUP, "FETCH_WAIT_MILLIS")
            + total(STOCK_SHUFFLE_GROUP, "FETCH_WAIT_MILLIS")
        )
        / 1000.0,
        "fetch_stalls": total(MARCO_GROUP, "FETCH_STALLS")
        + total(STOCK_SHUFFLE_GROUP, "FETCH_STALLS"),
        # Fetchers' wait to enter the merge manager (its lock) to reserve, commit or release a
        # map output, summed over fetchers, counted the same way by both shuffles.
        "merge_manager_wait_s": (
            total(MARCO_GROUP, "MERGE_MANAGER_WAIT_MILLIS")
            + total(STOCK_SHUFFLE_GROUP, "MERGE_MANAGER_WAIT_MILLIS")
        )
        / 1000.0,
        "shuffle_bytes": total(TASK_GROUP, "REDUCE_SHUFFLE_BYTES"),
        "map_output_bytes": total(TASK_GROUP, "MAP_OUTPUT_BYTES"),
        "hdfs_bytes_read": total("FileSystemCounter", "HDFS_BYTES_READ"),
        # Maps that read their split from another node may cross the throttled link.
        "data_local_maps": total("JobCounter", "DATA_LOCAL_MAPS"),
        "input_records": total(TASK_GROUP, "MAP_INPUT_RECORDS"),
        "reduce_output_records": total(TASK_GROUP, "REDUCE_OUTPUT_RECORDS"),
        "peak_reduce_memory_bytes": peak,
        "maps": sum(len(h.map_finishes) for h in histories),
        "reduces": sum(len(h.reduces) for h in histories),
        "failed_attempts": sum(len(h.failed_attempts) for h in histories),
        "killed_attempts": sum(len(h.killed_attempts) for h in histories),
        "killed_attempt_ids": [a for h in histories for a in h.killed_attempts],
        # Which node's CPU the tasks used: set against the wall time and the cores, it tells a
        # CPU-bound run from a link-bound one. Daemons (DataNode, NodeManager) are not counted.
        "task_cpu_s_by_node": task_cpu_by_node(histories),
        # Where the maps ran and the AppMaster: a node that runs more maps than the others sends
        # more map output across the throttled link.
        "maps_by_node": dict(
            sorted(Counter(host for h in histories for host in h.map_hosts).items())
        ),
        "am_nodes": sorted({h.am_host for h in histories if h.am_host}),
        "marco": marco,
    }


def task_cpu_by_node(histories: list[JobHistory]) -> dict[str, float]:
    """host -> CPU seconds of the successful task attempts of all the run's jobs there."""
    by_node = {}
    for h in histories:
        for host, ms in h.task_cpu_ms.items():
            by_node[host] = by_node.get(host, 0) + ms / 1000.0
    return dict(sorted(by_node.items()))


def reduce_rows(histories: list[JobHistory]) -> list[dict[str, str | int]]:
    """Per reduce attempt: start, shuffle end, merge end, finish (epoch ms)."""
    return [
        {
            "job": h.job_id,
            "attempt": r.attempt,
            "host": r.host,
            "start": r.start,
            "shuffle_end": r.shuffle_end,
            "sort_end": r.sort_end,
            "finish": r.finish,
        }
        for h in histories
        for r in h.reduces
    ]


def link_slack(
    histories: list[JobHistory], group_of: dict[str, int] | None, rate_mbit: float | None
) -> float | None:
    """Seconds the run's shuffles ended after the earliest the throttled links let them end,
    summed over its jobs; None where the groups or the shaped rate are unknown.

    A reduce receives its partition of every map that ran in another group, each taken as the
    reduce's REDUCE_SHUFFLE_BYTES over the job's maps, once the map has ended and the reduce has
    started. Shaping limits each node to rate_mbit per direction, so two links carry every such
    partition one at a time: the receiving node's, and the sending one's, which serves every reduce
    of the other groups. The job's bound is the latest time any of those links could have carried
    its last partition, and the slack is its last shuffle end minus that bound. Where the maps ran
    moves the bound (a node that ran more maps sends more across); link time a shuffle runtime
    loses shows as slack."""
    if not group_of or not rate_mbit or rate_mbit <= 0:
        return None
    ms_per_byte = 8 * 1000 / (rate_mbit * 1e6)
    total_ms = 0.0
    for h in histories:
        if not h.reduces or not h.map_finishes:
            continue
        hosts = {*h.map_hosts, *(r.host for r in h.reduces)}
        if not hosts <= group_of.keys():
            return None
        # Per link (node, direction): when each cross-group partition may start, and its size.
        transfers: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for r in h.reduces:
            partition = r.counters.get(f"{TASK_GROUP}.REDUCE_SHUFFLE_BYTES", 0) / len(
                h.map_finishes
            )
            for finish, host in zip(h.map_finishes, h.map_hosts, strict=True):
                if group_of[host] != group_of[r.host]:
                    ready = (max(finish, r.start), partition)
                    transfers.setdefault((r.host, "in"), []).append(ready)
                    transfers.setdefault((host, "out"), []).append(ready)
        # A reduce that receives nothing across could end its shuffle as it starts.
        bound = max(
            [float(r.start) for r in h.reduces]
            + [link_finish(link, ms_per_byte) for link in transfers.values()]
        )
        total_ms += max(r.shuffle_end for r in h.reduces) - bound
    return total_ms / 1000


def link_finish(transfers: list[tuple[float, float]], ms_per_byte: float) -> float:
    """The earliest one link can have carried every (ready ms, bytes) transfer, one at a time:
    in the order they become ready, each from when it is ready or the one before is done."""
    end = 0.0
    for ready, size in sorted(transfers):
        end = max(end, ready) + size * ms_per_byte
    return end
