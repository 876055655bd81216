# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""What the benchmarks jar offers: the eleven jobs, the data set each reads, its generator, and the
shuffle variants the harness compares (settings as in docs/configuration.md)."""

from pathlib import Path

# The one list of the benchmarks jar's programs, which BenchmarkDriver reads too.
PROGRAMS_TSV = (
    Path(__file__).resolve().parents[1]
    / "src/main/resources/org/apache/hadoop/marco/benchmarks/programs.tsv"
)


def _programs() -> list[list[str]]:
    """[name, class, kind, data set, description] per program, in the file's order."""
    rows = []
    for line in PROGRAMS_TSV.read_text().splitlines():
        if line and not line.startswith("#"):
            rows.append(line.split("\t"))
    return rows


_PROGRAMS = _programs()
SHUFFLE_HEAVY = [name for name, _, kind, _, _ in _PROGRAMS if kind == "heavy"]
SHUFFLE_LIGHT = [name for name, _, kind, _, _ in _PROGRAMS if kind == "light"]
ALL_JOBS = SHUFFLE_HEAVY + SHUFFLE_LIGHT
# benchmark -> the data set it reads
JOB_DATA = {name: data for name, _, kind, data, _ in _PROGRAMS if kind in ("heavy", "light")}
# data set -> the generator program that makes it
GENERATORS = {data: name for name, _, kind, data, _ in _PROGRAMS if kind == "generator"}

# Hadoop's Shuffle and MergeManagerImpl, unchanged, with their fetch waits counted as MaRCO
# counts its own (the benchmarks jar's TimedStockShuffle).
STOCK_PLUGIN = "org.apache.hadoop.marco.benchmarks.engine.TimedStockShuffle"
MARCO_PLUGIN = "org.apache.hadoop.mapreduce.task.reduce.MarcoShuffle"
PLUGIN_KEY = "mapreduce.job.reduce.shuffle.consumer.plugin.class"

SLOWSTART_KEY = "mapreduce.job.reduce.slowstart.completedmaps"

# variant -> job settings that select it. "stock-early" is the fair baseline for MaRCO's early
# reduces: the stock shuffle with its reduces requested from the first map on, as MaRCO's
# AppMaster does for MaRCO jobs (stock as shipped waits for 5% of the maps).
VARIANTS = {
    "stock": {PLUGIN_KEY: STOCK_PLUGIN},
    "stock-early": {PLUGIN_KEY: STOCK_PLUGIN, SLOWSTART_KEY: "0"},
    "marco": {PLUGIN_KEY: MARCO_PLUGIN},
    "marco-no-partial-reduce": {
        PLUGIN_KEY: MARCO_PLUGIN,
        "mapreduce.marco.partial.reduce.enabled": "false",
    },
    "marco-no-control": {
        PLUGIN_KEY: MARCO_PLUGIN,
        "mapreduce.marco.control.enabled": "false",
        "mapreduce.marco.adaptive.enabled": "false",
    },
    "marco-no-adaptive": {PLUGIN_KEY: MARCO_PLUGIN, "mapreduce.marco.adaptive.enabled": "false"},
    "marco-abandon": {
        PLUGIN_KEY: MARCO_PLUGIN,
        "mapreduce.marco.abandon.at.shuffle.end": "true",
    },
    "marco-paper-threshold": {
        PLUGIN_KEY: MARCO_PLUGIN,
        "mapreduce.marco.start.when.threshold.unreachable": "false",
    },
    "marco-start-when-maps-complete": {
        PLUGIN_KEY: MARCO_PLUGIN,
        "mapreduce.marco.start.when.maps.complete": "true",
    },
    "marco-invocations-8m": {
        PLUGIN_KEY: MARCO_PLUGIN,
        "mapreduce.marco.invocation.max.bytes": "8m",
    },
}


STOCK_VARIANTS = ("stock", "stock-early")


def is_stock(variant: str) -> bool:
    return variant in STOCK_VARIANTS


def is_shuffle_heavy(job: str) -> bool:
    return job in SHUFFLE_HEAVY


def check_jobs(jobs: list[str]) -> list[str]:
    unknown = [j for j in jobs if j not in JOB_DATA]
    if unknown:
        raise ValueError(
            f"unknown job(s) {', '.join(unknown)}; the jobs are: {', '.join(ALL_JOBS)}"
        )
    return jobs


def check_variants(variants: list[str]) -> list[str]:
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        raise ValueError(
            f"unknown variant(s) {', '.join(unknown)}; the variants are: {', '.join(VARIANTS)}"
        )
    if not any(is_stock(v) for v in variants):
        raise ValueError(
            f"the variants must include a stock baseline ({', '.join(STOCK_VARIANTS)}): "
            f"every other variant is normalised to it and its output is compared "
            f"with it"
        )
    return variants
