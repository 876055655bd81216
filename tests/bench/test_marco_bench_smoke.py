# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Smoke run of `marco-bench main` on the tiny profile against the real netns cluster: a 2-worker
cluster with 50 Mbit/s between its groups, two jobs, stock and MaRCO, one repetition. Checks that
results, plots and report are produced and agree with each other, that the outputs are identical,
that the cluster is gone afterwards, and that `run` on a stopped cluster says how to fix it."""

import csv
import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import own_cluster_dir
from harness import history
from harness.cluster import netns_namespaces
from marco_counters import assert_marco_shuffle, assert_stock_shuffle

REPO = Path(__file__).resolve().parents[2]
MARCO_BENCH = REPO / "benchmarks" / "marco-bench"


def marco_bench(*args, env, timeout):
    return subprocess.run(
        [str(MARCO_BENCH), *args], capture_output=True, text=True, env=env, timeout=timeout
    )


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    base, env = own_cluster_dir(tmp_path_factory, "marco-bench")
    out = base / "results"
    # MARCO_DIST points at another copy of the distribution, as in tests/cluster.
    dist = ["--dist", os.environ["MARCO_DIST"]] if os.environ.get("MARCO_DIST") else []
    result = marco_bench(
        "main", "--profile", "tiny", "--out", str(out), *dist, env=env, timeout=900
    )
    if netns_namespaces():  # main must always stop its cluster; clean up for the next test anyway
        subprocess.run([str(REPO / "cluster" / "marco-cluster"), "stop"], env=env)
    assert result.returncode == 0, (
        f"marco-bench main failed:\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}"
    )
    return out, env, result


def records(out):
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def kept_histories(out, record):
    """The job histories the harness kept for RECORD's run, one per job, as it parsed them."""
    histories = []
    for job_id in record["job_ids"]:
        found = list((out / "runs").glob(f"*/{job_id}-*.jhist"))
        assert len(found) == 1, f"job history of {job_id} under {out / 'runs'}: {found}"
        histories.append(history.parse(found[0].read_text()))
    assert histories, f"{record['key']} names no job"
    return histories


def test_every_planned_run_is_recorded_and_ok(session):
    out, _, result = session
    runs = records(out)
    assert sorted((r["job"], r["variant"]) for r in runs) == [
        ("inverted-index", "marco"),
        ("inverted-index", "stock"),
        ("word-count", "marco"),
        ("word-count", "stock"),
    ]
    assert all(r["status"] == "ok" for r in runs), [r.get("error") for r in runs]
    assert "[4/4]" in result.stdout and "remaining" in result.stdout


def test_breakdown_adds_up_to_the_wall_time(session):
    out, _, _ = session
    for r in records(out):
        b = r["breakdown"]
        assert all(v >= 0 for v in b.values()), b
        assert sum(b.values()) == pytest.approx(r["wall_s"], abs=0.5)
        assert b["map"] > 0 and b["startup"] > 0
        assert r["shuffle_bytes"] > 0 and r["peak_reduce_memory_bytes"] > 0
        assert r["reduces"] == 2


def test_each_run_records_the_shaping_in_force(session):
    out, _, _ = session
    assert {(r["rate_mbit"], r["rate_source"]) for r in records(out)} == {(50, "shaping in force")}


def test_marco_ran_partial_invocations_and_left_timelines(session):
    out, _, _ = session
    marco = [r for r in records(out) if r["variant"] == "marco"]
    stock = [r for r in records(out) if r["variant"] == "stock"]
    # An invocation abandoned at shuffle end (abandon.at.shuffle.end) is counted apart: it ran too.
    ran = lambda r: r["marco"]["invocations"] + r["marco"]["abandoned_invocations"]  # noqa: E731
    assert all(ran(r) > 0 for r in marco if r["job"] == "inverted-index")
    # Which shuffle ran, from the job histories the harness kept: no invocation alone would also
    # hold for a MaRCO shuffle that did nothing.
    for r in stock:
        for job in kept_histories(out, r):
            assert_stock_shuffle(job)
    for r in marco:
        for job in kept_histories(out, r):
            assert_marco_shuffle(job)
    for r in marco:
        assert len(r["timelines"]) == 2
        events = [json.loads(line) for line in (out / r["timelines"][0]).read_text().splitlines()]
        assert {"arrival", "shuffle-end", "final-merge-end"} <= {e["event"] for e in events}


def test_outputs_are_identical_and_the_report_says_so(session):
    out, _, _ = session
    by_job = {}
    for r in records(out):
        by_job.setdefault(r["job"], set()).add(r["output_sha256"])
    assert all(len(shas) == 1 for shas in by_job.values()), by_job
    results = json.loads((out / "results.json").read_text())
    by_rate = results["targets"]["main"]
    assert by_rate and all(t["all_identical"] is True for t in by_rate.values())
    text = (out / "report.md").read_text()
    for job in ("word-count", "inverted-index"):
        assert f"| {job} | " in text
    assert "| yes |" in text and "**NO**" not in text
    assert "marco-bench main --profile tiny" in text
    assert "cluster start" in json.dumps(results["sessions"])
    # The model check asked the distribution's advisor about every stock run's own history.
    checks = results["model_check"]
    assert checks and all(c["advisor_speedup"] is not None for c in checks), checks
    assert all(c["advisor_histories"] == 1 for c in checks), checks


def test_csv_and_plots_match_the_runs(session):
    out, _, _ = session
    with (out / "results.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert {r["key"] for r in rows} == {r["key"] for r in records(out)}
    for name in ("normalized-main.png", "breakdown-main.png", "timeline.png"):
        png = out / "img" / name
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000


def test_cluster_is_stopped_and_run_then_names_the_fix(session):
    out, env, _ = session
    assert netns_namespaces() == []
    result = marco_bench("run", "--profile", "tiny", "--out", str(out), env=env, timeout=180)
    assert result.returncode == 2
    assert "marco-cluster start" in result.stderr or "not up" in result.stderr, result.stderr


def test_class_archive_and_client_side_generation_took_effect(session):
    """The tiny profile asks for the class archive (cluster.class_archive) and generates its data
    in the client JVM (generate_conf mapreduce.framework.name=local)."""
    out, env, result = session
    output = result.stdout + result.stderr
    assert "--class-archive" in output and "class archive: dumping" in output, output[-3000:]
    # stop deletes the ~100 MB archive with the cluster
    assert not (Path(env["MARCO_CLUSTER_STATE_DIR"]) / "class-archive").exists()
    for data_set in ("text", "inverted-index"):
        assert "job_local" in (out / "logs" / f"gen-{data_set}.log").read_text()
