# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""The regime map's grid, resume, cells and figure; the `hadoop` baseline's settings and
checks; the paper-cost reducers' sets and report: on synthetic results, without a cluster."""

import json
from pathlib import Path

import pytest

# The plots need matplotlib; build.sh runs this stage with a python3 that has it (test_python).
from harness import aggregate, baseline, breakdown, catalog, cli, plots, profile, regime, report
from harness import runner as runner_mod

PHASE_ZERO = dict.fromkeys(breakdown.PHASES, 0.0)


def record(set_name, job, config, rep, wall, rate=4, conf=None, phases=None, sha="aa", **extra):
    """A results.jsonl record with what aggregation and the report read."""
    b = {**PHASE_ZERO, **(phases or {})}
    # The phases add up to the wall time, as the runner's do: the rest is the map phase.
    b["map"] = wall - sum(v for p, v in b.items() if p != "map")
    return {
        "key": f"{set_name}/{job}/{config}@{rate}/{rep}",
        "set": set_name,
        "job": job,
        "config": config,
        "variant": extra.pop("variant", config),
        "conf": conf or {},
        "rate_mbit": rate,
        "fault": None,
        "rep": rep,
        "status": "ok",
        "error": None,
        "command": "hadoop jar benchmarks.jar " + job,
        "shuffle_heavy": catalog.is_shuffle_heavy(job),
        "wall_s": wall,
        "breakdown": b,
        "marco": {
            "partial_sort_millis": 0,
            "partial_reduce_millis": 0,
            "invocations": 0,
            "adaptive_disables": 0,
        },
        "shuffle_bytes": 1e6,
        "map_output_bytes": 1e6,
        "peak_reduce_memory_bytes": 2e8,
        "failed_attempts": 0,
        "killed_attempts": 0,
        "output_sha256": sha,
        **extra,
    }


# ---- the regime map ----------------------------------------------------------------------------


def test_the_regime_grid_runs_every_cost_at_every_rate_rate_by_rate():
    prof = profile.load("regime")
    r = regime.section(prof)
    assert len(r["reduce_costs"]) >= 4 and len(r["rates"]) >= 4
    runs = regime.runs(prof)
    cells = {(x.set, x.config.rate) for x in runs}
    assert len(cells) == len(r["reduce_costs"]) * len(r["rates"])
    assert len(runs) == len(cells) * len(r["variants"]) * r["repetitions"]
    for x in runs:
        cost = int(x.set[len(regime.SET_PREFIX) :])
        assert x.job == "parametric" and x.config.conf[regime.COST_KEY] == cost
        assert x.config.conf["marco.benchmarks.parametric.values.per.key"] == 100
    # Rate by rate: the bisection is re-shaped once per rate, not once per cell.
    rates = [x.config.rate for x in runs]
    changes = sum(a != b for a, b in zip(rates, rates[1:], strict=False))
    assert changes == len(r["rates"]) - 1
    # Every run has its own key, and planning again (a resumed session) gives the same order.
    assert len({x.key for x in runs}) == len(runs)
    assert [x.key for x in regime.runs(profile.load("regime"))] == [x.key for x in runs]


def test_the_finer_grid_extends_the_default_one():
    fine, default = profile.load("regime-fine"), profile.load("regime")
    f, d = regime.section(fine), regime.section(default)
    assert len(f["reduce_costs"]) * len(f["rates"]) > len(d["reduce_costs"]) * len(d["rates"])
    assert f["repetitions"] >= 2 and fine["cluster"] == default["cluster"]


@pytest.mark.parametrize(
    "grid, problem",
    [
        ({"reduce_costs": [], "rates": [1]}, "reduce_costs must be a non-empty list"),
        ({"reduce_costs": [0, 1], "rates": [-1]}, "rates must be a non-empty list"),
        ({"reduce_costs": [8, 8], "rates": [1]}, "repeats a value"),
        ({"reduce_costs": [1.5], "rates": [1]}, "whole numbers"),
        ({"reduce_costs": [1], "rates": [0]}, "rates must be > 0"),
        ({"reduce_costs": [1], "rates": [1], "variants": ["marco"]}, "stock baseline"),
    ],
)
def test_a_bad_regime_grid_is_refused_naming_the_problem(grid, problem):
    prof = profile.load("regime")
    prof["regime"] = grid
    with pytest.raises(ValueError, match=problem):
        regime.section(prof)


def test_a_profile_without_a_grid_names_the_profiles_that_have_one():
    with pytest.raises(ValueError, match="--profile regime"):
        regime.section(profile.load("paper"))


def test_the_command_line_narrows_the_grid():
    args = cli.parser().parse_args(["regime", "--costs", "0,64", "--rates", "2,3.5", "--reps", "2"])
    prof = cli.load_profile(args)
    r = regime.section(prof)
    assert (r["reduce_costs"], r["rates"], r["repetitions"]) == ([0, 64], [2, 3.5], 2)
    assert len(regime.runs(prof)) == 2 * 2 * 2 * 2


def regime_records(costs, rates, marco_sha="aa"):
    """Stock-early and MaRCO in every cell: stock's final reduce grows with the cost, its
    exposed shuffle falls with the rate; MaRCO saves a fixed half of the ideal."""
    records = []
    for cost in costs:
        for rate in rates:
            final_reduce = cost / 16
            exposed = 40 / rate
            stock = 60 + final_reduce + exposed
            saving = min(exposed, final_reduce)
            conf = {regime.COST_KEY: cost}
            phases = {"exposed_shuffle": exposed, "final_reduce": final_reduce, "startup": 5}
            for rep in (1, 2):
                records.append(
                    record(
                        regime.set_name(cost),
                        "parametric",
                        "stock-early",
                        rep,
                        stock + rep,
                        rate,
                        conf,
                        phases,
                    )
                )
                records.append(
                    record(
                        regime.set_name(cost),
                        "parametric",
                        "marco",
                        rep,
                        stock - saving / 2 + rep,
                        rate,
                        conf,
                        {"startup": 5},
                        sha=marco_sha,
                    )
                )
    return records


def test_a_cell_is_measured_against_the_stock_of_its_own_cost_and_rate():
    costs, rates = [0, 32, 128, 512], [1, 2, 4, 8]
    cells = regime.cells(aggregate.summarize(regime_records(costs, rates)))
    assert len(cells) == 16 and {c["config"] for c in cells} == {"marco"}
    for c in cells:
        final_reduce, exposed = c["cost"] / 16, 40 / c["rate_mbit"]
        stock = 60 + final_reduce + exposed + 1.5
        saving = min(exposed, final_reduce)
        assert c["baseline"] == "stock-early"
        assert c["speedup"] == pytest.approx(stock / (stock - saving / 2))
        # Without the machine's CPU sampled, the model is the paper's ideal.
        assert c["model"] == pytest.approx(stock / (stock - saving)) == c["ideal"]
        assert c["bound"] == ("network-bound" if exposed < final_reduce else "final-work-bound")
        assert c["baseline_wall_s"] == pytest.approx(stock)
        assert c["identical"] is True


def test_a_cells_model_takes_the_cpu_its_stock_runs_left_idle():
    # One cell: stock's final reduce (32 s) fits in its exposed shuffle (40 s), so the ideal
    # hides all of it; but that shuffle left 8 core-seconds idle against the 32 its final work
    # kept busy, so the model moves only a quarter of it.
    records = regime_records([512], [1])
    cpu = {
        "exposed_shuffle": {"idle": 8.0, "nice": 0.0, "busy": 72.0},
        "final_merge": {"idle": 0.0, "nice": 0.0, "busy": 0.0},
        "final_reduce": {"idle": 0.0, "nice": 0.0, "busy": 32.0},
    }
    for r in records:
        if r["config"] == "stock-early":
            r["machine_cpu_by_phase"] = cpu
    (c,) = regime.cells(aggregate.summarize(records))
    stock = 60 + 32 + 40 + 1.5
    assert c["ideal"] == pytest.approx(stock / (stock - 32))
    assert c["model"] == pytest.approx(stock / (stock - 32 * 8 / 32))
    assert c["bound"] == "CPU-bound"


def test_the_regime_grid_puts_each_cell_at_its_cost_and_rate():
    cells = regime.cells(aggregate.summarize(regime_records([0, 512], [1, 8, 2])))
    costs, rates, measured, model = plots.regime_grid(cells, "marco")
    assert costs == [0, 512] and rates == [1, 2, 8]
    by = {(c["cost"], c["rate_mbit"]): c for c in cells}
    for i, cost in enumerate(costs):
        for j, rate in enumerate(rates):
            assert measured[i, j] == pytest.approx(by[(cost, rate)]["speedup"])
            assert model[i, j] == pytest.approx(by[(cost, rate)]["model"])


def test_the_report_draws_the_regime_map_and_lists_its_cells(tmp_path):
    out = tmp_path / "results"
    out.mkdir()
    records = regime_records([0, 32, 128, 512], [1, 2, 4, 8])
    # One cell whose MaRCO output differs from stock's.
    for r in records:
        if r["set"] == "regime-c32" and r["rate_mbit"] == 2 and r["config"] == "marco":
            r["output_sha256"] = "bb"
    (out / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    md, figures = report.write_report(out)
    text = md.read_text()
    assert Path(figures["regime-marco"]).stat().st_size > 10000
    assert "![regime-marco](img/regime-marco.png)" in text
    assert "## Where MaRCO pays: the regime map" in text
    rows = [line for line in text.splitlines() if line.startswith("| marco | ")]
    assert len(rows) == 16
    assert "| marco | 32 | 2 | 2 | stock-early |" in text
    assert sum("**NO**" in row for row in rows) == 1
    # The cells are not sets of their own in the report, and have no noise band of their own.
    assert "## Set `regime-c" not in text and "normalized-regime" not in "".join(figures)
    saved = json.loads((out / "results.json").read_text())
    assert len(saved["regime_cells"]) == 16 and saved["noise"] == {}


def test_a_map_with_one_row_has_no_contours_but_still_its_cells(tmp_path):
    cells = regime.cells(aggregate.summarize(regime_records([64], [1, 2])))
    assert plots.regime_map(cells, "marco", tmp_path / "one.png").stat().st_size > 5000
    assert plots.regime_map(cells, "marco-abandon", tmp_path / "none.png") is None


def test_regime_on_a_finished_directory_starts_no_cluster(tmp_path, monkeypatch):
    """Resumes like main: with every run of the grid recorded, nothing starts; with some
    missing, only those are left to run."""
    prof = profile.load("regime")
    runs = regime.runs(prof)
    with (tmp_path / "results.jsonl").open("w") as f:
        for r in runs[:-3]:
            f.write(json.dumps({"key": r.key, "status": "ok"}) + "\n")
        f.write(json.dumps({"key": runs[-3].key, "status": "failed"}) + "\n")
    left = cli.unfinished(runs, tmp_path / "results.jsonl")
    assert [r.key for r in left] == [r.key for r in runs[-3:]]
    with (tmp_path / "results.jsonl").open("a") as f:
        for r in runs[-3:]:
            f.write(json.dumps({"key": r.key, "status": "ok"}) + "\n")
    monkeypatch.setattr(
        cli.doctor, "run_checks", lambda *a, **k: pytest.fail("regime checked the machine")
    )
    monkeypatch.setattr(cli.subprocess, "run", lambda *a, **k: pytest.fail(f"regime ran {a}"))
    reports, messages = [], []
    monkeypatch.setattr(
        cli, "write_report", lambda out, mapred: reports.append(out) or (out / "r.md", [])
    )
    monkeypatch.setattr(cli, "log", messages.append)

    class Session:
        class client:  # noqa: N801
            netns = True

    cli.cmd_regime(cli.argparse.Namespace(out=str(tmp_path)), prof, Session())
    assert reports == [tmp_path]
    assert f"all {len(runs)} runs are already recorded" in messages[-1]


# ---- Hadoop as shipped ---------------------------------------------------------------------------

OURS = (
    "hadoop-mapreduce-client-marco-1.0.0.jar",
    "hadoop-mapreduce-client-marco-app-1.0.0.jar",
    "hadoop-marco-benchmarks-1.0.0.jar",
)
HADOOPS = ("hadoop-mapreduce-client-app-3.5.0.jar", "hadoop-mapreduce-client-core-3.5.0.jar")


def fake_dist(tmp_path):
    dist = tmp_path / "dist"
    jars = dist / "share" / "hadoop" / "mapreduce"
    (jars / "lib").mkdir(parents=True)
    (dist / "share" / "hadoop" / "common").mkdir(parents=True)
    (dist / "share" / "hadoop" / "common" / "hadoop-common-3.5.0.jar").write_text("")
    for name in OURS + HADOOPS:
        (jars / name).write_text("")
    (dist / "bin").mkdir()
    (dist / "bin" / "hadoop").write_text("")
    return dist


def cluster_site(dist):
    """The netns cluster's settings: MaRCO's AM hook, the class archive over every jar."""
    mr = dist / "share" / "hadoop" / "mapreduce"
    cp = ":".join(
        [str(dist / "share/hadoop/common/hadoop-common-3.5.0.jar")]
        + [str(mr / j) for j in OURS + HADOOPS]
    )
    archive = f"-Xshare:auto -XX:SharedArchiveFile=/state/hadoop.jsa -cp {cp}:$CLASSPATH"
    return {
        baseline.AM_OPTS: f"-Xmx384m {baseline.MARCO_AM_CLASS}",
        "yarn.app.mapreduce.am.admin-command-opts": f"--add-opens x -XX:+UseSerialGC {archive}",
        "mapreduce.admin.map.child.java.opts": f"-Djava.net.preferIPv4Stack=true {archive}",
        "mapreduce.admin.reduce.child.java.opts": archive,
        "mapreduce.application.classpath": "$HADOOP_MAPRED_HOME/share/hadoop/mapreduce/*",
        "yarn.application.classpath": "$HADOOP_CONF_DIR,$HADOOP_COMMON_HOME/share/hadoop/common/*",
        catalog.PLUGIN_KEY: "org.apache.hadoop.mapreduce.task.reduce.MarcoShuffle",
    }


def test_hadoop_settings_leave_out_every_class_and_setting_of_ours(tmp_path):
    dist = fake_dist(tmp_path)
    site = cluster_site(dist)
    s = baseline.settings(site, dist)
    assert s[catalog.PLUGIN_KEY] == "org.apache.hadoop.mapreduce.task.reduce.Shuffle"
    assert s[baseline.AM_OPTS] == "-Xmx384m"
    assert s["mapreduce.application.classpath"] == ",".join(
        f"$HADOOP_MAPRED_HOME/share/hadoop/mapreduce/{j}" for j in sorted(HADOOPS)
    )
    # A classpath without our jars is left as it is.
    assert s["yarn.application.classpath"] == site["yarn.application.classpath"]
    for key in baseline.ADMIN_OPTS:
        assert "Xshare" not in s[key] and "SharedArchiveFile" not in s[key]
        assert not any(j in s[key] for j in OURS)
        assert all(j in s[key] for j in HADOOPS) and s[key].endswith(":$CLASSPATH")
    assert s["mapreduce.admin.map.child.java.opts"].startswith("-Djava.net.preferIPv4Stack=true ")
    # The job configuration those settings make passes the check; the cluster's does not.
    conf = {**site, **s}
    assert baseline.problems(conf, {"org.apache.hadoop.mapreduce.TaskCounter.X": 1}, dist) == []
    found = baseline.problems(site, {f"{breakdown.MARCO_GROUP}.INVOCATIONS": 3}, dist)
    assert len(found) == 1 + 1 + 1 + 3 + 1, found
    assert any("MarcoMRAppMaster" in p for p in found)
    assert any("counter group " + breakdown.MARCO_GROUP in p for p in found)
    stock = baseline.problems(
        {**conf, catalog.PLUGIN_KEY: catalog.STOCK_PLUGIN},
        {f"{breakdown.STOCK_SHUFFLE_GROUP}.FETCH_WAIT_MILLIS": 1},
        dist,
    )
    assert len(stock) == 2 and "TimedStockShuffle" in stock[0]


class SiteClient:
    """A client whose conf dir holds the cluster's site files; it runs nothing."""

    netns = False

    def __init__(self, dist, conf_dir):
        self.dist = dist
        self.conf_dir = conf_dir

    def benchmarks_jar(self):
        return "benchmarks.jar"

    def shaped_rate(self):
        return None

    def client_conf_dir(self):
        return self.conf_dir


def write_site(path, props):
    body = "".join(
        f"<property><name>{k}</name><value>{v}</value></property>" for k, v in props.items()
    )
    path.write_text(f"<?xml version='1.0'?><configuration>{body}</configuration>")


def test_a_hadoop_run_drops_our_settings_and_a_stock_run_keeps_them(tmp_path):
    dist = fake_dist(tmp_path)
    conf_dir = tmp_path / "conf"
    conf_dir.mkdir()
    site = cluster_site(dist)
    write_site(conf_dir / "mapred-site.xml", site)
    prof = profile.load("paper")
    run = runner_mod.Runner(SiteClient(dist, conf_dir), prof, tmp_path / "out", "/bench")

    def settings(variant):
        planned = runner_mod.Run("main", "word-count", runner_mod.Config(variant, variant), 1)
        return run.job_settings(planned)

    hadoop, stock = settings("hadoop"), settings("stock")
    assert stock["mapreduce.marco.stagger.stock.jobs"] is True
    assert not [k for k in hadoop if k.startswith("mapreduce.marco.")]
    assert hadoop[baseline.AM_OPTS] == "-Xmx384m"
    assert hadoop[catalog.PLUGIN_KEY] == catalog.HADOOP_PLUGIN
    assert baseline.problems({**site, **hadoop}, {}, dist) == []
    # The profile's own cluster settings stay.
    assert hadoop["mapreduce.task.io.sort.factor"] == stock["mapreduce.task.io.sort.factor"]


def test_hadoop_is_a_stock_baseline_and_stands_beside_the_others(tmp_path):
    assert catalog.is_stock("hadoop") and "hadoop" in catalog.check_variants(["hadoop", "marco"])
    out = tmp_path / "results"
    out.mkdir()
    walls = {
        "hadoop": [100, 104, 99, 101, 102],
        "stock": [101, 103, 100, 100, 103],
        "stock-early": [90, 92, 91, 89, 90],
        "marco": [80, 81, 79, 82, 80],
    }
    records = [
        record("main", "word-count", c, rep, w)
        for c, ws in walls.items()
        for rep, w in enumerate(ws, 1)
    ]
    (out / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    text = report.write_report(out)[0].read_text()
    assert "### Stock baselines side by side (set `main`)" in text
    row = next(line for line in text.splitlines() if line.startswith("| 4 | word-count | 101.2"))
    cells = row.split(" | ")
    assert cells[3] == "101.4 [100.0–103.0]" and cells[4] == "90.4 [89.0–92.0]"
    stock_band, early_band = cells[5], cells[6]
    assert stock_band.startswith(f"{101.2 / 101.4:.3f} [")
    assert early_band.startswith(f"{101.2 / 90.4:.3f} [")
    assert cells[7] == "within noise" and cells[8].rstrip(" |") == "faster"


# ---- the paper-cost reducers ---------------------------------------------------------------------


def test_paper_reducers_go_to_a_set_of_their_own_and_only_where_a_job_has_them(tmp_path):
    prof = profile.load("paper")
    [(_, runs)] = cli.main_steps(prof, 3.5, "paper")
    assert {r.set for r in runs} == {"main-paper-reducers"}
    assert {r.config.reducers for r in runs} == {"paper"}
    [(_, ours)] = cli.main_steps(prof, 3.5)
    assert {r.set for r in ours} == {"main"} and not {r.key for r in ours} & {r.key for r in runs}
    run = runner_mod.Runner(SiteClient(fake_dist(tmp_path), tmp_path), prof, tmp_path, "/b")
    by_job = {r.job: run.job_settings(r) for r in runs}
    for job in catalog.PAPER_REDUCER_JOBS:
        assert by_job[job][catalog.REDUCERS_KEY] == "paper"
    assert catalog.REDUCERS_KEY not in by_job["word-count"]
    assert catalog.reducers_of("word-count", "paper") == "efficient"
    with pytest.raises(SystemExit):
        cli.parser().parse_args(["main", "--reducers", "fast"])


def test_figure_5_is_reported_with_both_reducer_kinds(tmp_path):
    out = tmp_path / "results"
    out.mkdir()
    records = []
    for set_name, marco_wall, kind in (
        ("main", 95, "efficient"),
        ("main-paper-reducers", 70, "paper"),
    ):
        for rep in (1, 2):
            records += [
                record(
                    set_name,
                    "adjacency-list",
                    "stock",
                    rep,
                    100 + rep,
                    reducers=kind,
                    phases={"exposed_shuffle": 20, "final_reduce": 30 if kind == "paper" else 3},
                ),
                record(set_name, "adjacency-list", "marco", rep, marco_wall + rep, reducers=kind),
                record(set_name, "word-count", "stock", rep, 50 + rep, reducers="efficient"),
                record(set_name, "word-count", "marco", rep, 50 + rep, reducers="efficient"),
            ]
    (out / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    text = report.write_report(out)[0].read_text()
    assert "## Figure 5 with both reducer kinds (sets `main` and `main-paper-reducers`)" in text
    row = next(
        line for line in text.splitlines() if line.startswith("| 4 | adjacency-list | marco |")
    )
    assert row == (
        f"| 4 | adjacency-list | marco | {96.5 / 101.5:.3f} [{96 / 101.5:.3f}–{97 / 101.5:.3f}] | "
        f"{101.5 / (101.5 - 3):.2f} | {71.5 / 101.5:.3f} [{71 / 101.5:.3f}–{72 / 101.5:.3f}] | "
        f"{101.5 / (101.5 - 20):.2f} | paper |"
    )
    assert "| 4 | word-count | marco |" in text
    # The runtime tables say which reducers each row ran.
    assert "| adjacency-list | heavy | paper | marco | 2 |" in text
    assert "| word-count | light | efficient | marco | 2 |" in text


def test_the_extra_jobs_run_only_where_named():
    assert set(catalog.EXTRA_JOBS) == {"parametric", "adjacency-list-old-api"}
    assert not set(catalog.EXTRA_JOBS) & set(catalog.ALL_JOBS)
    assert catalog.JOB_DATA["parametric"] == "binary"
    assert catalog.JOB_DATA["adjacency-list-old-api"] == "graph"
    assert all(catalog.is_shuffle_heavy(j) for j in catalog.EXTRA_JOBS)
    assert catalog.check_jobs(["adjacency-list-old-api"]) == ["adjacency-list-old-api"]
