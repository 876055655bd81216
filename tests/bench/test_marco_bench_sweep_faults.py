# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""`marco-bench faults` and `marco-bench sweep` on the tiny profile against a real 2-worker netns
cluster (started the way `main` starts it). faults: a reduce attempt killed while it runs and a
failed partial invocation must not change the output (paper section 6.3). sweep: the bandwidth
sweep re-shapes the bisection for its runs and puts the profile's rate back afterwards."""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from conftest import own_cluster_dir
from harness import profile
from harness.cluster import MARCO_CLUSTER, SHAPE, cluster_start_argv

REPO = Path(__file__).resolve().parents[2]
MARCO_BENCH = REPO / "benchmarks" / "marco-bench"
TINY = profile.load("tiny")


def marco_bench(*args, env):
    r = subprocess.run(
        [str(MARCO_BENCH), *args], capture_output=True, text=True, env=env, timeout=900
    )
    assert r.returncode == 0, (
        f"marco-bench {args[0]} failed:\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}"
    )
    return r


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    base, env = own_cluster_dir(tmp_path_factory, "marco-bench-sweep-faults")
    dist = os.environ.get("MARCO_DIST") or str(REPO / "dist" / "hadoop-marco-1.0.0")
    argv = cluster_start_argv(TINY["cluster"], dist) + ["--rate", str(TINY["cluster"]["rate_mbit"])]
    try:
        start = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600)
        assert start.returncode == 0, (
            f"cluster start failed:\n{start.stdout[-3000:]}\n{start.stderr[-3000:]}"
        )
        yield base / "results", env, dist
    finally:
        subprocess.run([str(MARCO_CLUSTER), "stop"], capture_output=True, env=env, timeout=300)


def records(out, set_name):
    lines = (out / "results.jsonl").read_text().splitlines()
    return [r for r in map(json.loads, lines) if r["set"] == set_name]


@pytest.fixture(scope="module")
def faults(cluster):
    out, env, dist = cluster
    result = marco_bench(
        "faults", "--profile", "tiny", "--generate", "--out", str(out), "--dist", dist, env=env
    )
    return out, result


def test_every_fault_config_ran_and_the_output_stayed_identical(faults):
    out, _ = faults
    runs = records(out, "faults")
    assert sorted(r["config"] for r in runs) == sorted(
        ["stock", "stock+kill-reduce", "marco", "marco+kill-reduce", "marco+fail-partial"]
    )
    assert all(r["status"] == "ok" for r in runs), [r.get("error") for r in runs]
    assert len({r["output_sha256"] for r in runs}) == 1, {
        r["config"]: r["output_sha256"] for r in runs
    }


def test_the_killed_reduce_attempt_was_running_and_was_re_run(faults):
    out, _ = faults
    for r in (r for r in records(out, "faults") if r["fault"] == "kill-reduce"):
        injected = r["fault_injected"]
        assert injected["killed"], f"{r['key']}: {injected}"
        assert injected["took_effect"], (
            f"{r['key']}: {injected['killed']} had ended before the kill"
        )
        assert injected["killed"] in r["killed_attempt_ids"]


def test_the_failed_partial_invocation_was_counted(faults):
    out, _ = faults
    failing = [r for r in records(out, "faults") if r["fault"] == "fail-partial"]
    assert failing and all(r["marco"]["failed_invocations"] >= 1 for r in failing)


def test_the_history_server_lists_every_benchmark_job(cluster, faults):
    """The harness leaves each job's history where the cluster keeps it, so Hadoop's
    JobHistoryServer lists them all, as it would a user's job (its REST API, from the client)."""
    _, env, _ = cluster
    out, _ = faults
    job_ids = {j for r in records(out, "faults") for j in r["job_ids"]}
    assert job_ids
    query = subprocess.run(
        [
            str(MARCO_CLUSTER),
            "client",
            "curl",
            "-sf",
            "http://master:19888/ws/v1/history/mapreduce/jobs",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert query.returncode == 0, query.stderr
    listed = {j["id"] for j in json.loads(query.stdout)["jobs"]["job"]}
    assert job_ids <= listed, f"not listed by the JobHistoryServer: {sorted(job_ids - listed)}"


@pytest.fixture(scope="module")
def sweep(cluster, faults):
    out, env, dist = cluster
    result = marco_bench(
        "sweep",
        "--profile",
        "tiny",
        "--what",
        "bandwidth",
        "--generate",
        "--out",
        str(out),
        "--dist",
        dist,
        env=env,
    )
    shown = subprocess.run([str(SHAPE), "show"], capture_output=True, text=True, env=env)
    return out, result, shown.stdout


def test_the_bandwidth_sweep_ran_at_its_rates_and_restored_the_profile_rate(sweep):
    out, result, shown = sweep
    runs = records(out, "bandwidth")
    rates = TINY["sweep"]["rates"]
    assert sorted((r["rate_mbit"], r["variant"]) for r in runs) == sorted(
        (rate, v) for rate in rates for v in TINY["sweep"]["variants"]
    )
    assert all(r["status"] == "ok" for r in runs), [r.get("error") for r in runs]
    base = TINY["cluster"]["rate_mbit"]
    assert f"shaping the bisection to {rates[0]} Mbit/s" in result.stdout
    assert result.stdout.rstrip().count(f"shaping the bisection to {base} Mbit/s") == 1
    assert re.search(rf"RATE_MBIT={base}\b", shown), shown


def test_report_lists_the_fault_runs_and_plots_the_sweep(sweep):
    out, _, _ = sweep
    r = subprocess.run(
        [str(MARCO_BENCH), "report", "--out", str(out)], capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stderr
    report = (out / "report.md").read_text()
    faults = report.split("## Fault runs", 1)[1].split("\n## ", 1)[0]
    assert faults.count("| `faults/") == 3 and "**NO**" not in faults, faults
    assert "(the attempt had ended)" not in faults, faults
    assert "## Sensitivity" in report and (out / "img" / "sensitivity.png").stat().st_size > 0


def test_large_outputs_compare_by_composite_crc_without_a_download(cluster, sweep, tmp_path):
    """A profile with output_checksum composite-crc: HDFS's composite CRCs of stock's and MaRCO's
    outputs agree, the output bytes come from the job's counters, and nothing was copied."""
    _, env, dist = cluster
    crc_profile = tmp_path / "tiny-crc.json"
    crc_profile.write_text(
        json.dumps(
            {
                **json.loads((REPO / "benchmarks/profiles/tiny.json").read_text()),
                "output_checksum": "composite-crc",
            }
        )
    )
    out = tmp_path / "results"
    marco_bench(
        "run",
        "--profile",
        str(crc_profile),
        "--jobs",
        "word-count",
        "--generate",
        "--out",
        str(out),
        "--dist",
        dist,
        env=env,
    )
    runs = records(out, "main")
    assert sorted(r["variant"] for r in runs) == ["marco", "stock"]
    assert all(r["status"] == "ok" and r["output_checksum"] == "composite-crc" for r in runs), runs
    assert runs[0]["output_sha256"] == runs[1]["output_sha256"]
    assert runs[0]["output_bytes"] == runs[1]["output_bytes"] > 0
    assert not list(out.glob("runs/*/output")) and not list(out.glob("runs/*/out-*"))
