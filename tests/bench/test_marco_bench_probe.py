# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""`marco-bench main` with a calibration probe, against the real netns cluster: a profile that
extends the tiny one and names a probe job. Main must run the probe with stock at the profile's
rate, pick the rate from it, run every measured run at that rate (as the shaping in force
records it), say so in the report, and on a second call reuse the rate without a cluster. `curve`
in the same directory then runs the profile's curve on a cluster of its own, without probing
again, and stops it."""

import json
import os
import subprocess

from conftest import REPO, own_cluster_dir
from harness import calibration
from harness.cluster import netns_namespaces

MARCO_BENCH = REPO / "benchmarks" / "marco-bench"


def test_main_runs_at_the_rate_its_probe_picked(tmp_path_factory):
    base, env = own_cluster_dir(tmp_path_factory, "marco-bench-probe")
    profile = base / "tiny-probe.json"
    profile.write_text(
        json.dumps(
            {
                "extends": "tiny",
                "jobs": ["word-count"],
                "calibration": {"probe_job": "inverted-index"},
            }
        )
    )
    out = base / "results"
    # MARCO_DIST points at another copy of the distribution, as in tests/cluster.
    dist = ["--dist", os.environ["MARCO_DIST"]] if os.environ.get("MARCO_DIST") else []
    argv = [str(MARCO_BENCH), "main", "--profile", str(profile), "--out", str(out), *dist]
    result = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=900)
    if netns_namespaces():  # main must always stop its cluster; clean up for the next test anyway
        subprocess.run([str(REPO / "cluster" / "marco-cluster"), "stop"], env=env)
    assert result.returncode == 0, f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}"

    saved = json.loads((out / "calibration.json").read_text())
    (row,) = saved["rows"]
    assert saved["probe_job"] == "inverted-index" and saved["profile_rate_mbit"] == 50
    rate = saved["chosen_rate_mbit"]
    assert rate == calibration.regime_rate(row)
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert all(r["status"] == "ok" for r in records), [r.get("error") for r in records]
    probe = [r for r in records if r["set"] == "calibration"]
    assert [(r["job"], r["variant"], r["rate_mbit"]) for r in probe] == [
        ("inverted-index", "stock", 50)
    ]
    measured = [r for r in records if r["set"] == "main"]
    assert sorted(r["variant"] for r in measured) == ["marco", "stock"]
    assert {(r["rate_mbit"], r["rate_source"]) for r in measured} == {(rate, "shaping in force")}
    assert f"-> {rate} Mbit/s" in result.stdout
    report = (out / "report.md").read_text()
    assert "## The rate main picked" in report and f"at **{rate} Mbit/s**" in report

    again = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    assert again.returncode == 0, again.stderr
    assert "already recorded" in again.stdout and "no cluster started" in again.stdout
    assert not netns_namespaces()

    # `curve` in main's directory: a cluster of its own, main's recorded rate (no second probe),
    # the profile's curve (tiny's: 25 Mbit/s), and the cluster stopped again.
    curve = subprocess.run(
        [str(MARCO_BENCH), "curve", *argv[2:]], capture_output=True, text=True, env=env, timeout=900
    )
    if netns_namespaces():
        subprocess.run([str(REPO / "cluster" / "marco-cluster"), "stop"], env=env)
    assert curve.returncode == 0, f"{curve.stdout[-4000:]}\n{curve.stderr[-4000:]}"
    assert "calibration probe" not in curve.stdout and not netns_namespaces()
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [r["set"] for r in records].count("calibration") == 1
    swept = [r for r in records if r["set"] == "bandwidth"]
    assert sorted(r["variant"] for r in swept) == ["marco", "stock"]
    assert all(r["status"] == "ok" for r in swept), [r.get("error") for r in swept]
    assert {(r["rate_mbit"], r["rate_source"]) for r in swept} == {(25, "shaping in force")}
    assert {r["output_sha256"] for r in swept} == {
        r["output_sha256"] for r in measured if r["job"] == "word-count"
    }
