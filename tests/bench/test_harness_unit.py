# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""The harness's parsing, breakdown, aggregation and report on job histories and timelines of a
real run (tests/bench/data), without a cluster."""

import csv
import json
import math
import os
import random
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

# The plots need matplotlib; build.sh runs this stage with a python3 that has it (test_python).
from harness import (
    aggregate,
    breakdown,
    catalog,
    cli,
    cluster,
    doctor,
    history,
    linklag,
    machine_cpu,
    noise,
    plots,
    profile,
    report,
    runner,
    safepoints,
)
from marco_counters import assert_marco_shuffle, assert_stock_shuffle

DATA = Path(__file__).parent / "data"


def load(name):
    return history.parse((DATA / f"{name}.jhist").read_text())


def test_history_has_every_task_and_ordered_reduce_phases():
    h = load("marco")
    assert h.job_id == "job_1795294025406_0004"
    assert h.status == "SUCCEEDED"
    assert len(h.map_finishes) == 6 and len(h.reduces) == 2
    for r in h.reduces:
        assert r.start <= r.shuffle_end <= r.sort_end <= r.finish
    assert h.submit <= min(h.map_starts) <= max(h.map_finishes) <= h.finish
    assert h.counter(breakdown.MARCO_GROUP, "INVOCATIONS") > 0
    assert_marco_shuffle(h)
    assert_stock_shuffle(load("stock"))


def test_a_reduce_attempt_knows_its_container():
    containers = {r.attempt: r.container for r in load("marco").reduces}
    assert containers == {
        "attempt_1795294025406_0004_r_000000_0": "container_1795294025406_0004_01_000008",
        "attempt_1795294025406_0004_r_000001_0": "container_1795294025406_0004_01_000009",
    }


def test_task_cpu_is_summed_per_node_over_every_successful_attempt():
    """The fixture's 6 maps and 2 reduces ran on one host; their CPU_MILLISECONDS counters add up
    to 4050 ms. Two jobs of one run on that host add up per node."""
    h = load("marco")
    assert h.task_cpu_ms == {"localhost": 450 + 510 + 490 + 530 + 350 + 380 + 690 + 650}
    assert breakdown.task_cpu_by_node([h, h]) == {"localhost": 8.1}


def test_where_the_maps_and_the_appmaster_ran_is_counted_per_node():
    """The fixture's job ran its AppMaster and its 6 maps on one host; two jobs of a run add up."""
    h = load("marco")
    assert h.am_host == "localhost" and h.map_hosts == ["localhost"] * 6
    metrics = breakdown.run_metrics([h, h])
    assert metrics["maps_by_node"] == {"localhost": 12}
    assert metrics["am_nodes"] == ["localhost"]


def test_binary_history_is_refused_with_the_fix():
    with pytest.raises(history.HistoryError, match="jhist.format=json"):
        history.parse("Avro-Binary\n{}\n\x00\x01")


def test_breakdown_adds_up_to_the_wall_time_and_follows_the_critical_reduce():
    h = load("marco")
    start, end = h.submit - 1500, h.finish + 2500
    b = breakdown.run_breakdown([h], start, end)
    assert sum(b.values()) == pytest.approx((end - start) / 1000, abs=1e-6)
    assert all(v >= 0 for v in b.values())
    crit = max(h.reduces, key=lambda r: r.finish)
    assert b["final_reduce"] == pytest.approx((crit.finish - crit.sort_end) / 1000)
    assert b["output_write"] == 0  # the fixture's jobs predate the timed output format
    assert b["map"] == pytest.approx((max(h.map_finishes) - min(h.map_starts)) / 1000)


def test_the_critical_reduces_output_write_is_split_out_of_its_final_reduce():
    h = load("marco")
    crit = max(h.reduces, key=lambda r: r.finish)
    reduce_ms = crit.finish - crit.sort_end
    crit.counters[breakdown.OUTPUT_WRITE_MILLIS] = 400
    for other in h.reduces:
        if other is not crit:  # only the critical reduce's write is on the critical path
            other.counters[breakdown.OUTPUT_WRITE_MILLIS] = 99_000
    start, end = h.submit - 1500, h.finish + 2500
    b = breakdown.run_breakdown([h], start, end)
    assert b["output_write"] == pytest.approx(0.4)
    assert b["final_reduce"] == pytest.approx((reduce_ms - 400) / 1000)
    assert sum(b.values()) == pytest.approx((end - start) / 1000, abs=1e-6)
    # The write never takes more than the whole phase.
    crit.counters[breakdown.OUTPUT_WRITE_MILLIS] = reduce_ms + 5000
    b = breakdown.run_breakdown([h], start, end)
    assert b["output_write"] == pytest.approx(reduce_ms / 1000)
    assert b["final_reduce"] == 0


def test_fetch_wait_is_read_from_either_shuffles_counters():
    marco, stock = load("marco"), load("stock")
    marco.counters[f"{breakdown.MARCO_GROUP}.FETCH_WAIT_MILLIS"] = 2500
    marco.counters[f"{breakdown.MARCO_GROUP}.FETCH_STALLS"] = 7
    marco.counters[f"{breakdown.MARCO_GROUP}.FETCHES_TO_DISK"] = 5
    stock.counters[f"{breakdown.STOCK_SHUFFLE_GROUP}.FETCH_WAIT_MILLIS"] = 4000
    stock.counters[f"{breakdown.STOCK_SHUFFLE_GROUP}.FETCH_STALLS"] = 3
    marco.counters[f"{breakdown.MARCO_GROUP}.MERGE_MANAGER_WAIT_MILLIS"] = 120
    stock.counters[f"{breakdown.STOCK_SHUFFLE_GROUP}.MERGE_MANAGER_WAIT_MILLIS"] = 1750
    m, s = breakdown.run_metrics([marco]), breakdown.run_metrics([stock])
    assert (m["fetch_wait_s"], m["fetch_stalls"]) == (2.5, 7)
    assert (s["fetch_wait_s"], s["fetch_stalls"]) == (4.0, 3)
    assert (m["merge_manager_wait_s"], s["merge_manager_wait_s"]) == (0.12, 1.75)
    assert m["marco"]["fetches_to_disk"] == 5


def link_bound_job(shuffle_ends):
    """Maps on w1-w4, ending at 1, 2, 3 and 9 s; a reduce on w1 from 0 s and one on w3 from 5 s,
    each fetching 4 MB (1 MB from each map) and ending its shuffle at `shuffle_ends` (ms)."""
    h = history.JobHistory(job_id="job_1_0001")
    h.map_hosts = ["w1", "w2", "w3", "w4"]
    h.map_finishes = [1000, 2000, 3000, 9000]
    h.map_starts = [0] * 4
    shuffle_bytes = {f"{breakdown.TASK_GROUP}.REDUCE_SHUFFLE_BYTES": 4_000_000}
    for host, start, end in zip(["w1", "w3"], [0, 5000], shuffle_ends, strict=True):
        h.reduces.append(history.ReduceAttempt(host, host, start, end, end, end, shuffle_bytes))
    return h


def test_link_slack_is_the_last_shuffle_end_after_what_the_link_allowed():
    """At 8 Mbit/s a 1 MB partition takes 1 s. w1's reduce receives the maps of w3 and w4
    (group 2): the one ended at 3 s by 4 s, the one ended at 9 s by 10 s. w3's, from 5 s, has
    w1's and w2's by 7 s. The bound is 10 s; the shuffles ended at 10.5 and 12 s: 2 s of slack.
    A run's jobs add up; unknown groups, hosts or rate give none."""
    groups = {"w1": 1, "w2": 1, "w3": 2, "w4": 2}
    job = link_bound_job([10_500, 12_000])
    assert breakdown.link_slack([job], groups, 8) == pytest.approx(2.0)
    assert breakdown.link_slack([job, link_bound_job([10_000, 7_000])], groups, 8) == (
        pytest.approx(2.0)
    )
    # Twice the rate: w1's reduce has its bytes by 9.5 s, w3's by 6 s.
    assert breakdown.link_slack([job], groups, 16) == pytest.approx(2.5)
    # Three maps in w1's group: w1's reduce has w3's map by 4 s; w3's, from 5 s, receives the
    # other three, the last ended at 9 s, by 10 s.
    assert breakdown.link_slack([job], {**groups, "w4": 1}, 8) == pytest.approx(2.0)
    job.reduces[1].start = 8000  # now it cannot have them before 11 s
    assert breakdown.link_slack([job], {**groups, "w4": 1}, 8) == pytest.approx(1.0)
    assert breakdown.link_slack([job], {"w1": 1, "w3": 2}, 8) is None
    assert breakdown.link_slack([job], None, 8) is None
    assert breakdown.link_slack([job], groups, 0) is None
    assert breakdown.link_slack([job], groups, None) is None


def test_link_slack_counts_the_sending_nodes_link_too():
    """Two maps on w3 ending at 1 and 2 s, one each on w1 and w2; reduces on w1 and w2 from 0 s,
    each fetching 1 MB per map. Each reduce has w3's two partitions by 3 s at 8 Mbit/s, but
    w3's link sends all four of them, one at a time: not before 5 s. Shuffles ending at 5.5 and
    6 s are 1 s late, not 3. With every node in one group nothing crosses: the bound is the
    reduces' start."""
    h = history.JobHistory(job_id="job_1_0002")
    h.map_hosts = ["w3", "w3", "w1", "w2"]
    h.map_finishes = [1000, 2000, 1000, 1000]
    h.map_starts = [0] * 4
    shuffle_bytes = {f"{breakdown.TASK_GROUP}.REDUCE_SHUFFLE_BYTES": 4_000_000}
    for host, end in zip(["w1", "w2"], [5500, 6000], strict=True):
        h.reduces.append(history.ReduceAttempt(host, host, 0, end, end, end, shuffle_bytes))
    groups = {"w1": 1, "w2": 1, "w3": 2, "w4": 2}
    assert breakdown.link_slack([h], groups, 8) == pytest.approx(1.0)
    assert breakdown.link_slack([h], dict.fromkeys(groups, 1), 8) == pytest.approx(6.0)


def lagging_job(tmp_path, arrived):
    """Three maps on w3 ending at 1 s, the last map on w2 at 4 s; one reduce on w1 from 0 s,
    whose timeline logs the three 1 MB outputs from w3 at `arrived` (ms), w2's at 4.5 s and one
    from a map attempt that did not succeed."""
    h = history.JobHistory(job_id="job_1_0003")
    h.map_attempts = ["m1", "m2", "m3", "m4"]
    h.map_hosts = ["w3", "w3", "w3", "w2"]
    h.map_finishes = [1000, 1000, 1000, 4000]
    h.reduces.append(history.ReduceAttempt("r0", "w1", 0, 8000, 8000, 8000, {}))
    logged = [*zip(arrived, ["m1", "m2", "m3"], strict=True), (4500, "m4"), (3000, "m9")]
    timeline = tmp_path / "timelines" / h.job_id / "r0.jsonl"
    timeline.parent.mkdir(parents=True, exist_ok=True)
    timeline.write_text(
        "".join(
            json.dumps({"ts": ts, "event": "arrival", "map": m, "bytes": 1_000_000}) + "\n"
            for ts, m in logged
        )
        + json.dumps({"ts": 8000, "event": "shuffle-end"})
        + "\n"
    )
    return h


def test_link_lag_says_whether_the_link_lost_its_time_while_maps_ran_or_after(tmp_path):
    """At 8 Mbit/s w1's incoming link could have had w3's three outputs by 2, 3 and 4 s. Arriving
    at 4, 5 and 6 s, they trailed it by 2 s when the last map ended (4 s) and still at the end,
    and the link ran full after the maps: the time was lost while they ran. Arriving at 2, 3 and
    7 s, nothing was lost until the maps ended, 3 s after, and the link ran at a third of its
    rate. Outputs from the reduce's own group, or from a map attempt that did not succeed, do
    not count."""
    groups = {"w1": 1, "w2": 1, "w3": 2, "w4": 2}
    early = linklag.read_run(
        [lagging_job(tmp_path / "a", [4000, 5000, 6000])], tmp_path / "a", groups, 8
    )
    assert early["link"] in ("w1 in", "w3 out")
    assert early["lag_at_map_end_s"] == pytest.approx(2.0)
    assert early["final_lag_s"] == pytest.approx(2.0)
    assert early["rate_after_maps"] == pytest.approx(1.0)
    late = linklag.read_run(
        [lagging_job(tmp_path / "b", [2000, 3000, 7000])], tmp_path / "b", groups, 8
    )
    assert late["lag_at_map_end_s"] == pytest.approx(0.0)
    assert late["final_lag_s"] == pytest.approx(3.0)
    assert late["rate_after_maps"] == pytest.approx(1 / 3)
    # A stock run's arrivals, logged under arrivals/ rather than timelines/, replay the same way.
    stock = lagging_job(tmp_path / "s", [4000, 5000, 6000])
    (tmp_path / "s" / "timelines").rename(tmp_path / "s" / "arrivals")
    assert linklag.read_run([stock], tmp_path / "s", groups, 8) == early
    # No shaped groups or rate, no arrivals (a `hadoop` run), nothing across: no figures.
    job = lagging_job(tmp_path / "c", [4000, 5000, 6000])
    run_dir = tmp_path / "c"
    assert linklag.read_run([job], run_dir, None, 8) is None
    assert linklag.read_run([job], run_dir, groups, None) is None
    assert linklag.read_run([job], tmp_path / "none", groups, 8) is None
    assert linklag.read_run([job], run_dir, dict.fromkeys(groups, 1), 8) is None
    summary = linklag.summarize([{"link_lag": early}, {"link_lag": late}, {"link_lag": None}, {}])
    assert summary["runs"] == 2
    assert summary["final_lag_s"] == pytest.approx(2.5)
    assert summary["lag_at_map_end_s"] == pytest.approx(1.0)
    assert linklag.summarize([{"link_lag": None}]) is None


def test_the_shaped_groups_are_read_as_shape_splits_the_workers(tmp_path):
    from harness.cluster import read_shaped_groups

    assert read_shaped_groups(tmp_path) is None  # no cluster
    (tmp_path / "nodes.list").write_text(
        "master mc-master 10.0.0.10 mcv-master master 0\n"
        + "".join(f"w{i} mc-w{i} 10.0.0.1{i} mcv-w{i} worker 1\n" for i in range(1, 5))
    )
    assert read_shaped_groups(tmp_path) is None  # not shaped
    (tmp_path / "shaping.env").write_text("SHAPED_GROUPS=2\nRATE_MBIT=10\nTC_KBIT=10456\n")
    assert read_shaped_groups(tmp_path) == {"w1": 1, "w2": 1, "w3": 2, "w4": 2}
    (tmp_path / "shaping.env").write_text("SHAPED_GROUPS=4\nRATE_MBIT=10\n")
    assert read_shaped_groups(tmp_path) == {"w1": 1, "w2": 2, "w3": 3, "w4": 4}


def test_stock_variants_run_hadoops_shuffle_through_the_fetch_wait_timer():
    """Hadoop as shipped (`hadoop`) runs Hadoop's Shuffle itself, untimed."""
    for variant in catalog.STOCK_VARIANTS:
        plugin = catalog.VARIANTS[variant][catalog.PLUGIN_KEY]
        if variant == "hadoop":
            assert plugin == "org.apache.hadoop.mapreduce.task.reduce.Shuffle"
        else:
            assert plugin.endswith(".TimedStockShuffle")


def test_volume_table_gives_map_output_and_shuffle_per_input_byte():
    row = {
        "job": "word-count",
        "shuffle_heavy": False,
        "input_bytes": 8e6,
        "map_output_bytes": 16e6,
        "shuffle_bytes": 2e6,
        "output_records": 60218,
    }
    assert "| word-count | light | 8.0 | 2.000 | 0.250 | 60218 |" in report.volume_table([row])
    assert "| word-count | light | 0.0 | – | – | 60218 |" in report.volume_table(
        [{**row, "input_bytes": 0}]
    )
    assert report.volume_table([]) == []


def test_the_difference_from_the_baseline_splits_into_phases_and_the_final_phase_hidden():
    base = {
        "startup": 4.0,
        "map": 30.0,
        "exposed_shuffle": 60.0,
        "final_merge": 2.0,
        "final_reduce": 8.0,
        "output_write": 1.5,
        "cleanup": 1.0,
    }
    own = {**base, "map": 31.0, "exposed_shuffle": 62.5, "final_merge": 0.5, "final_reduce": 2.5}
    saved = aggregate.saved_by_phase(base, own)
    assert list(saved) == [
        "startup",
        "map",
        "exposed_shuffle",
        "final_merge_and_reduce",
        "output_write",
        "cleanup",
    ]
    assert saved["map"] == -1.0 and saved["exposed_shuffle"] == -2.5
    assert saved["final_merge_and_reduce"] == 7.0
    assert sum(saved.values()) == pytest.approx(sum(base.values()) - sum(own.values()))
    # 7 of the baseline's 10 s of final merge and reduce no longer run after the shuffle
    assert aggregate.final_phase_hidden(base, own) == pytest.approx(0.7)
    # a final phase of a few tenths of a second is within the noise: no share of it
    assert (
        aggregate.final_phase_hidden({**base, "final_merge": 0.1, "final_reduce": 0.3}, own) is None
    )


def test_plan_runs_every_config_once_per_block_in_a_drawn_order_that_a_resume_repeats():
    configs = [runner.Config(v, v) for v in ("stock", "stock-early", "marco")]
    runs = runner.plan("main", ["grep", "word-count"], configs, 6)
    assert len({r.key for r in runs}) == len(runs) == 36
    blocks = [runs[i : i + 3] for i in range(0, len(runs), 3)]
    # job by job, one block per repetition, each holding every config once
    assert [(b[0].job, b[0].rep) for b in blocks] == [
        (job, rep) for job in ("grep", "word-count") for rep in range(1, 7)
    ]
    for block in blocks:
        assert {(r.job, r.rep) for r in block} == {(block[0].job, block[0].rep)}
        assert sorted(r.config.name for r in block) == ["marco", "stock", "stock-early"]
    # the order is drawn, not fixed or rotated: twelve blocks of three are not all alike
    orders = [tuple(r.config.name for r in b) for b in blocks]
    assert len(set(orders)) > 2
    assert any(o[0] == "marco" for o in orders) and any(o[0] != "marco" for o in orders)
    # the same set planned again (a resumed session) runs in the same order; another rate's
    # block of the same job and repetition draws its own
    assert [r.key for r in runner.plan("main", ["grep", "word-count"], configs, 6)] == [
        r.key for r in runs
    ]
    variants = ("stock", "stock-early", "marco")
    at = {
        rate: tuple(
            r.config.name
            for r in runner.plan(
                "bandwidth", ["grep"], [runner.Config(v, v, rate=rate) for v in variants], 1
            )
        )
        for rate in (1.75, 3.5, 7, 14, 28, 56)
    }
    assert len(set(at.values())) > 1


def test_sweep_plans_one_set_per_figure_with_the_settings_it_varies():
    quick = profile.load("quick")
    sw = quick["sweep"]
    runs = cli.sweep_runs(quick, ["bandwidth", "threshold", "stop"], 50)
    assert len({r.key for r in runs}) == len(runs)
    per_job = len(sw["jobs"]) * sw["repetitions"]
    bandwidth = [r for r in runs if r.set == "bandwidth"]
    assert len(bandwidth) == per_job * len(sw["rates"]) * len(sw["variants"])
    assert sorted({r.config.rate for r in bandwidth}) == sw["rates"]
    for set_name, key, values in (
        ("threshold", "mapreduce.marco.start.threshold", sw["start_thresholds"]),
        ("stop-fraction", "mapreduce.marco.stop.fraction", sw["stop_fractions"]),
    ):
        planned = [r for r in runs if r.set == set_name]
        assert len(planned) == per_job * (1 + len(values))
        assert all(r.config.rate is None for r in planned)  # at the cluster's own rate
        stock = [r for r in planned if r.config.variant == "stock"]
        assert len(stock) == per_job and all(r.config.conf == {} for r in stock)
        assert sorted(r.config.conf[key] for r in planned if r.config.variant == "marco") == sorted(
            values * per_job
        )
    assert {r.set for r in cli.sweep_runs(quick, ["stop"], 50)} == {"stop-fraction"}
    with pytest.raises(ValueError, match="unknown sweep 'latency'"):
        cli.sweep_runs(quick, ["latency"], 50)
    with pytest.raises(profile.ProfileError, match="no 'sweep' section"):
        cli.sweep_runs(dict(quick, sweep={}), ["bandwidth"], 50)


def test_the_paper_profile_runs_its_bandwidth_curve_apart_around_main_s_rate():
    paper = profile.load("paper")
    # main runs the main set alone; `curve` runs the curve, 2 interleaved repetitions a point
    assert paper["sweep"]["in_main"] is False and paper["sweep"]["repetitions"] == 2
    ((label, runs),) = cli.main_steps(paper, 3)
    assert label == "main" and {r.set for r in runs} == {"main"}
    # Hadoop exactly as shipped runs beside the two stock baselines and MaRCO
    assert set(paper["variants"]) == {"hadoop", "stock", "stock-early", "marco"}
    # main's rate comes from a probe: the curve follows whatever rate it picked
    assert paper["calibration"]["probe_job"] in paper["jobs"]
    assert catalog.is_shuffle_heavy(paper["calibration"]["probe_job"])
    for rate in (paper["cluster"]["rate_mbit"], 3.5):
        ((label, curve),) = cli.curve_steps(paper, rate)
        rates = sorted({r.config.rate for r in curve} | {rate})
        assert len(rates) >= 4 and rates[0] <= rate / 2 and rates[-1] >= 4 * rate
    assert rates == [1.75, 3.5, 7, 14]
    assert label == "bandwidth curve" and {r.set for r in curve} == {"bandwidth"}
    assert {r.rep for r in curve} == {1, 2}
    # at least two shuffle-heavy jobs and one light one; the main set runs every one of them
    assert sum(catalog.is_shuffle_heavy(j) for j in paper["sweep"]["jobs"]) >= 2
    assert any(not catalog.is_shuffle_heavy(j) for j in paper["sweep"]["jobs"])
    assert set(paper["sweep"]["jobs"]) <= set(paper["jobs"])
    # Every variant gets the same reduce placement, and the output is written once, locally.
    assert paper["job_conf"]["mapreduce.marco.stagger.stock.jobs"] is True
    assert paper["job_conf"]["dfs.replication"] == 1


def test_the_curve_takes_main_s_runs_as_its_point_at_main_s_rate_unless_it_ran_that_rate():
    def summary(set_name, rate, config, speedup_vs):
        return {
            "set": set_name,
            "rate_mbit": rate,
            "job": "adjacency-list",
            "config": config,
            "variant": config,
            "baseline": "stock-early",
            "speedup": speedup_vs.get("stock-early"),
            "speedup_vs": speedup_vs,
        }

    curve = [summary("bandwidth", r, "marco", {"stock-early": 1.1}) for r in (1.75, 7)]
    main = summary("main", 3.5, "marco", {"stock": 1.3, "stock-early": 1.2})
    stock = summary("main", 3.5, "stock-early", {})
    # main's point is measured against the curve's baseline, not main's better stock
    assert [(x, y) for x, y, _ in plots.curve_points([*curve, main, stock])] == [
        (1.75, 1.1),
        (7, 1.1),
        (3.5, 1.2),
    ]
    # a curve run in a directory of its own ran main's rate itself: one point there, its own
    own = summary("bandwidth", 3.5, "marco", {"stock-early": 1.25})
    assert sorted((x, y) for x, y, _ in plots.curve_points([*curve, own, main])) == [
        (1.75, 1.1),
        (3.5, 1.25),
        (7, 1.1),
    ]
    # --rate 3.333: the curve ran it as 3.33, the same point
    main_given = {**main, "rate_mbit": 3.333}
    own_given = {**own, "rate_mbit": 3.33}
    assert [x for x, _, _ in plots.curve_points([own_given, main_given])] == [3.33]
    # a main set whose rate was not known is no point of the curve, and no error either
    unknown = {**main, "rate_mbit": None}
    assert [x for x, _, _ in plots.curve_points([own_given, unknown])] == [3.33]
    assert profile.rounded_rate(None) is None


def test_jobs_variants_and_reps_on_the_command_line_stand_for_the_sweeps_too():
    args = cli.parser().parse_args(
        ["curve", "--jobs", "word-count", "--variants", "stock,marco", "--reps", "3"]
    )
    prof = cli.load_profile(args)
    assert prof["jobs"] == prof["sweep"]["jobs"] == ["word-count"]
    assert prof["variants"] == prof["sweep"]["variants"] == ["stock", "marco"]
    assert prof["repetitions"] == prof["sweep"]["repetitions"] == 3
    ((_, curve),) = cli.curve_steps(prof, 4)
    assert {(r.job, r.config.name, r.rep) for r in curve} == {
        ("word-count", variant, rep) for variant in ("stock", "marco") for rep in (1, 2, 3)
    }
    # without them, the profile's own sweep settings stand
    paper = cli.load_profile(cli.parser().parse_args(["curve"]))
    assert paper["sweep"]["jobs"] == profile.load("paper")["sweep"]["jobs"]
    assert paper["sweep"]["repetitions"] == 2


def test_the_paper_all_profile_is_the_main_command_with_all_eleven_jobs():
    paper, every = profile.load("paper"), profile.load("paper-all")
    assert every["name"] == "paper-all" and every["jobs"] == catalog.ALL_JOBS
    for key in ("cluster", "job_conf", "generate_conf", "repetitions", "reduces"):
        assert every[key] == paper[key], key
    # main's variants less Hadoop as shipped, which on all eleven jobs would take a third longer
    assert every["variants"] == [v for v in paper["variants"] if v != "hadoop"]
    assert {every["data"][catalog.JOB_DATA[j]]["bytes"] for j in catalog.ALL_JOBS} == {"96m"}
    ((_, runs),) = cli.main_steps(every, every["cluster"]["rate_mbit"])
    assert len(runs) == 11 * 3 * paper["repetitions"] == 99
    assert every["sweep"] == paper["sweep"]  # `curve --profile paper-all` runs paper's curve


def test_a_profile_extends_another_and_states_only_what_differs(tmp_path):
    (tmp_path / "base.json").write_text(
        json.dumps(
            {
                "jobs": ["word-count"],
                "repetitions": 2,
                "data": {"text": {"bytes": "8m"}},
                "job_conf": {"a": 1, "b": 2},
            }
        )
    )
    (tmp_path / "child.json").write_text(
        json.dumps(
            {
                "extends": "base.json",
                "jobs": ["word-count", "k-means"],
                "data": {"ratings": {"bytes": "4m"}},
                "job_conf": {"b": 3},
            }
        )
    )
    child = profile.load(tmp_path / "child.json")
    assert child["name"] == "child" and child["repetitions"] == 2
    assert child["jobs"] == ["word-count", "k-means"]
    assert child["data"] == {"text": {"bytes": "8m"}, "ratings": {"bytes": "4m"}}
    assert child["job_conf"] == {"a": 1, "b": 3}
    (tmp_path / "base.json").write_text(json.dumps({"extends": "child.json"}))
    with pytest.raises(profile.ProfileError, match="extends itself"):
        profile.load(tmp_path / "child.json")
    (tmp_path / "base.json").write_text(json.dumps({"extends": "no-such-profile"}))
    with pytest.raises(profile.ProfileError, match="no profile 'no-such-profile'"):
        profile.load(tmp_path / "child.json")


def test_the_job_catalog_is_the_jars_program_list():
    """catalog.py reads programs.tsv, which BenchmarkDriver registers too: eleven jobs, each
    reading a data set that one of the generators makes; a profile without jobs runs them all,
    and none of the extra jobs."""
    assert len(catalog.SHUFFLE_HEAVY) == 6 and len(catalog.SHUFFLE_LIGHT) == 5
    assert catalog.ALL_JOBS[0] == "binary-sort" and "wordcount" not in catalog.ALL_JOBS
    assert set(catalog.JOB_DATA) == set(catalog.ALL_JOBS) | set(catalog.EXTRA_JOBS)
    assert set(catalog.JOB_DATA.values()) == set(catalog.GENERATORS)
    assert catalog.GENERATORS["text"] == "gen-text"
    assert profile.load("quick")["jobs"] == catalog.ALL_JOBS


def test_variants_need_a_stock_baseline():
    assert catalog.check_variants(["stock-early", "marco"]) == ["stock-early", "marco"]
    with pytest.raises(ValueError, match="stock baseline"):
        catalog.check_variants(["marco", "marco-no-adaptive"])


def test_fault_configs_cover_both_variants_and_fail_the_profiles_invocation():
    configs = cli.fault_configs(profile.load("tiny"))
    assert [(c.variant, c.fault) for c in configs] == [
        ("stock", None),
        ("stock", "kill-reduce"),
        ("marco", None),
        ("marco", "kill-reduce"),
        ("marco", "fail-partial"),
    ]
    failing = configs[-1]
    assert failing.conf == {
        "mapreduce.marco.test.fail.invocation": profile.load("tiny")["faults"]["fail_invocation"],
        "mapreduce.marco.finish.all.at.shuffle.end": "true",
    }


def test_profiles_load_and_bad_ones_name_the_problem(tmp_path):
    for name in profile.available():
        p = profile.load(name)
        assert set(p["jobs"]) <= set(catalog.JOB_ORDER)
    quick = profile.load("quick")
    assert quick["jobs"] == catalog.ALL_JOBS and quick["repetitions"] >= 3
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"jobs": ["grep", "sort"], "data": {}}))
    with pytest.raises(profile.ProfileError, match="unknown job.*sort"):
        profile.load(str(bad))
    bad.write_text(json.dumps({"jobs": ["grep"], "data": {}}))
    with pytest.raises(profile.ProfileError, match="data.text"):
        profile.load(str(bad))


def steady_cpu(start_ms, end_ms, idle_per_s=50, nice_per_s=30, total_per_s=200):
    """/proc/stat samples, one a second from start_ms to end_ms, of a machine whose ticks (100 a
    second per core, 2 cores) go idle and nice at steady rates."""
    samples = []
    for t in [*range(start_ms, end_ms, 1000), end_ms]:
        sec = (t - start_ms) / 1000
        samples.append([t, idle_per_s * sec, nice_per_s * sec, total_per_s * sec])
    return {"ticks_per_s": 100, "samples": samples}


def test_the_report_names_the_repositorys_own_paths_from_its_root():
    command = (
        "/srv/ck/hadoop-marco/cluster/marco-cluster client hadoop jar "
        "/srv/ck/hadoop-marco/dist/hadoop-marco-1.0.0/share/b.jar inverted-index "
        "-D mapreduce.map.java.opts=-Xlog:gc:file=/tmp/gc.log /marco-bench/data/x"
    )
    assert report.repo_relative(command) == (
        "cluster/marco-cluster client hadoop jar dist/hadoop-marco-1.0.0/share/b.jar "
        "inverted-index -D mapreduce.map.java.opts=-Xlog:gc:file=/tmp/gc.log /marco-bench/data/x"
    )
    lines = report.example_commands(
        [{"variant": "stock", "key": "main/j/stock/1", "command": command}]
    )
    assert not any("/srv/ck" in line for line in lines)


def test_proc_stat_is_read_as_idle_nice_and_total_without_steal():
    text = "cpu  100 20 30 400 50 1 2 7 0 0\ncpu0 50 10 15 200 25 0 1 3 0 0\nintr 1\n"
    assert machine_cpu.parse_stat(text) == (450, 20, 603)
    with pytest.raises(ValueError, match="cpu"):
        machine_cpu.parse_stat("intr 1\n")


def test_the_sampler_spans_what_runs_between_start_and_stop(tmp_path):
    stat = tmp_path / "stat"
    stat.write_text("cpu  1 2 3 4 5 6 7 8\n")
    sampler = machine_cpu.CpuSampler(stat)
    sampler.start()
    begin = int(time.time() * 1000)
    # Until the thread has sampled once on its own (after SAMPLE_INTERVAL_S), however long the
    # machine takes to schedule it; a fixed sleep would fail on a busy one.
    deadline = time.monotonic() + 60
    while len(sampler.samples) < 2:
        assert time.monotonic() < deadline, "the sampler thread took no sample in 60 s"
        time.sleep(0.05)
    end = int(time.time() * 1000)
    cpu = sampler.stop()
    times = [s[0] for s in cpu["samples"]]
    assert times[0] <= begin and times[-1] >= end and times == sorted(times)
    assert len(times) >= 3  # one at start, at least one while it ran, one at stop
    assert cpu["samples"][0][1:] == (9, 2, 28) and cpu["ticks_per_s"] > 0


def test_the_machines_cpu_splits_by_the_critical_paths_phases():
    """A steady machine, 0.5 core idle and 0.3 core at nice of its 2: every phase gets its share
    of the run, and the phases together hold all the run's CPU."""
    h = load("marco")
    start, end = h.submit - 1500, h.finish + 2500
    windows = breakdown.phase_windows([h], start, end)
    assert [w[0] for w in windows] == breakdown.PHASES
    assert all(a[2] == b[1] for a, b in zip(windows, windows[1:], strict=False))
    cpu = machine_cpu.by_phase(steady_cpu(start, end), windows)
    b = breakdown.run_breakdown([h], start, end)
    for phase, seconds in b.items():
        assert cpu[phase]["idle"] == pytest.approx(0.5 * seconds)
        assert cpu[phase]["nice"] == pytest.approx(0.3 * seconds)
        assert cpu[phase]["busy"] == pytest.approx(1.5 * seconds)
    # A window the samples do not cover has no share to give.
    assert machine_cpu.by_phase(steady_cpu(start + 1000, end), windows) is None


def fake_run(out, name, config, rep, sha, shift_ms):
    """A results.jsonl record as the runner writes it, from a fixture history."""
    h = load(name)
    start, end = h.submit - 1000 - shift_ms, h.finish + 1000
    record = {
        "key": f"main/word-sum/{config}/{rep}",
        "set": "main",
        "job": "word-count",
        "config": config,
        "variant": config,
        "conf": {},
        "rate_mbit": 50,
        "fault": None,
        "rep": rep,
        "status": "ok",
        "error": None,
        "command": "hadoop jar ...",
        "shuffle_heavy": False,
        "wall_s": (end - start) / 1000,
        "start_ms": start,
        "end_ms": end,
        "job_ids": [h.job_id],
        "output_sha256": sha,
        **runner.analyse([h], start, end, cpu=steady_cpu(start, end)),
    }
    # Each reduce's safepoints, as read_run gives them: MaRCO's slowest to reach one.
    slowest = {"stock": 0.5, "marco": 40.0}[name] * rep
    record["safepoints"] = {
        "reduces": 2,
        "ttsp_max_ms": slowest,
        "count_per_reduce": 12,
        "ttsp_per_reduce_ms": slowest + 1,
        "at_safepoint_per_reduce_ms": 30.0,
        "by_reduce": {},
    }
    if name == "marco":
        dest = out / "runs" / f"{config}-{rep}" / "timelines"
        shutil.copytree(DATA / "timelines", dest)
        record["timelines"] = sorted(str(p.relative_to(out)) for p in dest.rglob("*.jsonl"))
        # When its link slack arose, as linklag.read_run gives it.
        record["link_lag"] = {
            "link": "w1 in",
            "lag_at_map_end_s": 2.0 * rep,
            "final_lag_s": 1.0 * rep,
            "rate_after_maps": None if rep == 1 else 1.1,
        }
    return record


def write_results(out, marco_sha):
    records = [
        fake_run(out, "stock", "stock", 1, "aa", 0),
        fake_run(out, "marco", "marco", 1, marco_sha, 0),
        fake_run(out, "marco", "marco", 2, marco_sha, 800),
        fake_run(out, "stock", "stock", 2, "aa", 400),
    ]
    out.mkdir(exist_ok=True)
    (out / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return records


def test_report_writes_tables_csv_and_figures(tmp_path):
    out = tmp_path / "results"
    out.mkdir()
    records = write_results(out, "aa")
    md, figures = report.write_report(out)
    text = md.read_text()
    assert {"normalized-main", "breakdown-main", "timeline"} <= set(figures)
    for f in figures.values():
        assert Path(f).stat().st_size > 5000
    with (out / "results.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 4
    for row in rows:
        phases = sum(float(row[p]) for p in breakdown.PHASES)
        assert phases == pytest.approx(float(row["wall_s"]), abs=0.01)
    summary = json.loads((out / "results.json").read_text())["summaries"]
    marco = next(s for s in summary if s["config"] == "marco")
    stock_mean = sum(r["wall_s"] for r in records if r["config"] == "stock") / 2
    marco_walls = [r["wall_s"] for r in records if r["config"] == "marco"]
    assert marco["speedup"] == pytest.approx(stock_mean / (sum(marco_walls) / 2))
    assert marco["normalized"]["max"] == pytest.approx(max(marco_walls) / stock_mean)
    assert marco["identical_to_stock"] is True
    assert "| word-count | light | efficient | marco | 2 |" in text
    assert "yes |" in text and "(baseline)" in text
    # the fetchers' wait for the merge manager, per config beside the fetch wait
    assert "| fetch wait | manager wait | link slack |" in text
    assert [r["merge_manager_wait_s"] for r in rows] == ["0.0"] * 4
    # the time to safepoint in the reduces, median over each config's runs
    assert "| word-count | stock | 2 | 0.75 | 12 | 1.75 | 30.00 |" in text
    assert "| word-count | marco | 2 | 60.00 | 12 | 61.00 | 30.00 |" in text
    assert [float(r["ttsp_max_ms"]) for r in rows] == [0.5, 40.0, 80.0, 1.0]
    # when the link slack arose: MaRCO's runs only, medians over the runs that have each figure
    assert "| word-count | marco | 2 | 3.0 | 1.5 | 1.10 |" in text
    assert "| word-count | stock | 2 | 3.0" not in text
    with (out / "summary.csv").open() as f:
        by_config = {r["config"]: r for r in csv.DictReader(f)}
    assert float(by_config["marco"]["ttsp_per_reduce_ms"]) == 61.0
    assert by_config["marco"]["runs"] == "2"
    # all tasks' CPU seconds, and the busiest node's: the fixture's single host has it all
    assert marco["task_cpu_s"] == pytest.approx(4.05) and marco[
        "busiest_node_cpu_s"
    ] == pytest.approx(4.05)
    assert "| 4 (4) |" in text
    # the machine's CPU by phase, from the fixture's steady 0.5 idle and 0.3 nice cores
    b = marco["breakdown"]
    cells = next(
        line
        for line in text.splitlines()
        if line.startswith("| word-count | marco | ") and "/" in line
    ).split(" | ")
    assert cells[2] == f"{0.5 * b['map']:.1f} / {0.3 * b['map']:.1f}"
    final = b["final_merge"] + b["final_reduce"]
    assert cells[4] == f"{1.5 * final:.1f} / {0.5 * final:.1f}"
    assert float(rows[1]["task_cpu_s"]) == pytest.approx(4.05)
    # where MaRCO's difference from stock came from: one row, its phases adding up to it
    saved = marco["saved_by_phase"]
    assert sum(saved.values()) == pytest.approx(stock_mean - sum(marco_walls) / 2)
    row = next(
        line for line in text.splitlines() if line.startswith("| word-count | marco | stock |")
    )
    assert row.split(" | ")[-2] == f"{sum(saved.values()):+.1f}"
    # MaRCO's speedup against the band noise alone gives it, in the report and results.json
    band = json.loads((out / "results.json").read_text())["noise"]["main"]["50"]["jobs"]
    assert band["word-count"]["speedup"] == pytest.approx(marco["speedup"])
    assert f"| word-count | {marco['speedup']:.3f} | {band['word-count']['low']:.3f} |" in text


def noise_record(job, config, rep, wall, **extra):
    variant = extra.pop("variant", config)
    return {
        "set": "main",
        "rate_mbit": 50,
        "job": job,
        "config": config,
        "variant": variant,
        "rep": rep,
        "status": "ok",
        "wall_s": wall,
        **extra,
    }


def noise_records(times_by_job, rate=50):
    return [
        noise_record(job, config, rep, wall, rate_mbit=rate)
        for job, times in times_by_job.items()
        for config, ts in times.items()
        for rep, wall in enumerate(ts, 1)
    ]


def test_noise_alone_gives_a_band_that_a_real_difference_leaves():
    """Dealing each repetition block's runs out to its configs again: a gap larger than the
    runs' spread lies outside the band on its side, equal variants inside it, and the
    faster-of-two-stocks baseline pulls the band's median below 1."""
    faster = {"stock": [100, 110, 90], "stock-early": [105, 95, 100], "marco": [80, 82, 81]}
    same = {"stock": [100, 110, 90], "stock-early": [105, 95, 102], "marco": [99, 108, 93]}
    slower = {"stock": [80, 82, 81], "stock-early": [79, 83, 80], "marco": [100, 104, 98]}
    records = noise_records(
        {"adjacency-list": faster, "word-count": same, "classification": slower}
    )
    # Not dealt out: another MaRCO variant, a fault run and a failed run.
    records += [
        noise_record("word-count", "marco-no-control", 1, 10),
        noise_record("word-count", "marco", 4, 10, fault="kill-reduce"),
        noise_record("word-count", "marco", 5, 10, status="failed"),
    ]
    (at50,) = noise.ranges(records, "main").values()
    fast, equal, slow = (
        at50["jobs"][j] for j in ("adjacency-list", "word-count", "classification")
    )
    # 3 blocks of three configs: all 6 x 6 x 6 = 216 deals. As fast as measured only with MaRCO
    # taking each block's fastest run and the stocks' six split into two means of 100: 2 deals.
    assert fast["exact"] and fast["share_at_or_above"] == pytest.approx(2 / 216)
    assert fast["dealt"] == noise.WITHIN_BLOCKS
    assert fast["speedup"] == pytest.approx(100 / 81) and fast["beyond_noise"] == "faster"
    assert fast["low"] <= fast["median"] <= fast["high"] < fast["speedup"]
    assert slow["speedup"] == pytest.approx(80.67 / 100.67, abs=1e-3)
    assert slow["beyond_noise"] == "slower" and slow["share_at_or_below"] <= 0.05
    assert equal["speedup"] == pytest.approx(100 / 100) and equal["beyond_noise"] is None
    assert equal["low"] < equal["speedup"] < equal["high"] and equal["median"] < 1
    assert at50["two_stocks"]
    assert at50["heavy_geomean"]["speedup"] == pytest.approx(fast["speedup"])
    product = fast["speedup"] * equal["speedup"] * slow["speedup"]
    assert at50["geomean"]["speedup"] == pytest.approx(product ** (1 / 3))
    assert 0 < at50["every_job_at_least_floor"] < at50["light_at_least_floor"] < 1
    # The same records always give the same bands, and another job's runs leave them as they were.
    assert noise.ranges(records, "main") == noise.ranges(records, "main")
    more = records + noise_records({"grep": same})
    assert noise.ranges(more, "main")[50]["jobs"]["word-count"] == equal
    # A job with one MaRCO run, or no stock run, has no band; another set, none either.
    assert noise.ranges(records[:9], "main")[50]["jobs"].keys() == {"adjacency-list"}
    assert noise.ranges(records[:7], "main") == {}
    assert noise.ranges([r for r in records if r["config"] == "marco"], "main") == {}
    assert noise.ranges(records, "bandwidth") == {}


def test_hadoop_as_shipped_is_dealt_out_only_where_it_is_the_baseline():
    """`hadoop` runs beside the stocks as a reference. Slower than them, its runs stay out of
    MaRCO's deals: dealing them out would make a real difference look like noise. Where it is
    the faster stock, it is the baseline and is dealt out as any stock."""
    times = {"stock": [100, 102, 98], "stock-early": [101, 99, 100], "marco": [90, 91, 89]}
    with_slow_hadoop = {**times, "hadoop": [130, 135, 128]}
    band = noise.ranges(noise_records({"adjacency-list": times}), "main")[50]["jobs"]
    slow = noise.ranges(noise_records({"adjacency-list": with_slow_hadoop}), "main")[50]["jobs"]
    assert slow == band and band["adjacency-list"]["beyond_noise"] == "faster"
    records = noise_records({"adjacency-list": {**times, "hadoop": [95, 96, 94]}})
    fast = noise.ranges(records, "main")[50]["jobs"]
    assert fast["adjacency-list"]["speedup"] == pytest.approx(95 / 90)
    every_stock = noise.job_blocks(records, "main", "marco")
    assert len(every_stock[50, "adjacency-list"][0]) == 4
    dealt = noise.rate_ranges(
        {"adjacency-list": every_stock[50, "adjacency-list"]}, "marco", "1/main/50"
    )
    assert fast == dealt["jobs"]


def test_two_runs_against_two_cannot_tell_a_difference_from_noise():
    """With 2 blocks of MaRCO and one stock, the most extreme of the 4 deals within the blocks
    is 1 in 4, and of the 6 across the set 1 in 6: no gap, however large, is unlikely from noise
    alone, and the report says so. A third config makes the 90 deals across the set enough."""
    records = noise_records({"adjacency-list": {"stock-early": [150, 152], "marco": [100, 101]}})
    (at50,) = noise.ranges(records, "main").values()
    band = at50["jobs"]["adjacency-list"]
    assert band["exact"] and band["share_at_or_above"] == pytest.approx(1 / 6)
    assert band["dealt"] == noise.ACROSS_THE_SET
    # Within 2 blocks of three configs every deal has a twin (the two stocks swapped), so the
    # most extreme is 2 in 36; across the set it is 2 in 90, rare enough.
    three = noise_records(
        {"adjacency-list": {"stock": [150, 152], "stock-early": [149, 153], "marco": [100, 101]}}
    )
    (wide,) = noise.ranges(three, "main").values()
    wide = wide["jobs"]["adjacency-list"]
    assert wide["dealt"] == noise.ACROSS_THE_SET and wide["beyond_noise"] == "faster"
    assert wide["share_at_or_above"] == pytest.approx(2 / 90)
    assert band["beyond_noise"] == "too few runs to tell" and not at50["two_stocks"]
    assert at50["light_at_least_floor"] is None
    text = "\n".join(report.noise_section(noise.ranges(records, "main"), "main"))
    assert "| adjacency-list | 1.502 |" in text
    assert "| across the set | too few runs to tell |" in text
    assert "every job at 0.98 or more in" in text and "shuffle-light" not in text
    assert "faster of two stock configs" not in text
    # A second set's section points back to the first one's explanation instead of repeating it.
    assert "Each job's wall times dealt out" in text
    again = report.noise_section(noise.ranges(records, "main"), "bandwidth", explain=False)
    assert "Each job's wall times dealt out" not in "\n".join(again)
    assert "as in the first section of this name above" in "\n".join(again)


def test_dealing_out_keeps_each_block_s_runs_in_that_block():
    """A deal moves a run only to another config of its own block, so what drifts between
    blocks stays out of the deals; the set's runs pooled are one block."""
    blocks = [
        {"stock": [1.0], "marco": [2.0]},
        {"stock": [10.0], "marco": [20.0], "stock-early": [30.0]},
    ]
    rng = random.Random(3)
    deals = [noise.dealt(blocks, rng) for _ in range(50)]
    for d in deals:
        assert {c: len(ts) for c, ts in d.items()} == {"stock": 2, "marco": 2, "stock-early": 1}
        assert sorted([d["stock"][0], d["marco"][0]]) == [1.0, 2.0]
        assert sorted([d["stock"][1], d["marco"][1], d["stock-early"][0]]) == [10.0, 20.0, 30.0]
    assert len({tuple(d["marco"]) for d in deals}) > 1
    # every deal, each once: 2 ways in the first block times 6 in the second
    every = list(noise.every_deal(blocks))
    assert noise.deal_count(blocks) == len(every) == 12
    assert len({(tuple(d["marco"]), tuple(d["stock"])) for d in every}) == 12
    pooled = noise.times_of(blocks)
    assert pooled == {"stock": [1.0, 10.0], "marco": [2.0, 20.0], "stock-early": [30.0]}
    # across the set: 5!/(2! 2! 1!) = 30 ways, each once
    assert noise.deal_count([pooled]) == len({str(d) for d in noise.every_deal([pooled])}) == 30
    assert noise.deal_count([{"a": [1] * 3, "b": [1] * 3, "c": [1] * 3}]) == 1680
    assert noise.deal_count([{"a": [1], "b": [1], "c": [1]}] * 3) == 216
    assert noise.percentile([1, 2, 3, 4, 5], 0.5) == 3 and noise.percentile([7], 0.95) == 7


def test_the_heavy_aim_is_held_against_the_ideal_of_the_same_jobs():
    """The geometric mean of the heavy jobs' ideal speedups says how much of the 1.15 aim the
    regime leaves to hide; light jobs count in neither mean."""

    def summary(job, heavy, speedup, ideal):
        return {
            "set": "main",
            "rate_mbit": 3.5,
            "config": "marco",
            "job": job,
            "shuffle_heavy": heavy,
            "speedup": speedup,
            "ideal_speedup": ideal,
            "fraction_of_ideal": None,
            "map_phase_ratio": 1.0,
        }

    t = aggregate.targets(
        [
            summary("adjacency-list", True, 1.12, 1.21),
            summary("self-join", True, 0.99, 1.01),
            summary("grep", False, 0.97, 1.0),
        ],
        "main",
        3.5,
    )
    assert t["heavy_geomean_speedup"] == pytest.approx((1.12 * 0.99) ** 0.5)
    assert t["heavy_ideal_geomean_speedup"] == pytest.approx((1.21 * 1.01) ** 0.5)
    assert t["heavy_geomean_met"] is False and t["light_at_least_floor"] == {"grep": False}


def test_a_heavy_jobs_share_of_its_ideal_is_held_to_its_noise_band():
    """95% of the ideal gain is met, missed, or within the noise band of the speedup expressed as
    a share of the ideal gain; an ideal gain no larger than that band cannot be held to it."""

    def summary(share, ideal):
        return {"fraction_of_ideal": share, "ideal_speedup": ideal}

    # ideal gain 0.20; a half band of 0.08 is 40% of it
    assert aggregate.ideal_share(summary(0.96, 1.2), 0.08) == {
        "share": 0.96,
        "band": pytest.approx(0.4),
        "verdict": "met",
    }
    assert aggregate.ideal_share(summary(0.60, 1.2), 0.08)["verdict"] == "within noise"
    assert aggregate.ideal_share(summary(0.50, 1.2), 0.08)["verdict"] == "not met"
    assert aggregate.ideal_share(summary(0.60, 1.2), None) == {
        "share": 0.60,
        "band": None,
        "verdict": "not met",
    }
    assert aggregate.ideal_share(summary(0.2, 1.02), 0.05)["verdict"] == "ideal within noise"
    assert aggregate.ideal_share(summary(None, 1.0), 0.05)["verdict"] is None
    rows = [
        {
            "set": "main",
            "rate_mbit": 3.5,
            "config": "marco",
            "job": job,
            "shuffle_heavy": True,
            "speedup": 1.1,
            "ideal_speedup": 1.2,
            "fraction_of_ideal": 0.6,
            "map_phase_ratio": 1.0,
            "final_phase_hidden": 0.8,
        }
        for job in ("adjacency-list", "inverted-index")
    ]
    t = aggregate.targets(rows, "main", 3.5, half_bands={"adjacency-list": 0.08})
    verdicts = {j: v["verdict"] for j, v in t["heavy_ideal_share"].items()}
    assert verdicts == {"adjacency-list": "within noise", "inverted-index": "not met"}
    text = "\n".join(report.aims_lines(t, ""))
    assert "adjacency-list within noise (60% ± 40% of it;" in text
    assert "inverted-index not met (60% of it;" in text


def test_the_aims_of_a_set_with_several_rates_are_held_rate_by_rate(tmp_path):
    """A curve's set holds every job at every rate: each rate gets its own aims, and a job's
    share of its ideal at one rate is not reported as its share at another."""
    out = tmp_path / "results"
    out.mkdir()
    records = []
    # adjacency-list gains 20% at 3.5 Mbit/s and nothing at 14
    for rate, marco_s, reps in ((3.5, 100.0, (1, 2)), (14.0, 120.0, (3, 4))):
        for rep in reps:
            for config in ("stock-early", "marco"):
                r = fake_run(out, "marco" if config == "marco" else "stock", config, rep, "aa", 0)
                r.update(
                    key=f"bandwidth/adjacency-list/{config}@{rate}/{rep}",
                    set="bandwidth",
                    job="adjacency-list",
                    rate_mbit=rate,
                    wall_s=marco_s if config == "marco" else 120.0,
                )
                records.append(r)
    (out / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    md, _ = report.write_report(out)
    by_rate = json.loads((out / "results.json").read_text())["targets"]["bandwidth"]
    assert set(by_rate) == {"3.5", "14.0"}
    assert by_rate["3.5"]["heavy_geomean_speedup"] == pytest.approx(1.2)
    assert by_rate["14.0"]["heavy_geomean_speedup"] == pytest.approx(1.0)
    text = md.read_text()
    assert "### Aims at 3.5 Mbit/s between groups" in text
    assert "### Aims at 14.0 Mbit/s between groups" in text
    assert "### Aims (MaRCO" not in text


def test_report_flags_an_output_that_differs_from_stock(tmp_path):
    out = tmp_path / "results"
    out.mkdir()
    write_results(out, "bb")
    md, _ = report.write_report(out)
    assert "**NO**" in md.read_text()
    [targets] = json.loads((out / "results.json").read_text())["targets"]["main"].values()
    assert targets["all_identical"] is False


def test_composite_crc_digest_covers_names_and_crcs_and_refuses_other_checksums():
    def listing(*files):
        return "".join(f"/b/out/{name}\t{alg}\t{crc}\n" for name, alg, crc in files)

    a = listing(
        ("part-r-00000", "COMPOSITE-CRC32C", "6a0ad7b1"),
        ("part-r-00001", "COMPOSITE-CRC32C", "00c0ffee"),
        ("_SUCCESS", "COMPOSITE-CRC32C", "00000000"),
    )
    # the same files listed in another order, from another directory, without the marker
    same = (
        "/c/out/part-r-00001\tCOMPOSITE-CRC32C\t00c0ffee\n"
        "/c/out/part-r-00000\tCOMPOSITE-CRC32C\t6a0ad7b1\n"
    )
    assert runner.composite_crc_digest(a, "/b/out") == runner.composite_crc_digest(same, "/c/out")
    changed = listing(
        ("part-r-00000", "COMPOSITE-CRC32C", "6a0ad7b2"),
        ("part-r-00001", "COMPOSITE-CRC32C", "00c0ffee"),
    )
    renamed = listing(
        ("part-r-00002", "COMPOSITE-CRC32C", "6a0ad7b1"),
        ("part-r-00001", "COMPOSITE-CRC32C", "00c0ffee"),
    )
    assert len({runner.composite_crc_digest(x, "/b/out") for x in (a, changed, renamed)}) == 3
    with pytest.raises(
        runner.ClusterError, match="MD5-of-0MD5-of-512CRC32C checksum .*output_checksum 'download'"
    ):
        runner.composite_crc_digest(
            listing(("part-r-00000", "MD5-of-0MD5-of-512CRC32C", "ab")), "/b/out"
        )
    with pytest.raises(runner.ClusterError, match="no output file checksums"):
        runner.composite_crc_digest(listing(("_SUCCESS", "COMPOSITE-CRC32C", "0")), "/b/out")


def test_a_profile_names_how_outputs_are_compared():
    assert profile.load("tiny")["output_checksum"] == "download"
    assert profile.load("large")["output_checksum"] == "composite-crc"
    with pytest.raises(
        profile.ProfileError, match="output_checksum must be one of download, composite-crc"
    ):
        profile.validate({**profile.load("tiny"), "output_checksum": "md5"})


def test_checksum_covers_names_and_bytes_and_skips_markers(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        d.mkdir()
        (d / "part-r-00000").write_text("x\t1\n")
        (d / "_SUCCESS").write_text("")
    (b / "_SUCCESS").write_text("different marker")
    assert runner.checksum(a) == runner.checksum(b)
    (b / "part-r-00001").write_text("")
    assert runner.checksum(a)[0] != runner.checksum(b)[0]


def test_the_better_stock_baseline_is_the_faster_one_and_the_gain_splits(tmp_path):
    out = tmp_path / "results"
    out.mkdir()
    records = write_results(out, "aa")
    early = [
        dict(
            r,
            config="stock-early",
            variant="stock-early",
            key=r["key"].replace("/stock/", "/stock-early/"),
            wall_s=r["wall_s"] - 0.5,
        )
        for r in records
        if r["config"] == "stock"
    ]
    (out / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records + early))
    report.write_report(out)
    summary = {s["config"]: s for s in json.loads((out / "results.json").read_text())["summaries"]}
    marco, stock, stock_early = summary["marco"], summary["stock"], summary["stock-early"]
    assert marco["baseline"] == "stock-early" and stock["baseline"] == "stock-early"
    early_mean = stock_early["wall_s"]["mean"]
    assert marco["speedup"] == pytest.approx(early_mean / marco["wall_s"]["mean"])
    # Early fetching and partial work, apart:
    # MaRCO vs stock = stock/stock-early * stock-early/MaRCO.
    assert marco["speedup_vs"]["stock"] == pytest.approx(
        stock["wall_s"]["mean"] / early_mean * marco["speedup"]
    )
    assert marco["identical_to_stock"] is True
    assert "(baseline)" in (out / "report.md").read_text()


def test_a_run_record_states_the_shaping_in_force_not_the_profiles(tmp_path):
    class ShapedClient:
        """A client of a cluster that someone re-shaped by hand to 4 Mbit/s."""

        netns = True
        rates = [4]

        def benchmarks_jar(self):
            return "benchmarks.jar"

        def shaped_rate(self):
            return self.rates[-1]

    prof = profile.load("tiny")
    assert prof["cluster"]["rate_mbit"] == 50
    client = ShapedClient()
    run = runner.Runner(client, prof, tmp_path, "/bench")
    assert (run.current_rate, run.rate_source) == (4, "shaping in force")
    # A re-shape records what `shape` left in force, read back after it (here not quite what
    # was asked for, as a shaper that rounds would).
    run.shaper = lambda rate: client.rates.append(rate - 1)
    run.reshape(25)
    assert run.current_rate == 24


def test_shaping_env_is_read_as_shape_writes_it(tmp_path):
    from harness.cluster import ClusterError, read_shaping_env

    env = tmp_path / "shaping.env"
    assert read_shaping_env(env) == 0  # not shaped
    env.write_text("SHAPED_GROUPS=2\nRATE_MBIT=7.5\nTC_KBIT=7845\n")
    assert read_shaping_env(env) == 7.5
    env.write_text("SHAPED_GROUPS=2\nRATE_MBIT=10\n")
    assert read_shaping_env(env) == 10
    env.write_text("SHAPED_GROUPS=2\n")
    with pytest.raises(ClusterError, match="RATE_MBIT"):
        read_shaping_env(env)


def test_bisection_bytes_are_read_from_the_shaped_class_only():
    from harness.cluster import shaped_class_sent

    stats = (
        "class htb 4d43:10 root prio 0 rate 100Gbit ceil 100Gbit burst 4175000b cburst 4175000b\n"
        " Sent 223148481 bytes 163521 pkt (dropped 0, overlimits 0 requeues 0)\n"
        " backlog 0b 0p requeues 0\n"
        "\n"
        "class htb 4d43:20 root prio 0 rate 10456Kbit ceil 10456Kbit burst 15Kb cburst 15Kb\n"
        " Sent 129605042 bytes 86270 pkt (dropped 0, overlimits 5084 requeues 0)\n"
        " backlog 0b 0p requeues 0\n"
    )
    assert shaped_class_sent(stats) == 129605042
    assert shaped_class_sent(stats.split("\n\n")[0]) is None  # only the fast class: not shaped
    assert shaped_class_sent("") is None


def calibration_record(rate, wall, startup, map_s, final_merge, final_reduce, shuffle_mb):
    return {
        "job": "inverted-index",
        "rate_mbit": rate,
        "wall_s": wall,
        "reduces": 4,
        "shuffle_bytes": shuffle_mb * 1e6,
        "hdfs_bytes_read": 256e6,
        "breakdown": {
            "startup": startup,
            "map": map_s,
            "exposed_shuffle": 10,
            "final_merge": final_merge,
            "final_reduce": final_reduce,
            "cleanup": 1,
        },
    }


def test_calibration_picks_the_highest_rate_where_the_shuffle_outlasts_the_maps():
    from harness import calibration

    # 4 workers in 2 groups: a node receives 1/8 of the shuffle across the link.
    # 320 MB: 40 MB per node, 32 s at 10 Mbit/s, 16 s at 20, 64 s at 5.
    rows = [
        calibration.assess(calibration_record(rate, wall, 5, 30, 8, 6, 320), 4, 2)
        for rate, wall in ((20, 60), (10, 70), (5, 100))
    ]
    assert [round(r["network_s"]) for r in rows] == [16, 32, 64]
    assert [r["network_bound"] for r in rows] == [False, True, True]
    assert rows[1]["hideable_share"] == pytest.approx(14 / 70)
    assert [r["passes"] for r in rows] == [False, True, False]  # at 5: 14 of 100 s hideable
    assert calibration.choose(rows, ["inverted-index"]) == 10
    # A rate where a calibration job did not run (failed) cannot be chosen.
    assert calibration.choose(rows, ["inverted-index", "self-join"]) is None
    assert rows[1]["final_mb_per_s"] == pytest.approx(80 / 14)
    slow_start = calibration.assess(calibration_record(10, 70, 11, 30, 8, 6, 320), 4, 2)
    assert not slow_start["passes"]  # start-up 11 of 70 s is over 15%
    assert calibration.choose([slow_start], ["inverted-index"]) is None


def test_a_results_directory_refuses_runs_of_another_commit_profile_or_cluster(tmp_path):
    from harness import resume

    out = tmp_path / "results"
    mine = resume.identity(
        "abc123", "paper", "digest", {"workers": 4, "groups": 2, "rate_mbit": 10}
    )
    resume.check(out, mine)  # a new directory takes this session's identity
    assert json.loads((out / resume.IDENTITY_FILE).read_text()) == mine
    (out / "results.jsonl").write_text('{"key": "main/word-count/stock/1", "status": "ok"}\n')
    resume.check(out, dict(mine))  # the same session shape resumes
    for key, other in [
        ("git_commit", "def456"),
        ("profile_sha256", "changed"),
        ("cluster", {"workers": 4, "groups": 2, "rate_mbit": 20}),
    ]:
        with pytest.raises(resume.ResumeError) as e:
            resume.check(out, {**mine, key: other})
        assert key in str(e.value) and "--fresh" in str(e.value)
    # Runs nobody vouches for are refused as well; --fresh keeps them beside the new directory.
    (out / resume.IDENTITY_FILE).unlink()
    with pytest.raises(resume.ResumeError, match="no identity.json"):
        resume.check(out, mine)
    moved = resume.set_aside(out)
    assert not out.exists() and (moved / "results.jsonl").exists()
    assert moved.name.startswith("results.previous-")
    resume.check(out, mine)


def git_in(repo, *argv):
    subprocess.run(["git", "-C", str(repo), *argv], check=True, capture_output=True)


def commit_file(repo, path, text):
    """Writes `path` in `repo` and commits it; returns the commit as the harness records it."""
    from harness import resume

    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_text(text)
    git_in(repo, "add", path)
    git_in(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", path)
    return resume.git_commit(repo)


def test_the_recorded_commit_says_when_the_tree_differs_from_it(tmp_path):
    from harness import resume

    assert resume.git_commit(tmp_path) == "unknown (not a git checkout)"
    git_in(tmp_path, "init", "-q")
    commit_file(tmp_path, "README.md", "about\n")
    clean = commit_file(tmp_path, "code.py", "x = 1\n")
    assert len(clean) == 40 and resume.git_commit(tmp_path, short=True) == clean[:7]
    (tmp_path / "results.jsonl").write_text("{}\n")  # untracked output is not the code
    (tmp_path / "README.md").write_text("edited\n")  # nor is documentation
    assert resume.git_commit(tmp_path) == clean
    (tmp_path / "code.py").write_text("x = 2\n")
    assert resume.git_commit(tmp_path) == clean + "-dirty"
    assert resume.git_commit(tmp_path, short=True) == clean[:7] + "-dirty"


def test_a_commit_that_changes_only_documentation_keeps_the_runs_comparable(tmp_path):
    from harness import resume

    repo, out = tmp_path / "repo", tmp_path / "results"
    repo.mkdir()

    def commit(path, text):
        return commit_file(repo, path, text)

    def session():
        return resume.identity(resume.git_commit(repo), "paper", "digest", {"workers": 4})

    git_in(repo, "init", "-q")
    measured = commit("harness/code.py", "x = 1\n")
    resume.check(out, session(), repo)
    (out / "results.jsonl").write_text('{"key": "main/word-count/stock/1", "status": "ok"}\n')
    # A result published between two sessions: docs/ and Markdown files anywhere.
    commit("docs/results.md", "1.26\n")
    commit("README.md", "headline\n")
    commit("benchmarks/NOTES.md", "draft\n")
    (repo / "docs" / "results.md").write_text("1.27\n")  # uncommitted, still documentation
    resume.check(out, session(), repo)
    # the directory keeps the identity of the code that made its runs
    assert json.loads((out / resume.IDENTITY_FILE).read_text())["git_commit"] == measured
    # Without the checkout to ask, a new commit is a difference, as before.
    with pytest.raises(resume.ResumeError, match="git_commit"):
        resume.check(out, session())
    # Code that changed, committed or not, is refused.
    (repo / "harness" / "code.py").write_text("x = 2\n")
    with pytest.raises(resume.ResumeError, match="git_commit"):
        resume.check(out, session(), repo)
    commit("harness/code.py", "x = 2\n")
    with pytest.raises(resume.ResumeError, match="git_commit"):
        resume.check(out, session(), repo)
    # Runs of a dirty tree name no commit to compare with.
    (out / resume.IDENTITY_FILE).write_text(
        json.dumps({**session(), "git_commit": measured + "-dirty"})
    )
    commit("harness/code.py", "x = 1\n")
    with pytest.raises(resume.ResumeError, match="git_commit"):
        resume.check(out, session(), repo)


def test_main_on_a_finished_directory_says_so_without_starting_a_cluster(tmp_path, monkeypatch):
    prof = profile.load("tiny")
    with (tmp_path / "results.jsonl").open("w") as f:
        for _, runs in cli.main_steps(prof, prof["cluster"]["rate_mbit"]):
            for r in runs:
                f.write(json.dumps({"key": r.key, "status": "ok"}) + "\n")
    monkeypatch.setattr(
        cli.doctor,
        "run_checks",
        lambda *a, **k: pytest.fail("main checked the machine with nothing to run"),
    )
    monkeypatch.setattr(
        cli.subprocess, "run", lambda *a, **k: pytest.fail(f"main ran {a} with nothing to run")
    )
    reports = []
    monkeypatch.setattr(
        cli, "write_report", lambda out, mapred: reports.append((out, mapred)) or (out / "r.md", [])
    )
    messages = []
    monkeypatch.setattr(cli, "log", messages.append)
    cli.cmd_main(cli.argparse.Namespace(out=str(tmp_path), dist="/opt/marco"), prof, session=None)
    # The report's model check asks the advisor of the distribution the runs used.
    assert reports == [(tmp_path, Path("/opt/marco/bin/mapred"))]
    assert "already recorded" in messages[-1] and "no cluster started" in messages[-1]


class FakeMainClient:
    """The client `cmd_main` hands the cluster scripts: a distribution and their environment."""

    dist = "dist"

    def env(self):
        return {}


class FakeMainSession:
    """The session `cmd_main` reports to; its phases and saved environments go to `events`."""

    client = FakeMainClient()

    def __init__(self, events):
        self.events = events
        self.entry = {}

    def phase(self, name, seconds):
        self.events.append(("phase", name))

    def finish(self):
        pass

    def save(self):
        self.events.append(("session saved", self.entry["environment"]))


def test_main_writes_the_data_unshaped_and_shapes_before_the_first_run(tmp_path, monkeypatch):
    """The cluster starts unshaped, the data is generated, and only then is the bisection
    shaped to the profile's rate, before any run; the cluster is stopped at the end."""
    prof = profile.load("tiny")
    events = []
    monkeypatch.setattr(cli.doctor, "run_checks", lambda *a, **k: [])
    monkeypatch.setattr(cli.doctor, "report", lambda checks: ([], True))

    def run(argv, **kwargs):
        events.append(("cluster", argv[1], "--rate" in argv))
        return cli.subprocess.CompletedProcess(argv, 0)

    class Runner:
        def reshape(self, rate):
            events.append(("shape", rate))

        def execute(self, runs, label):
            events.append(("runs", label))

    def prepare(args, prof, session, generate, jobs):
        events.append(("data", generate))
        return Runner()

    monkeypatch.setattr(cli.subprocess, "run", run)
    monkeypatch.setattr(cli, "prepare", prepare)
    monkeypatch.setattr(cli, "write_report", lambda out, mapred: (out / "report.md", []))
    monkeypatch.setattr(cli, "log", lambda message: None)
    cli.cmd_main(
        cli.argparse.Namespace(out=str(tmp_path), state_dir=None), prof, FakeMainSession(events)
    )
    steps = [e for e in events if e[0] != "phase"]
    assert steps == [
        ("cluster", "start", False),
        ("data", True),
        ("shape", prof["cluster"]["rate_mbit"]),
        ("runs", "main"),
        ("cluster", "stop", False),
    ], events


def test_main_probes_for_its_rate_then_runs_the_main_set_and_curve_at_it(tmp_path, monkeypatch):
    """With a probe job, main shapes to the profile's rate, warms up, runs the probe, and runs
    the main set at the rate the probe calls for and the curve at multiples of it; a resumed
    main reuses that rate without probing again. `curve` in main's directory runs the curve alone
    at multiples of main's rate; in a directory of its own it probes first, and runs main's rate
    as well."""
    prof = profile.load("tiny")
    prof["calibration"] = {"probe_job": "word-count"}
    prof["sweep"] = {**prof["sweep"], "in_main": True, "rate_factors": [0.5, 2]}
    del prof["sweep"]["rates"]
    events = []
    monkeypatch.setattr(cli.doctor, "run_checks", lambda *a, **k: [])
    monkeypatch.setattr(cli.doctor, "report", lambda checks: ([], True))
    monkeypatch.setattr(
        cli.subprocess,
        "run",
        lambda argv, **k: (
            events.append(("cluster", argv[1])) or cli.subprocess.CompletedProcess(argv, 0)
        ),
    )
    # tiny: 2 workers in 2 groups, so a node receives half the shuffle across the link
    probe = {
        **calibration_record(prof["cluster"]["rate_mbit"], 40, 2, 20, 1, 6, 0),
        "set": "calibration",
        "job": "word-count",
        "shuffle_bytes": 4 * 7.3 * prof["cluster"]["rate_mbit"] * 1e6 / 8,
        "status": "ok",
    }

    class Runner:
        results_path = tmp_path / "results.jsonl"

        def reshape(self, rate):
            events.append(("shape", rate))

        def warm_up(self, first):
            events.append(("warm-up", first.job))

        def execute(self, runs, label):
            events.append(("runs", label, list(dict.fromkeys(r.config.rate for r in runs))))
            if label == "calibration probe":
                (self.results_path).write_text(json.dumps({**probe, "key": runs[0].key}) + "\n")

    def prepare(args, prof, session, generate, jobs):
        events.append(("data", sorted(jobs)))
        return Runner()

    monkeypatch.setattr(cli, "prepare", prepare)
    monkeypatch.setattr(cli, "environment", lambda prof, client, args: prof["cluster"]["rate_mbit"])
    monkeypatch.setattr(cli, "write_report", lambda out, mapred: (out / "report.md", []))
    messages = []
    monkeypatch.setattr(cli, "log", messages.append)
    args = cli.argparse.Namespace(out=str(tmp_path), state_dir=None, rate=None)
    base = prof["cluster"]["rate_mbit"]
    cli.cmd_main(args, prof, FakeMainSession(events))
    # the probe's cross-group bytes need 7.3/20 of its map phase at the base rate: 0.365 x base
    rate = 0.5 * math.floor(0.365 * base / 0.5)
    assert [e for e in events if e[0] != "phase"] == [
        ("cluster", "start"),
        ("data", sorted({*prof["jobs"], "word-count"})),
        ("shape", base),
        ("warm-up", prof["jobs"][0]),
        ("runs", "calibration probe", [base]),
        ("session saved", rate),
        ("shape", rate),
        ("runs", "main", [None]),
        ("runs", "bandwidth curve", [rate / 2, rate * 2]),
        ("cluster", "stop"),
    ], events
    saved = json.loads((tmp_path / "calibration.json").read_text())
    assert saved["chosen_rate_mbit"] == rate and saved["probe_job"] == "word-count"
    assert any(f"-> {rate} Mbit/s" in m for m in messages), messages
    assert any("hideable share is 18%" in m and "WARNING" in m for m in messages)  # 7 of 40 s
    # Resumed: the recorded rate, no probe; --rate: that rate, no probe either.
    prof["cluster"]["rate_mbit"] = base
    events.clear()
    cli.cmd_main(args, prof, FakeMainSession(events))
    assert ("runs", "calibration probe", [base]) not in events
    assert ("shape", rate) in events and ("runs", "main", [None]) in events
    # curve in main's directory: main's rate, no probe, the curve alone on its jobs' data; main's
    # runs of the curve's jobs and variants are its point at main's rate
    prof["sweep"] = {**prof["sweep"], "in_main": False, "jobs": ["inverted-index"]}
    _, _, variants, reps = cli.sweep_section(prof)
    main_runs = [
        {"set": "main", "job": "inverted-index", "variant": v, "status": "ok", "rate_mbit": rate}
        for v in variants
        for _ in range(reps)
    ]
    main_runs[0]["status"] = "failed"

    def record(*runs):
        with (tmp_path / "results.jsonl").open("a") as f:
            f.writelines(
                json.dumps({**r, "key": f"{r['set']}/{r['variant']}"}) + "\n" for r in runs
            )

    record(*main_runs)
    assert not cli.main_runs_cover_curve(prof, rate, tmp_path)  # a repetition short
    ((_, curve),) = cli.curve_steps(prof, rate, tmp_path)
    assert sorted({r.config.rate for r in curve}) == [rate / 2, rate, rate * 2]
    record({**main_runs[0], "status": "ok"})
    assert cli.main_runs_cover_curve(prof, rate, tmp_path)
    assert not cli.main_runs_cover_curve(prof, rate * 2, tmp_path)  # main ran at another rate
    assert cli.main_runs_cover_curve(prof, rate + 0.001, tmp_path)  # the rate the curve runs
    assert not cli.curve_ran_rate(rate, tmp_path)
    prof["cluster"]["rate_mbit"] = base
    events.clear()
    cli.cmd_curve(args, prof, FakeMainSession(events))
    assert [e for e in events if e[0] != "phase"] == [
        ("cluster", "start"),
        ("data", ["inverted-index"]),
        ("session saved", rate),
        ("shape", rate),
        ("runs", "bandwidth curve", [rate / 2, rate * 2]),
        ("cluster", "stop"),
    ], events
    assert ("phase", f"bandwidth curve runs ({2 * 2})") in events  # tiny's 2 variants, 2 rates
    # A curve that once ran main's rate keeps it, so a resumed curve finishes that point.
    record({**main_runs[0], "set": "bandwidth", "status": "failed"})
    assert cli.curve_ran_rate(rate, tmp_path)
    ((_, curve),) = cli.curve_steps(prof, rate, tmp_path)
    assert sorted({r.config.rate for r in curve}) == [rate / 2, rate, rate * 2]
    assert profile.curve_rates({"rate_factors": [0.5, 1, 2]}, 3.5, True) == [1.75, 3.5, 7]
    assert profile.curve_rates({"rates": [25, 50]}, 3.333, True) == [3.33, 25, 50]
    # In a directory of its own, curve probes first; the warm-up runs the curve's first job.
    prof["cluster"]["rate_mbit"] = base
    (tmp_path / "own").mkdir()
    events.clear()
    own = cli.argparse.Namespace(out=str(tmp_path / "own"), state_dir=None, rate=None)
    cli.cmd_curve(own, prof, FakeMainSession(events))
    assert [e for e in events if e[0] not in ("phase", "session saved")] == [
        ("cluster", "start"),
        ("data", ["inverted-index", "word-count"]),
        ("shape", base),
        ("warm-up", "inverted-index"),
        ("runs", "calibration probe", [base]),
        ("shape", rate),
        ("runs", "bandwidth curve", [rate / 2, rate, rate * 2]),
        ("cluster", "stop"),
    ], events
    assert json.loads((tmp_path / "own" / "calibration.json").read_text())["chosen_rate_mbit"] == (
        rate
    )
    given = {**prof, "cluster": {**prof["cluster"], "rate_mbit": 7.5}}  # as load_profile sets it
    assert cli.known_main_rate(cli.argparse.Namespace(rate=7.5), given, tmp_path) == 7.5
    (tmp_path / "calibration.json").write_text(json.dumps({"chosen_rate_mbit": 10}))
    assert cli.known_main_rate(args, prof, tmp_path) is None  # `calibrate`'s pick: probe anyway
    (tmp_path / "calibration.json").unlink()
    assert cli.known_main_rate(args, prof, tmp_path) is None


def test_the_rate_a_probe_calls_for_and_the_profile_keys_that_ask_for_it(tmp_path):
    from harness import calibration

    # 320 MB shuffled on 4 workers in 2 groups: 40 MB per node, 32 s at 10 Mbit/s
    row = calibration.assess(calibration_record(10, 100, 5, 64, 8, 20, 320), 4, 2)
    assert calibration.regime_rate(row) == 5.0  # 40 MB take the 64 s map phase at exactly 5
    row = calibration.assess(calibration_record(10, 100, 5, 68, 8, 20, 320), 4, 2)
    assert calibration.regime_rate(row) == 4.5  # 4.71 rounded down: the network needs >= 68 s
    assert calibration.regime_rate(row, step=1) == 4
    row = calibration.assess(calibration_record(10, 900, 5, 800, 8, 20, 320), 4, 2)
    assert calibration.regime_rate(row) == 0.5  # never below one step
    with pytest.raises(ValueError, match="no map phase or no shaped rate"):
        calibration.regime_rate(
            calibration.assess(calibration_record(0, 90, 5, 60, 8, 20, 320), 4, 2)
        )
    assert profile.curve_rates({"rate_factors": [0.5, 2, 4]}, 3.5) == [1.75, 7, 14]
    assert profile.curve_rates({"rates": [5, 20]}, 3.5) == [5, 20]
    base = json.loads((Path(profile.__file__).parents[1] / "profiles/paper.json").read_text())
    for broken, message in (
        ({"sweep": {**base["sweep"], "rates": [5]}}, "'rates' .* or 'rate_factors', not both"),
        ({"sweep": {**base["sweep"], "rate_factors": [0, 2]}}, "rate_factors must be"),
        ({"sweep": {**base["sweep"], "rate_factors": []}}, "rate_factors must be"),
        ({"calibration": {"probe_job": "sort-everything"}}, "calibration.probe_job"),
    ):
        path = tmp_path / "p.json"
        path.write_text(json.dumps({**base, **broken}))
        with pytest.raises(profile.ProfileError, match=message):
            profile.load(str(path))


def test_the_report_says_how_main_picked_its_rate(tmp_path):
    from harness import calibration

    assert report.probe_section(tmp_path) == []  # no probe: nothing to say
    row = calibration.assess(calibration_record(10, 100, 5, 68, 8, 20, 320), 4, 2)
    (tmp_path / "calibration.json").write_text(
        json.dumps(
            {
                "rows": [row],
                "chosen_rate_mbit": 4.5,
                "profile_rate_mbit": 10,
                "probe_job": "adjacency-list",
            }
        )
    )
    text = "\n".join(report.probe_section(tmp_path))
    assert "at **4.5 Mbit/s**" in text and "stock run of adjacency-list at the profile's 10" in text
    assert "map phase of 68.0 s" in text and "needed 32.0 s at that rate" in text
    assert "at 4.71 Mbit/s or less" in text and "hideable share was 28%" in text


def test_an_interrupted_run_kills_its_yarn_job_not_only_the_client(tmp_path):
    import subprocess
    import threading

    class SubmittingClient:
        """A job client that submits job_1_0007 and then waits for it, as `hadoop jar` does."""

        netns = False
        calls = []

        def benchmarks_jar(self):
            return "benchmarks.jar"

        def shaped_rate(self):
            return None

        def bisection_bytes(self):
            return None

        def client_conf_dir(self):
            return tmp_path / "conf"

        def argv(self, launcher, *args):
            return [launcher, *args]

        def popen(self, launcher, *args, stdout=None, **kwargs):
            stdout.write("INFO mapreduce.Job: Running job: job_1_0007\n")
            stdout.flush()
            self.proc = subprocess.Popen(["sleep", "60"])
            return self.proc

        def run(self, launcher, *args, check=True, timeout=None):
            self.calls.append((launcher, *args))
            return subprocess.CompletedProcess(args, 0, "", "")

    client = SubmittingClient()
    run = runner.Runner(client, profile.load("tiny"), tmp_path, "/bench", log=lambda m: None)
    planned = runner.plan("main", ["word-count"], [runner.Config("stock", "stock")], 1)[0]
    # As marco-bench's main does: a shell starts background jobs with SIGINT ignored.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        # Ctrl-C while the job runs: a real SIGINT, which also interrupts the wait for the client
        threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
        with pytest.raises(KeyboardInterrupt):
            run.run_one(planned)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert client.proc.returncode is not None  # the client JVM is gone
    assert client.calls == [("mapred", "job", "-kill", "job_1_0007")]


class OfflineClient:
    """A client of a cluster the harness never reaches: enough to build a run's command."""

    netns = False

    def benchmarks_jar(self):
        return "benchmarks.jar"

    def shaped_rate(self):
        return None


def test_job_settings_are_written_as_hadoop_users_write_them(tmp_path):
    prof = profile.load("paper")
    run = runner.Runner(OfflineClient(), prof, tmp_path, "/bench")
    planned = runner.plan("main", ["word-count"], [runner.Config("stock", "stock")], 1)[0]
    args = run.command(planned, "/bench/out")
    assert "mapreduce.map.speculative=false" in args
    assert "mapreduce.marco.stagger.stock.jobs=true" in args
    assert "mapreduce.task.io.sort.factor=10" in args
    assert not [a for a in args if a.endswith("=True") or a.endswith("=False")]


def test_a_warm_up_run_comes_first_once_and_is_recorded_nowhere(tmp_path):
    prof = profile.load("paper")
    assert prof["warmup_runs"] == 1
    run = runner.Runner(OfflineClient(), prof, tmp_path, "/bench", log=lambda m: None)
    executed, warm_up = [], []

    def run_one(planned):
        executed.append(planned.key)
        if planned.set == "warmup":
            warm_up.append(planned.config)
        return {"key": planned.key, "status": "ok", "wall_s": 1.0}

    run.run_one = run_one
    extra = {"dfs.replication": "2"}  # as `run --conf` gives it to every run
    configs = [
        runner.Config("kill", "marco", dict(extra), fault="kill-reduce"),
        runner.Config("stock", "stock", dict(extra)),
    ]
    planned = runner.plan("faults", ["word-count"], configs, 1)
    run.execute(planned, "faults")
    run.execute(runner.plan("again", ["self-join"], configs, 1), "again")
    # the first job, with the stock shuffle, the run's settings and no fault, once per Runner
    # (a cluster session)
    assert executed[0] == "warmup/word-count/stock/1"
    assert warm_up == [runner.Config("stock", "stock", extra)]
    assert executed.count("warmup/word-count/stock/1") == 1 and len(executed) == 5
    recorded = [r["key"] for r in runner.load_results(tmp_path / "results.jsonl")]
    assert not [k for k in recorded if k.startswith("warmup/")] and len(recorded) == 4


def test_warmup_runs_must_be_a_count(tmp_path):
    path = tmp_path / "p.json"
    prof = json.loads((Path(profile.__file__).parents[1] / "profiles/paper.json").read_text())
    path.write_text(json.dumps({**prof, "warmup_runs": -1}))
    with pytest.raises(profile.ProfileError, match="warmup_runs must be an integer >= 0"):
        profile.load(str(path))


def test_timelines_come_from_the_container_logs_where_the_harness_reads_them(tmp_path):
    """On the netns cluster no reduce writes its timeline to HDFS at shuffle end (a file write on
    the final merge's critical path, which stock's reduces do not have): the harness copies each
    successful reduce's marco-timeline.jsonl from its container's log directory. Elsewhere the
    reduces copy it to HDFS for the harness."""
    state = tmp_path / "state"
    job = load("marco")
    fixtures = DATA / "timelines" / job.job_id
    for host, r in zip(("w1", "w3"), job.reduces, strict=True):
        logs = state / "nodes" / host / "logs" / "userlogs" / "application_1795294025406_0004"
        (logs / r.container).mkdir(parents=True)
        shutil.copyfile(
            fixtures / f"{r.attempt}.jsonl", logs / r.container / "marco-timeline.jsonl"
        )
    jars = state / "dist" / "share" / "hadoop" / "mapreduce"
    for f in (state / "dist" / "bin" / "hadoop", jars / "hadoop-marco-benchmarks-1.jar"):
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text("")
    netns = cluster.Client(dist=state / "dist", state_dir=state)
    planned = runner.plan("main", ["word-count"], [runner.Config("marco", "marco")], 1)[0]

    run = runner.Runner(netns, profile.load("paper"), tmp_path / "out", "/bench")
    assert "mapreduce.marco.timeline.dir" not in run.job_settings(planned)
    run.copy_container_timelines(job, tmp_path / "run" / job.job_id)
    copied = sorted(p.name for p in (tmp_path / "run" / job.job_id).iterdir())
    assert copied == sorted(f"{r.attempt}.jsonl" for r in job.reduces)
    for name in copied:
        assert (tmp_path / "run" / job.job_id / name).read_bytes() == (fixtures / name).read_bytes()
    # A stock reduce leaves no timeline: nothing to copy, nothing made.
    run.copy_container_timelines(load("stock"), tmp_path / "run" / "stock")
    assert not (tmp_path / "run" / "stock").exists()

    other = cluster.Client(dist=state / "dist", conf_dir=tmp_path)
    elsewhere = runner.Runner(other, profile.load("paper"), tmp_path / "out2", "/bench")
    assert elsewhere.job_settings(planned)["mapreduce.marco.timeline.dir"] == "/bench/timelines"
    assert other.container_log_file(job.reduces[0].container, "marco-timeline.jsonl") is None


def fake_dist(dist):
    """A distribution directory with what a Client and a Runner look for in one."""
    jars = dist / "share" / "hadoop" / "mapreduce"
    for f in (dist / "bin" / "hadoop", jars / "hadoop-marco-benchmarks-1.jar"):
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text("")
    return dist


def test_every_reduce_jvm_logs_its_safepoints_after_the_options_it_had(tmp_path):
    """Stock and MaRCO reduces alike, so that their time to safepoint compares; the profile's
    own options stay, and so does the cluster's where the job sets none."""
    prof = profile.load("paper")
    run = runner.Runner(OfflineClient(), prof, tmp_path, "/bench")
    for variant in ("stock", "stock-early", "marco"):
        planned = runner.plan("main", ["word-count"], [runner.Config(variant, variant)], 1)[0]
        opts = run.job_settings(planned)["mapreduce.reduce.java.opts"]
        assert opts == (
            prof["job_conf"]["mapreduce.reduce.java.opts"] + " " + safepoints.JVM_OPTION
        )
        assert f"mapreduce.reduce.java.opts={opts}" in run.command(planned, "/bench/out")

    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "mapred-site.xml").write_text(
        "<configuration><property><name>mapred.child.java.opts</name>"
        "<value> -Xmx500m </value></property></configuration>"
    )
    dist = fake_dist(tmp_path / "dist")
    site = cluster.Client(dist=dist, conf_dir=tmp_path / "conf")
    bare = dict(prof, job_conf={}, per_job_conf={})
    run = runner.Runner(site, bare, tmp_path / "out", "/bench")
    planned = runner.plan("main", ["word-count"], [runner.Config("stock", "stock")], 1)[0]
    settings = run.job_settings(planned)
    assert settings["mapreduce.reduce.java.opts"] == "-Xmx500m " + safepoints.JVM_OPTION
    # The job's own options come before the cluster's.
    own = runner.Config("stock", "stock", {"mapred.child.java.opts": "-Xmx700m"})
    planned = runner.plan("main", ["word-count"], [own], 1)[0]
    settings = run.job_settings(planned)
    assert settings["mapreduce.reduce.java.opts"] == "-Xmx700m " + safepoints.JVM_OPTION


def test_safepoint_logs_come_from_every_reduces_container_log_directory(tmp_path):
    state = tmp_path / "state"
    job = load("stock")
    for host, r in zip(("w1", "w3"), job.reduces, strict=True):
        logs = state / "nodes" / host / "logs" / "userlogs" / "application_1_0001" / r.container
        logs.mkdir(parents=True)
        (logs / "safepoint.log").write_text(
            f'[1.0s] Safepoint "GenCollectForAllocation", Time since last: 5 ns, Reaching '
            f"safepoint: {host[1]}000000 ns, Cleanup: 1 ns, At safepoint: 4000000 ns, Total: 9 ns\n"
        )
    netns = cluster.Client(dist=fake_dist(state / "dist"), state_dir=state)
    run = runner.Runner(netns, profile.load("paper"), tmp_path / "out", "/bench")
    to = tmp_path / "run" / "safepoints"
    run.copy_container_logs(job, safepoints.SAFEPOINT_LOG, to / job.job_id, ".log")
    got = safepoints.read_run(to)
    assert sorted(got["by_reduce"]) == sorted(r.attempt for r in job.reduces)
    assert got["ttsp_max_ms"] == 3.0 and got["ttsp_per_reduce_ms"] == 2.0
    assert got["at_safepoint_per_reduce_ms"] == 4.0


def test_job_history_is_left_where_the_cluster_keeps_it(tmp_path):
    """No run overrides where the history goes (the JobHistoryServer lists only what is there);
    the harness finds it as the client's mapred-site.xml says, over Hadoop's defaults."""
    run = runner.Runner(OfflineClient(), profile.load("paper"), tmp_path, "/bench")
    planned = runner.plan("main", ["word-count"], [runner.Config("marco", "marco")], 1)[0]
    assert not [
        k
        for k in run.job_settings(planned)
        if k.startswith("mapreduce.jobhistory.") and k != "mapreduce.jobhistory.jhist.format"
    ]

    defaults = history.HistoryDirs.from_conf_dir(tmp_path / "no-such-dir")
    assert defaults == history.HistoryDirs(
        "/tmp/hadoop-yarn/staging/history/done_intermediate",
        "/tmp/hadoop-yarn/staging/history/done",
    )
    (tmp_path / "mapred-site.xml").write_text(
        "<configuration>"
        "<property><name>yarn.app.mapreduce.am.staging-dir</name><value>/user</value></property>"
        "<property><name>mapreduce.jobhistory.done-dir</name>"
        "<value>${yarn.app.mapreduce.am.staging-dir}/done </value></property>"
        "</configuration>"
    )
    dirs = history.HistoryDirs.from_conf_dir(tmp_path)
    assert dirs == history.HistoryDirs("/user/history/done_intermediate", "/user/done")
    assert dirs.globs("job_1_0002") == [
        "/user/history/done_intermediate/*/job_1_0002-*.jhist",
        "/user/done/*/*/*/*/job_1_0002-*.jhist",
    ]


def fake_machine(tmp_path, mem_available_mb, cgroup="v1"):
    """A /proc with MemAvailable, and a cgroup root of the given layout (v1, v2 or none)."""
    proc, cgroups = tmp_path / "proc", tmp_path / "cgroup"
    proc.mkdir()
    (proc / "meminfo").write_text(
        f"MemTotal: 25165824 kB\nMemAvailable: {mem_available_mb * 1024} kB\n"
    )
    cgroups.mkdir()
    if cgroup == "v1":
        (cgroups / "cpu").mkdir()
    elif cgroup == "v2":
        (cgroups / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    return dict(proc=proc, cgroup_root=cgroups)


def disk(free_gb):
    return lambda path: shutil._ntuple_diskusage(100 * 2**30, 0, int(free_gb * 2**30))


def test_doctor_passes_a_machine_that_has_what_the_cluster_needs(tmp_path):
    prof = profile.load("paper")
    need = doctor.memory_needed_mb(prof["cluster"])
    assert need == 4 * (1792 + doctor.WORKER_DAEMONS_MB) + doctor.MASTER_AND_CLIENT_MB
    probes = []
    checks = doctor.run_checks(
        prof["cluster"],
        tmp_path / "state",
        euid=0,
        which=lambda c: f"/bin/{c}",
        disk_usage=disk(50),
        namespaces=list,
        kernel_probe=lambda *argv: probes.append(argv) or argv[-1] != "ifb",
        **fake_machine(tmp_path, need + 100, cgroup="v2"),
    )
    lines, ok = doctor.report(checks)
    assert ok, lines
    assert [c.name for c in checks] == [
        "root",
        "commands",
        "memory",
        "disk",
        "cgroups",
        "network namespaces",
        "sch_htb",
        "ifb",
        "leftover cluster",
    ]
    assert "cgroup v2 cpu controller" in lines[4]
    # ifb serves only shape --dev: its absence is a note with its fix, not a failure
    assert lines[7].startswith("note") and "modprobe ifb" in lines[7]
    assert ("tc", "qdisc", "add", "dev", "lo", "root", "handle", "1:", "htb") in probes


def test_doctor_names_each_missing_thing_and_its_fix(tmp_path):
    prof = profile.load("paper")
    checks = doctor.run_checks(
        prof["cluster"],
        tmp_path / "state",
        euid=1000,
        which=lambda c: None if c == "tc" else f"/bin/{c}",
        disk_usage=disk(2.5),
        namespaces=lambda: ["mc-master", "mc-w1"],
        kernel_probe=lambda *argv: pytest.fail("probed the kernel without root"),
        **fake_machine(tmp_path, 4000, cgroup=None),
    )
    lines, ok = doctor.report(checks)
    assert not ok
    failed = {c.name: c.line() for c in checks if not c.ok}
    assert set(failed) == {"root", "commands", "memory", "disk", "cgroups", "leftover cluster"}, (
        lines
    )
    assert "uid 1000" in failed["root"] and "sudo" in failed["root"]
    assert "missing tc" in failed["commands"] and "apt-get install" in failed["commands"]
    assert "4000 MiB available" in failed["memory"] and "--workers" in failed["memory"]
    assert "2.5 GiB free" in failed["disk"] and "--state-dir" in failed["disk"]
    assert (
        "mc-master, mc-w1" in failed["leftover cluster"]
        and "marco-cluster stop" in failed["leftover cluster"]
    )
    # no cpu controller leaves MaRCO on nice alone: a note, not a reason to refuse
    assert failed["cgroups"].startswith("note") and "nice alone" in failed["cgroups"]
    assert all(line.startswith("MISSING") for name, line in failed.items() if name != "cgroups")


def test_main_runs_doctor_first_and_starts_nothing_when_it_fails(tmp_path, monkeypatch):
    prof = profile.load("tiny")
    monkeypatch.setattr(
        cli.doctor,
        "run_checks",
        lambda *a, **k: [doctor.Check("root", False, "uid 1000", "run as root")],
    )
    monkeypatch.setattr(
        cli.subprocess, "run", lambda *a, **k: pytest.fail(f"main ran {a} on a bad machine")
    )
    messages = []
    monkeypatch.setattr(cli, "log", messages.append)
    with pytest.raises(cli.ClusterError, match="MISSING lines of doctor"):
        cli.cmd_main(cli.argparse.Namespace(out=str(tmp_path), state_dir=None), prof, session=None)
    assert messages == ["doctor: MISSING root: uid 1000. Fix: run as root"]
