# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""What the benchmarks jar offers: the paper's eleven jobs and the extra ones, the data set each
reads, its generator, the reducer kinds, and the shuffle variants the harness compares (settings
as in docs/configuration.md)."""

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
# Shuffle-heavy jobs beyond the paper's eleven (the regime map's parametric job, a third-party
# shaped one): run where a profile or --jobs names them, never by default.
EXTRA_JOBS = [name for name, _, kind, _, _ in _PROGRAMS if kind == "extra"]
# Every benchmark, in the order tables list them.
JOB_ORDER = ALL_JOBS + EXTRA_JOBS
# benchmark -> the data set it reads
JOB_DATA = {
    name: data for name, _, kind, data, _ in _PROGRAMS if kind in ("heavy", "light", "extra")
}
# data set -> the generator program that makes it
GENERATORS = {data: name for name, _, kind, data, _ in _PROGRAMS if kind == "generator"}

# Hadoop's Shuffle and MergeManagerImpl, unchanged, with their fetch waits counted as MaRCO
# counts its own (the benchmarks jar's TimedStockShuffle).
STOCK_PLUGIN = "org.apache.hadoop.marco.benchmarks.engine.TimedStockShuffle"
# Hadoop's own shuffle consumer (mapreduce.job.reduce.shuffle.consumer.plugin.class's default).
HADOOP_PLUGIN = "org.apache.hadoop.mapreduce.task.reduce.Shuffle"
MARCO_PLUGIN = "org.apache.hadoop.mapreduce.task.reduce.MarcoShuffle"
PLUGIN_KEY = "mapreduce.job.reduce.shuffle.consumer.plugin.class"

SLOWSTART_KEY = "mapreduce.job.reduce.slowstart.completedmaps"

# variant -> job settings that select it. "stock-early" is the fair baseline for MaRCO's early
# reduces: the stock shuffle with its reduces requested from the first map on, as MaRCO's
# AppMaster does for MaRCO jobs (stock as shipped waits for 5% of the maps).
# "hadoop" is Hadoop as shipped: its own shuffle, and (baseline.py) its own AppMaster with none
# of this project's jars on the AppMaster's or the tasks' classpath and none of its settings.
VARIANTS = {
    "hadoop": {PLUGIN_KEY: HADOOP_PLUGIN},
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
    "marco-finish-all": {
        PLUGIN_KEY: MARCO_PLUGIN,
        "mapreduce.marco.finish.all.at.shuffle.end": "true",
    },
    "marco-no-forecast": {
        PLUGIN_KEY: MARCO_PLUGIN,
        "mapreduce.marco.start.only.within.shuffle": "false",
    },
    "marco-paper-threshold": {
        PLUGIN_KEY: MARCO_PLUGIN,
        "mapreduce.marco.start.when.threshold.unreachable": "false",
    },
    "marco-threshold-wait": {
        PLUGIN_KEY: MARCO_PLUGIN,
        "mapreduce.marco.start.when.threshold.late": "false",
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


STOCK_VARIANTS = ("hadoop", "stock", "stock-early")

# The reducers of the list-building jobs: ours, or with the paper's quadratic cost
# (PaperReducers.java). The key is a job setting the jobs read.
REDUCERS_KEY = "marco.benchmarks.reducers"
REDUCER_KINDS = ("efficient", "paper")
PAPER_REDUCER_JOBS = ("inverted-index", "self-join", "adjacency-list")


def reducers_of(job: str, kind: str) -> str:
    """The reducer kind `job` runs when `kind` is asked for: jobs without a paper-cost reducer
    run their own ("efficient") whatever is asked."""
    return kind if job in PAPER_REDUCER_JOBS else "efficient"


def check_reducers(kind: str) -> str:
    if kind not in REDUCER_KINDS:
        raise ValueError(
            f"unknown reducer kind '{kind}'; the kinds are: {', '.join(REDUCER_KINDS)}"
        )
    return kind


def is_stock(variant: str) -> bool:
    return variant in STOCK_VARIANTS


def is_shuffle_heavy(job: str) -> bool:
    return job in SHUFFLE_HEAVY or job in EXTRA_JOBS


def check_jobs(jobs: list[str]) -> list[str]:
    unknown = [j for j in jobs if j not in JOB_DATA]
    if unknown:
        raise ValueError(
            f"unknown job(s) {', '.join(unknown)}; the jobs are: {', '.join(JOB_ORDER)}"
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
