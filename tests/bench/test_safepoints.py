# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Reading the reduces' safepoint logs: the lines JDK 17 writes with the option the harness
gives every reduce JVM, and the figures per reduce, per run and per config."""

import pytest
from harness import safepoints

# As JDK 17 writes them with -Xlog:safepoint=info:file=...:uptime (a G1 and a serial collector's).
G1 = (
    '[0.677s] Safepoint "G1CollectForAllocation", Time since last: 644001515 ns, '
    "Reaching safepoint: 4206 ns, Cleanup: 85417 ns, At safepoint: 6361039 ns, "
    "Total: 6450662 ns"
)
SLOW = (
    '[12.345s] Safepoint "GenCollectForAllocation", Time since last: 123456 ns, '
    "Reaching safepoint: 2500000000 ns, Cleanup: 1234 ns, At safepoint: 456789 ns, "
    "Total: 2500459023 ns"
)
# Other decorators, and no cleanup phase (as later JDKs write it).
DECORATED = (
    '[13.000s][info][safepoint] Safepoint "Cleanup", Time since last: 1000000 ns, '
    "Reaching safepoint: 1000000 ns, At safepoint: 3000000 ns, Total: 4000000 ns"
)


def test_a_log_gives_the_largest_and_total_time_to_safepoint_and_the_time_at_it():
    text = "\n".join([G1, SLOW, DECORATED, "[13.1s] something else", ""])
    got = safepoints.parse(text)
    assert got["count"] == 3
    assert got["ttsp_max_ms"] == pytest.approx(2500.0)
    assert got["ttsp_max_operation"] == "GenCollectForAllocation"
    assert got["ttsp_total_ms"] == pytest.approx((4206 + 2_500_000_000 + 1_000_000) / 1e6)
    assert got["at_safepoint_total_ms"] == pytest.approx((6361039 + 456789 + 3_000_000) / 1e6)


def test_a_log_without_a_safepoint_gives_zeros():
    got = safepoints.parse("")
    assert got == {
        "count": 0,
        "ttsp_max_ms": 0.0,
        "ttsp_max_operation": None,
        "ttsp_total_ms": 0.0,
        "at_safepoint_total_ms": 0.0,
    }


def test_a_run_gives_its_largest_and_per_reduce_figures(tmp_path):
    job = tmp_path / "job_1_0001"
    job.mkdir()
    (job / "attempt_1_0001_r_000000_0.log").write_text(G1 + "\n" + SLOW + "\n")
    (job / "attempt_1_0001_r_000001_0.log").write_text(DECORATED + "\n")
    run = safepoints.read_run(tmp_path)
    assert run["reduces"] == 2
    assert run["ttsp_max_ms"] == pytest.approx(2500.0)
    assert run["count_per_reduce"] == 1.5
    assert run["ttsp_per_reduce_ms"] == pytest.approx((4206 + 2_500_000_000 + 1_000_000) / 2e6)
    assert run["at_safepoint_per_reduce_ms"] == pytest.approx((6361039 + 456789 + 3_000_000) / 2e6)
    assert run["by_reduce"]["attempt_1_0001_r_000001_0"]["ttsp_max_operation"] == "Cleanup"
    assert safepoints.read_run(tmp_path / "none") is None


def test_a_config_gives_the_median_over_its_runs_and_nothing_where_a_run_has_no_logs():
    def run(ttsp_max):
        return {
            "safepoints": {
                "ttsp_max_ms": ttsp_max,
                "count_per_reduce": 10,
                "ttsp_per_reduce_ms": 2 * ttsp_max,
                "at_safepoint_per_reduce_ms": 50,
            }
        }

    got = safepoints.summarize([run(1.0), run(900.0), run(3.0)])
    assert got == {
        "runs": 3,
        "ttsp_max_ms": 3.0,
        "count_per_reduce": 10,
        "ttsp_per_reduce_ms": 6.0,
        "at_safepoint_per_reduce_ms": 50,
    }
    assert safepoints.summarize([run(1.0), {"safepoints": None}]) is None
    assert safepoints.summarize([run(1.0), {}]) is None


def test_the_log_option_comes_after_the_options_the_reduce_had():
    opts = safepoints.with_log_option(" -Xmx600m -XX:+UseSerialGC ")
    assert opts == "-Xmx600m -XX:+UseSerialGC " + safepoints.JVM_OPTION
    assert safepoints.with_log_option("") == safepoints.JVM_OPTION
    # Once is enough: settings that have it already keep it as they are.
    assert safepoints.with_log_option(opts) == opts
