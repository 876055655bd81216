# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Checks on a job's counters shared by the tests on real daemons: which shuffle a run went
through, and whether MaRCO did partial work in every reduce. They read a job history as the
benchmark harness parses it (harness.history.JobHistory: the job's totals and each successful
reduce attempt's counters, keyed "GROUP.NAME")."""

MARCO_GROUP = "org.apache.hadoop.mapreduce.marco.MarcoCounter"


def marco_counters(counters):
    """{NAME: value} of the MaRCO group in COUNTERS keyed "GROUP.NAME"."""
    prefix = MARCO_GROUP + "."
    return {key[len(prefix) :]: value for key, value in counters.items() if key.startswith(prefix)}


def assert_stock_shuffle(job):
    """JOB went through Hadoop's own shuffle: MaRCO's shuffle gives every reduce its counter
    group, so neither the job's totals nor any reduce may hold it."""
    assert job.reduces, f"{job.job_id} has no successful reduce"
    assert not marco_counters(job.counters), (
        f"{job.job_id} has the MaRCO counter group: its reduces did not run the stock shuffle"
    )
    for reduce in job.reduces:
        assert not marco_counters(reduce.counters), (
            f"{reduce.attempt} has the MaRCO counter group: it did not run the stock shuffle"
        )


def assert_marco_shuffle(job):
    """JOB went through MaRCO's shuffle: every successful reduce holds MaRCO's counter group,
    which Hadoop's own shuffle never creates. (Whether it did partial work is
    assert_partial_work_in_every_reduce's question.)"""
    assert job.reduces, f"{job.job_id} has no successful reduce"
    for reduce in job.reduces:
        assert marco_counters(reduce.counters), (
            f"{reduce.attempt} has no MaRCO counter group: it did not run MaRCO's shuffle"
        )


def assert_partial_work_in_every_reduce(job):
    """Every reduce of JOB ran MaRCO's shuffle, committed at least one partial invocation, and
    its partial reducer wrote fewer records than it read."""
    assert job.reduces, f"{job.job_id} has no successful reduce"
    for reduce in job.reduces:
        marco = marco_counters(reduce.counters)
        assert marco, f"{reduce.attempt} has no MaRCO counter group: it did not run MaRCO's shuffle"
        assert marco.get("INVOCATIONS", 0) > 0, (
            f"{reduce.attempt} ran no partial invocation: {marco}"
        )
        assert marco.get("PARTIAL_OUTPUT_RECORDS", 0) < marco.get("PARTIAL_INPUT_RECORDS", 0), (
            f"{reduce.attempt}: the partial reducer wrote no fewer records than it read: {marco}"
        )
