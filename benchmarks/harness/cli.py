# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""marco-bench: Hadoop vs MaRCO side by side on one cluster, with the paper's figures.

Subcommands: main, curve, regime, run, sweep, faults, calibrate, generate, report, doctor
(`marco-bench SUBCOMMAND --help`)."""

import argparse
import datetime
import json
import os
import platform
import shlex
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

from . import calibration, catalog, doctor, regime, resume
from . import profile as profiles
from .cluster import (
    DEFAULT_DIST,
    DEFAULT_STATE_DIR,
    MARCO_CLUSTER,
    REPO,
    Client,
    ClusterError,
    cluster_start_argv,
    shape_argv,
    tail,
)
from .datatypes import Identity, JobConf, Profile, Record
from .report import write_report
from .runner import Config, Run, Runner, fmt_seconds, load_results, plan

DEFAULT_HDFS_ROOT = "/marco-bench"


def mapred_of(args: argparse.Namespace) -> Path:
    """The distribution's bin/mapred (--dist, else the build's), for the report's advisor."""
    return Path(getattr(args, "dist", None) or DEFAULT_DIST) / "bin" / "mapred"


def log(msg: str) -> None:
    print(f"[marco-bench {datetime.datetime.now():%H:%M:%S}] {msg}", flush=True)


# ---- argument parsing --------------------------------------------------------------------------


def add_common(
    p: argparse.ArgumentParser,
    cluster_opts: bool = True,
    default_profile: str = "quick",
    recording: bool = True,
) -> None:
    p.add_argument(
        "--profile",
        default=default_profile,
        help=f"profile name in benchmarks/profiles ({', '.join(profiles.available())}) or a path "
        f"to a JSON profile (default: {default_profile})",
    )
    p.add_argument("--out", help="results directory (default: benchmarks/results/<profile>)")
    if not cluster_opts:
        return
    p.add_argument(
        "--jobs",
        help=f"comma-separated jobs instead of the profile's ({', '.join(catalog.JOB_ORDER)})",
    )
    p.add_argument(
        "--variants",
        help=f"comma-separated variants instead of the profile's ({', '.join(catalog.VARIANTS)})",
    )
    p.add_argument("--reps", type=int, help="repetitions instead of the profile's")
    p.add_argument(
        "--hdfs-root",
        default=DEFAULT_HDFS_ROOT,
        help="HDFS directory for data, outputs and, with --conf-dir, MaRCO's timelines "
        f"(default {DEFAULT_HDFS_ROOT})",
    )
    p.add_argument(
        "--conf-dir",
        help="use the distribution's launchers with this HADOOP_CONF_DIR "
        "(any cluster: pseudo-distributed, real) instead of cluster/marco-cluster",
    )
    p.add_argument(
        "--state-dir",
        help="state dir of the netns cluster (default: "
        "$MARCO_CLUSTER_STATE_DIR or /tmp/marco-cluster)",
    )
    p.add_argument("--dist", help="the hadoop-marco distribution (default dist/hadoop-marco-1.0.0)")
    if recording:
        p.add_argument(
            "--fresh",
            action="store_true",
            help="start over: move the results directory aside (to "
            "OUT.previous-TIMESTAMP) instead of resuming it",
        )


def add_reducers(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--reducers",
        default="efficient",
        choices=catalog.REDUCER_KINDS,
        help="the reducers of inverted-index, self-join and adjacency-list: ours (efficient, "
        "the default) or with the paper's quadratic cost (paper); paper runs go to the set "
        "NAME-paper-reducers (default efficient)",
    )


def reducer_set(name: str, kind: str) -> str:
    """The set a run of `kind` reducers goes to: paper-cost runs beside, not among, ours."""
    return name if kind == "efficient" else f"{name}-{kind}-reducers"


def add_own_cluster(p: argparse.ArgumentParser, rate_help: str) -> None:
    """The options of the commands that start their own netns cluster (main, curve)."""
    add_common(p, default_profile="paper")
    p.add_argument("--workers", type=int, help="workers instead of the profile's")
    p.add_argument("--rate", type=float, help=rate_help)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="marco-bench",
        description=__doc__.split("\n\n")[0],
        epilog="docs/harness.md explains every subcommand, flag, profile key and number.",
    )
    sub = top.add_subparsers(dest="command", metavar="SUBCOMMAND")
    sub.required = True

    p = sub.add_parser(
        "main",
        help="start the netns cluster, generate, shape, run the profile, "
        "report, stop the cluster (the README's main command)",
        description="Starts the 4-worker netns cluster (profile 'cluster'), generates the "
        "data, picks the bisection rate from one stock run of the profile's probe job "
        "(calibration.probe_job) unless --rate is given, shapes the bisection to it, runs "
        "every job with every variant "
        "(interleaved repetitions) and, where the profile says so, the bandwidth "
        "curve, writes the report, and stops the cluster, also after a failure or "
        "Ctrl-C.",
    )
    add_own_cluster(
        p,
        rate_help="payload Mbit/s between groups instead of the one the probe run picks "
        "(or the profile's, where it names no probe job)",
    )
    add_reducers(p)

    p = sub.add_parser(
        "curve",
        help="start the netns cluster and run the profile's bandwidth curve around the rate "
        "main ran at (Figure 9), report, stop the cluster",
        description="Starts the netns cluster as main does, generates the data of the "
        "profile's sweep jobs, and runs the bandwidth curve (sweep.rate_factors times main's "
        "rate; sweep.jobs, sweep.variants, sweep.repetitions), then writes the report and "
        "stops the cluster, also after a failure or Ctrl-C. Main's rate comes from --rate, "
        "or from the probe that main recorded in the results directory (run curve with "
        "main's --out, the default), or else from a probe run of its own. In main's results "
        "directory the report adds main's runs as the curve's point at main's rate.",
    )
    add_own_cluster(
        p,
        rate_help="the rate main ran at (payload Mbit/s between groups), which the curve's "
        "rate_factors multiply, instead of the one main's probe recorded",
    )

    p = sub.add_parser(
        "regime",
        help="start the netns cluster and map where MaRCO pays: the parametric job at every "
        "reduce cost x bisection rate of the profile's regime grid, report, stop the cluster",
        description="Starts the netns cluster as main does (no calibration probe: the grid "
        "names its rates), generates the parametric job's data, and runs the profile's "
        "'regime' grid: every reduce cost (set regime-c<COST>) at every bisection rate, each "
        "regime.variant with regime.repetitions interleaved repetitions per cell, rate by "
        "rate. Resumes like main. The report plots MaRCO's measured speedup as a heatmap with "
        "the model's speedup (the ideal from stock's breakdown) as contour lines.",
    )
    add_common(p, default_profile="regime")
    p.add_argument(
        "--costs",
        help="comma-separated reduce costs (hash passes per value) instead of the "
        "profile's regime.reduce_costs",
    )
    p.add_argument("--rates", help="comma-separated Mbit/s instead of the profile's regime.rates")

    p = sub.add_parser(
        "run",
        help="run the profile's jobs x variants x repetitions on a running cluster",
        description="Runs every chosen job with every chosen variant N times, "
        "interleaved, on a running cluster; appends each run to results.jsonl and "
        "skips runs already recorded (resume).",
    )
    add_common(p)
    p.add_argument("--generate", action="store_true", help="generate missing data first")
    p.add_argument(
        "--set", default="main", help="name of this set of runs in the results (default main)"
    )
    add_reducers(p)
    p.add_argument(
        "--conf",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="extra job setting for every run (repeatable)",
    )

    p = sub.add_parser(
        "sweep",
        help="bandwidth / start threshold / stop fraction sweeps (Figures 9, 10)",
        description="Sweeps from the profile's 'sweep' section: 'bandwidth' runs "
        "stock and MaRCO at each rate (re-shaping the netns cluster), 'threshold' and "
        "'stop' run MaRCO at each start threshold / stop fraction beside stock.",
    )
    add_common(p)
    p.add_argument(
        "--what",
        default="bandwidth,threshold,stop",
        help="comma-separated subset of bandwidth,threshold,stop (default all)",
    )
    p.add_argument("--generate", action="store_true", help="generate missing data first")

    p = sub.add_parser(
        "faults",
        help="kill a reduce attempt / fail a partial invocation half-way "
        "(paper 6.3), check the output stays identical",
        description="Runs stock and MaRCO plainly and with a reduce attempt killed "
        "at kill_at of the job's usual time, and MaRCO with its k-th partial "
        "invocation failing; compares every output with stock.",
    )
    add_common(p)
    p.add_argument("--generate", action="store_true", help="generate missing data first")

    p = sub.add_parser(
        "calibrate",
        help="run stock at several bisection rates and pick the rate "
        "of the paper's regime (network-bound shuffle, >= 20%% hideable work)",
        description="Runs the stock shuffle once per job at each rate of the "
        "profile's 'calibration' section (highest first, re-shaping the netns "
        "cluster), applies the regime test to stock's own breakdown and writes "
        "calibration.json with the numbers and the chosen rate.",
    )
    add_common(p)
    p.add_argument("--rates", help="comma-separated Mbit/s instead of the profile's")
    p.add_argument("--generate", action="store_true", help="generate missing data first")

    p = sub.add_parser("generate", help="generate the profile's missing data sets on the cluster")
    add_common(p, recording=False)

    p = sub.add_parser(
        "doctor",
        help="check that this machine can run the netns cluster (main runs it first)",
        description="Checks root, commands, memory for the profile's cluster, free "
        "disk, the cgroup cpu controller (v1 or v2), network namespaces with veth, "
        "the sch_htb and ifb kernel features, and a leftover marco-cluster; prints "
        "what it found and the fix for what is missing. Exit 0 if everything "
        "required is there, 1 if not.",
    )
    p.add_argument(
        "--profile",
        default="paper",
        help="profile whose cluster to size the checks for (default paper)",
    )
    p.add_argument("--workers", type=int, help="workers instead of the profile's")
    p.add_argument(
        "--state-dir",
        help="state dir of the netns cluster (default: "
        "$MARCO_CLUSTER_STATE_DIR or /tmp/marco-cluster)",
    )

    p = sub.add_parser(
        "report", help="results.json/csv, plots and report.md from a results directory"
    )
    add_common(p, cluster_opts=False, default_profile="paper")
    p.add_argument(
        "--dist",
        help="the hadoop-marco distribution whose `mapred marco-advise` the model check runs on "
        "the stock runs' histories (default dist/hadoop-marco-1.0.0)",
    )
    p.add_argument(
        "--publish",
        metavar="DOC",
        help="also copy the report to DOC (e.g. docs/results.md) and its images next "
        "to it under img/",
    )
    return top


# ---- sessions (commands, environment, timings) ---------------------------------------------------


def environment(prof: Profile, client: Client, args: argparse.Namespace) -> dict[str, Any]:
    mem_kb = next(
        (
            int(line.split()[1])
            for line in Path("/proc/meminfo").read_text().splitlines()
            if line.startswith("MemTotal")
        ),
        0,
    )
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
    commit = resume.git_commit(REPO, short=True)
    c = prof["cluster"]
    cluster = (
        (
            f"{c['workers']} workers in {c['groups']} groups, {c['rate_mbit']} Mbit/s per node "
            f"between groups, cpu per worker {c.get('cpu_per_worker') or 'unlimited'}, "
            f"{prof['reduces']} reduces per job; {client.describe()}"
        )
        if client.netns
        else client.describe()
    )
    return {
        "cores": os.cpu_count(),
        "memory_gib": round(mem_kb / 2**20, 1),
        "workers": c["workers"],
        "groups": c["groups"],
        "kernel": platform.release(),
        "java": java[0] if java else "unknown",
        "cluster": cluster,
        "profile": prof.get("_path", prof["name"]),
        "git_commit": commit,
    }


class Session:
    # The cluster the session's commands run on (main sets it).
    client: Client

    def __init__(
        self, out: str | Path, prof: Profile, client: Client | None, args: argparse.Namespace
    ) -> None:
        self.path = Path(out) / "sessions.json"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.sessions = json.loads(self.path.read_text()) if self.path.exists() else []
        self.entry = {
            "command": "benchmarks/marco-bench " + shlex.join(sys.argv[1:]),
            "started": f"{datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC",
            "seconds": None,
            "phases": {},
            "environment": environment(prof, client, args) if client else {},
        }
        self.sessions.append(self.entry)
        self.t0 = time.monotonic()
        self.save()

    def phase(self, name: str, seconds: float) -> None:
        self.entry["phases"][name] = round(seconds, 1)
        self.save()

    def finish(self) -> None:
        self.entry["seconds"] = round(time.monotonic() - self.t0, 1)
        self.save()

    def discard(self) -> None:
        self.sessions.remove(self.entry)
        self.save()

    def save(self) -> None:
        self.path.write_text(json.dumps(self.sessions, indent=1))


# ---- commands ------------------------------------------------------------------------------


def load_profile(args: argparse.Namespace) -> Profile:
    prof = profiles.load(args.profile)
    prof["_sha256"] = resume.profile_sha256(prof)  # as in its file, before the overrides below
    prof["_path"] = args.profile
    # --jobs, --variants and --reps stand for the profile's, its sweeps' included.
    if getattr(args, "jobs", None):
        prof["jobs"] = catalog.check_jobs(args.jobs.split(","))
        if "sweep" in prof:
            prof["sweep"]["jobs"] = prof["jobs"]
    if getattr(args, "variants", None):
        prof["variants"] = catalog.check_variants(args.variants.split(","))
        for section in ("sweep", "regime"):
            if section in prof:
                prof[section]["variants"] = prof["variants"]
    if getattr(args, "reps", None):
        prof["repetitions"] = args.reps
        for section in ("sweep", "regime"):
            if section in prof:
                prof[section]["repetitions"] = args.reps
    if getattr(args, "costs", None):
        prof.setdefault("regime", {})["reduce_costs"] = [
            int(profiles.number(c)) for c in args.costs.split(",")
        ]
    if getattr(args, "rates", None) and args.command == "regime":
        prof.setdefault("regime", {})["rates"] = [profiles.number(r) for r in args.rates.split(",")]
    if getattr(args, "workers", None):
        prof["cluster"]["workers"] = args.workers
        prof["reduces"] = args.workers
    if getattr(args, "rate", None):
        prof["cluster"]["rate_mbit"] = args.rate
    profiles.validate(prof, args.profile)
    return prof


def out_dir(args: argparse.Namespace, prof: Profile) -> Path:
    return Path(args.out) if args.out else REPO / "benchmarks" / "results" / prof["name"]


def session_identity(prof: Profile, client: Client, command: str) -> Identity:
    """What must not change while a results directory accumulates runs (see resume.py)."""
    if client.netns:
        cluster = {k: v for k, v in prof["cluster"].items()}
        # `main` and `curve` shape the cluster they start; every other command runs at the rate
        # in force, which someone may have changed by hand.
        in_force = None if command in OWN_CLUSTER else client.shaped_rate()
        if in_force is not None:
            cluster["rate_mbit"] = in_force
    else:
        cluster = {"conf_dir": str(Path(client.conf_dir).resolve())}
    return resume.identity(resume.git_commit(REPO), prof["name"], prof["_sha256"], cluster)


def prepare_results_dir(args: argparse.Namespace, prof: Profile, client: Client) -> None:
    """--fresh moves the old results aside; otherwise a directory of other runs is refused."""
    out = out_dir(args, prof)
    if args.command not in OWN_CLUSTER:
        # Their identity holds the rate in force, which only a running cluster has; and a
        # missing cluster is the first thing to fix.
        client.require_netns_up()
    if args.fresh:
        moved = resume.set_aside(out)
        if moved:
            log(f"--fresh: moved the previous results to {moved}")
    resume.check(out, session_identity(prof, client, args.command), REPO)


def make_client(args: argparse.Namespace) -> Client:
    return Client(dist=args.dist, conf_dir=args.conf_dir, state_dir=args.state_dir)


def make_runner(args: argparse.Namespace, prof: Profile, client: Client) -> Runner:
    shaper = None
    if client.netns:

        def shaper(rate: float) -> None:
            r = subprocess.run(
                shape_argv(prof["cluster"]["groups"], rate),
                env=client.env(),
                capture_output=True,
                text=True,
            )
            if r.returncode != 0:
                raise ClusterError(f"shaping to {rate} Mbit/s failed:\n{tail(r.stderr + r.stdout)}")

    return Runner(client, prof, out_dir(args, prof), args.hdfs_root, shaper=shaper, log=log)


def prepare(
    args: argparse.Namespace, prof: Profile, session: Session, generate: bool, jobs: list[str]
) -> Runner:
    """Checks the cluster, then generates or checks the data of `jobs`; returns the Runner."""
    profiles.check_data(prof, jobs)
    client = session.client
    t = time.monotonic()
    nodes = client.check_up()
    log(f"cluster: {client.describe()}, {nodes} NodeManagers running")
    runner = make_runner(args, prof, client)
    session.phase("cluster checks", time.monotonic() - t)
    t = time.monotonic()
    if generate:
        runner.generate(jobs)
    else:
        runner.require_data(jobs)
    session.phase("data generation" if generate else "data check", time.monotonic() - t)
    return runner


def base_configs(
    prof: Profile, extra_conf: JobConf | None = None, reducers: str = "efficient"
) -> list[Config]:
    return [Config(v, v, dict(extra_conf or {}), reducers=reducers) for v in prof["variants"]]


def cmd_run(args: argparse.Namespace, prof: Profile, session: Session) -> None:
    runner = prepare(args, prof, session, args.generate, prof["jobs"])
    extra = dict(kv.split("=", 1) for kv in args.conf)
    runs = plan(
        reducer_set(args.set, args.reducers),
        prof["jobs"],
        base_configs(prof, extra, args.reducers),
        prof["repetitions"],
    )
    t = time.monotonic()
    runner.execute(runs, f"run {args.set}")
    session.phase(f"runs ({len(runs)})", time.monotonic() - t)


def sweep_section(prof: Profile) -> tuple[dict, list[str], list[str], int]:
    """The profile's sweep section, and the jobs, variants and repetitions every sweep runs."""
    sw = prof.get("sweep")
    if not sw:
        raise profiles.ProfileError(f"profile {prof['name']} has no 'sweep' section")
    jobs = catalog.check_jobs(sw.get("jobs", catalog.SHUFFLE_HEAVY))
    variants = catalog.check_variants(sw.get("variants", ["stock", "marco"]))
    return sw, jobs, variants, sw.get("repetitions", prof["repetitions"])


def sweep_runs(
    prof: Profile, what: list[str], base_rate: float, with_base_rate: bool = False
) -> list[Run]:
    """The sweeps' runs; `base_rate` is the rate the bandwidth sweep's rate_factors multiply,
    and `with_base_rate` adds it to the bandwidth sweep's rates."""
    sw, jobs, variants, reps = sweep_section(prof)
    runs = []
    for item in what:
        if item == "bandwidth":
            for rate in profiles.curve_rates(sw, base_rate, with_base_rate):
                runs += plan("bandwidth", jobs, [Config(v, v, rate=rate) for v in variants], reps)
        elif item == "threshold":
            configs = [Config("stock", "stock")] + [
                Config(
                    f"marco t={t}",
                    "marco",
                    {
                        "mapreduce.marco.start.threshold": t,
                        "mapreduce.marco.start.threshold.initial": t,
                    },
                )
                for t in sw.get("start_thresholds", [1, 8, 12])
            ]
            runs += plan("threshold", jobs, configs, reps)
        elif item == "stop":
            configs = [Config("stock", "stock")] + [
                Config(f"marco sf={f}", "marco", {"mapreduce.marco.stop.fraction": f})
                for f in sw.get("stop_fractions", [0.8, 0.9, 1.0])
            ]
            runs += plan("stop-fraction", jobs, configs, reps)
        else:
            raise ValueError(f"unknown sweep '{item}'; choose from bandwidth, threshold, stop")
    return runs


def cmd_sweep(args: argparse.Namespace, prof: Profile, session: Session) -> None:
    runs = sweep_runs(prof, args.what.split(","), prof["cluster"]["rate_mbit"])
    if any(r.config.rate is not None for r in runs) and not session.client.netns:
        raise ClusterError(
            "the bandwidth sweep re-shapes the netns cluster; with --conf-dir "
            "shape your cluster yourself and use `run --set bw-<rate>` instead"
        )
    runner = prepare(args, prof, session, args.generate, sorted({r.job for r in runs}))
    t = time.monotonic()
    execute_then_restore_rate(runner, runs, "sweep", prof)
    session.phase(f"sweep runs ({len(runs)})", time.monotonic() - t)


def execute_then_restore_rate(runner: Runner, runs: list[Run], label: str, prof: Profile) -> None:
    """Runs that re-shape the bisection, then the profile's rate again, also after a failure."""
    try:
        runner.execute(runs, label)
    finally:
        base = prof["cluster"]["rate_mbit"]
        if runner.current_rate != base and runner.shaper:
            runner.reshape(base)


def fault_configs(prof: Profile) -> list[Config]:
    f = prof.get("faults", {})
    k = f.get("fail_invocation", 2)
    # The injected failure comes where an invocation would commit its run. An invocation still
    # running at shuffle end may be abandoned before that (and on a busy machine a low-priority
    # one may not get the CPU to finish earlier), so here every running invocation finishes.
    failing = {
        "mapreduce.marco.test.fail.invocation": k,
        "mapreduce.marco.finish.all.at.shuffle.end": "true",
    }
    return [
        Config("stock", "stock"),
        Config("stock+kill-reduce", "stock", fault="kill-reduce"),
        Config("marco", "marco"),
        Config("marco+kill-reduce", "marco", fault="kill-reduce"),
        Config("marco+fail-partial", "marco", failing, fault="fail-partial"),
    ]


def cmd_faults(args: argparse.Namespace, prof: Profile, session: Session) -> None:
    f = prof.get("faults", {})
    jobs = catalog.check_jobs(f.get("jobs", ["inverted-index", "self-join"]))
    runs = plan("faults", jobs, fault_configs(prof), f.get("repetitions", 1))
    runner = prepare(args, prof, session, args.generate, jobs)
    t = time.monotonic()
    runner.execute(runs, "faults")
    session.phase(f"fault runs ({len(runs)})", time.monotonic() - t)


def cmd_calibrate(args: argparse.Namespace, prof: Profile, session: Session) -> None:
    cal = prof.get("calibration")
    if not cal:
        raise profiles.ProfileError(f"profile {prof['name']} has no 'calibration' section")
    if not session.client.netns:
        raise ClusterError(
            "calibration re-shapes the netns cluster; with --conf-dir shape your "
            "cluster yourself and run `run --variants stock` at each rate"
        )
    rates = [profiles.number(r) for r in args.rates.split(",")] if args.rates else cal["rates"]
    rates = sorted(rates, reverse=True)
    jobs = prof["jobs"] if args.jobs else catalog.check_jobs(cal.get("jobs", prof["jobs"]))
    runs = []
    for rate in rates:
        runs += plan(
            "calibration", jobs, [Config("stock", "stock", rate=rate)], cal.get("repetitions", 1)
        )
    runner = prepare(args, prof, session, args.generate, jobs)
    t = time.monotonic()
    execute_then_restore_rate(runner, runs, "calibration", prof)
    session.phase(f"calibration runs ({len(runs)})", time.monotonic() - t)
    done = {r.key for r in runs}
    records = [
        r for r in load_results(runner.results_path) if r["key"] in done and r["status"] == "ok"
    ]
    c = prof["cluster"]
    rows = [calibration.assess(r, c["workers"], c["groups"]) for r in records]
    chosen = calibration.choose(rows, jobs)
    path = out_dir(args, prof) / "calibration.json"
    path.write_text(
        json.dumps(
            {"rows": rows, "chosen_rate_mbit": chosen, "profile_rate_mbit": c["rate_mbit"]},
            indent=1,
        )
    )
    for row in rows:
        log(
            f"calibration: {row['job']} @ {row['rate_mbit']} Mbit/s: wall {row['wall_s']:.0f} s, "
            f"map {row['map_s']:.0f} s, network {row['network_s']:.0f} s, hideable "
            f"{100 * row['hideable_share']:.0f}%, start-up {100 * row['startup_share']:.0f}% -> "
            f"{'passes' if row['passes'] else 'fails'}"
        )
    log(
        f"calibration: {'chosen rate ' + str(chosen) + ' Mbit/s' if chosen else 'no rate passes'}"
        f" (profile has {c['rate_mbit']}); written to {path}"
    )


def cmd_generate(args: argparse.Namespace, prof: Profile, session: Session) -> None:
    prepare(args, prof, session, True, prof["jobs"])


def cmd_report(args: argparse.Namespace) -> Path:
    prof_name = Path(args.profile).stem
    out = Path(args.out) if args.out else REPO / "benchmarks" / "results" / prof_name
    report, figures = write_report(out, mapred=mapred_of(args))
    log(f"report: {report} ({len(figures)} figures in {out / 'img'})")
    if args.publish:
        publish(out, Path(args.publish))
    return report


GENERATED_MARK = "<!-- marco-bench report below; regenerated by `marco-bench report --publish` -->"


def publish(out: Path, doc: Path) -> None:
    """Copies report.md to DOC and its images to DOC's dir/img/. Whatever DOC holds above the
    GENERATED_MARK line (a written discussion of the numbers) is kept."""
    img_dir = doc.parent / "img"
    img_dir.mkdir(parents=True, exist_ok=True)
    for png in sorted((out / "img").glob("*.png")):
        (img_dir / png.name).write_bytes(png.read_bytes())
    intro = ""
    if doc.exists() and GENERATED_MARK in doc.read_text():
        intro = doc.read_text().split(GENERATED_MARK)[0]
    doc.write_text(intro + GENERATED_MARK + "\n\n" + (out / "report.md").read_text())
    log(f"published {doc} and {img_dir}")


# A step of main or curve: its label (for the log and the session's phases) and its runs.
Step = tuple[str, list[Run]]


def curve_steps(prof: Profile, rate: float, out: Path | None = None) -> list[Step]:
    """The bandwidth curve at the profile's rates (or `sweep.rate_factors` times main's rate).
    Its point at main's rate is main's own runs: in `main` (`out` None) and where `out` holds
    them. Where it does not (`curve` in a directory of its own), the curve runs that point as
    well, so it always has every rate; once it has, it keeps it, so a resumed curve finishes it."""
    with_main_rate = out is not None and (
        not main_runs_cover_curve(prof, rate, out) or curve_ran_rate(rate, out)
    )
    return [("bandwidth curve", sweep_runs(prof, ["bandwidth"], rate, with_main_rate))]


def main_runs_cover_curve(prof: Profile, rate: float, out: Path) -> bool:
    """Whether `out` holds the curve's repetitions of main-set runs at `rate`, successful, of
    every job and variant of the curve: the report then plots them as the curve's point there."""
    _, jobs, variants, reps = sweep_section(prof)
    done = Counter(
        (r["job"], r["variant"])
        for r in runs_at(rate, out)
        if r["set"] == "main" and r["status"] == "ok"
    )
    return all(done[(job, variant)] >= reps for job in jobs for variant in variants)


def curve_ran_rate(rate: float, out: Path) -> bool:
    """Whether `out` holds a bandwidth-set run at `rate`, successful or not."""
    return any(r["set"] == "bandwidth" for r in runs_at(rate, out))


def runs_at(rate: float, out: Path) -> list[Record]:
    """The runs recorded in `out` at `rate`, compared as the bandwidth sweep runs rates."""
    key = profiles.rounded_rate(rate)
    return [
        r
        for r in load_results(out / "results.jsonl")
        if profiles.rounded_rate(r["rate_mbit"]) == key
    ]


def main_steps(prof: Profile, rate: float, reducers: str = "efficient") -> list[Step]:
    runs = plan(
        reducer_set("main", reducers),
        prof["jobs"],
        base_configs(prof, reducers=reducers),
        prof["repetitions"],
    )
    steps = [("main", runs)]
    return steps + (curve_steps(prof, rate) if prof.get("sweep", {}).get("in_main") else [])


def known_main_rate(args: argparse.Namespace, prof: Profile, out: Path) -> float | None:
    """The rate of main's runs where it is known before the cluster starts: `--rate`, the
    profile's when it names no probe job, or the one a probe already chose for this results
    directory (a resumed main keeps it, and curve follows it). None: a probe picks it."""
    if getattr(args, "rate", None) or not prof.get("calibration", {}).get("probe_job"):
        return prof["cluster"]["rate_mbit"]
    path = out / "calibration.json"
    saved = json.loads(path.read_text()) if path.exists() else {}
    # `calibrate` writes the same file, with its own rule's pick: only a probe's counts here.
    return saved.get("chosen_rate_mbit") if saved.get("probe_job") else None


def probe_rate(runner: Runner, prof: Profile, out: Path, first_job: str) -> float:
    """Runs the warm-up (on `first_job`, the first to come after the probe), then one stock run
    of the profile's probe job at the profile's rate, and returns the rate at which that run's
    cross-group bytes need as long as its map phase (calibration.regime_rate). Writes
    calibration.json for the report, for a resumed main and for curve."""
    c = prof["cluster"]
    job = prof["calibration"]["probe_job"]
    runner.reshape(c["rate_mbit"])
    runner.warm_up(Run("main", first_job, Config("stock", "stock"), 1))
    probe = Run("calibration", job, Config("stock", "stock", rate=c["rate_mbit"]), 1)
    runner.execute([probe], "calibration probe")
    record = next((r for r in load_results(runner.results_path) if r["key"] == probe.key), None)
    if record is None or record["status"] != "ok":
        raise ClusterError(
            f"the calibration probe ({job}, stock, {c['rate_mbit']} Mbit/s) failed; see "
            f"{out / 'runs'} and the cluster's logs (--rate R runs main at R without a probe)"
        )
    row = calibration.assess(record, c["workers"], c["groups"])
    rate = calibration.regime_rate(row)
    (out / "calibration.json").write_text(
        json.dumps(
            {
                "rows": [row],
                "chosen_rate_mbit": rate,
                "profile_rate_mbit": c["rate_mbit"],
                "probe_job": job,
            },
            indent=1,
        )
    )
    log(
        f"calibration: stock {job} at {c['rate_mbit']} Mbit/s: map phase {row['map_s']:.0f} s, "
        f"network {row['network_s']:.0f} s (what a node receives from the other groups), "
        f"hideable {100 * row['hideable_share']:.0f}%, start-up "
        f"{100 * row['startup_share']:.0f}% -> {rate} Mbit/s, the highest multiple of "
        f"{calibration.RATE_STEP} at which the network needs at least the map phase"
    )
    if row["hideable_share"] < calibration.MIN_HIDEABLE_SHARE:
        log(
            f"WARNING: {job}'s hideable share is {100 * row['hideable_share']:.0f}%, below the "
            f"regime test's {100 * calibration.MIN_HIDEABLE_SHARE:.0f}%: no rate changes that; "
            "more data per reduce does (docs/harness.md)"
        )
    return rate


def unfinished(runs: list[Run], results_path: Path) -> list[Run]:
    done = {r["key"] for r in load_results(results_path) if r["status"] == "ok"}
    return [r for r in runs if r.key not in done]


def state_dir(args: argparse.Namespace) -> str:
    return args.state_dir or os.environ.get("MARCO_CLUSTER_STATE_DIR") or DEFAULT_STATE_DIR


def cmd_doctor(args: argparse.Namespace) -> int:
    prof = load_profile(args)
    lines, ok = doctor.report(doctor.run_checks(prof["cluster"], state_dir(args)))
    print("\n".join(lines))
    print(
        "doctor: everything the netns cluster needs is here"
        if ok
        else "doctor: something the netns cluster needs is MISSING (fixes above)"
    )
    return 0 if ok else 1


def cmd_main(args: argparse.Namespace, prof: Profile, session: Session) -> None:
    reducers = getattr(args, "reducers", "efficient")
    on_own_cluster("main", args, prof, session, lambda rate: main_steps(prof, rate, reducers))


def cmd_regime(args: argparse.Namespace, prof: Profile, session: Session) -> None:
    regime.section(prof)  # a bad grid is refused before the cluster starts
    if not session.client.netns:
        raise ClusterError(
            "the regime map re-shapes the netns cluster at every rate of its grid; with "
            "--conf-dir shape your cluster yourself and use `run --jobs parametric --conf "
            f"{regime.COST_KEY}=COST --set {regime.SET_PREFIX}COST` at each rate instead"
        )
    on_own_cluster(
        "regime", args, prof, session, lambda rate: [("regime", regime.runs(prof))], probe=False
    )


def cmd_curve(args: argparse.Namespace, prof: Profile, session: Session) -> None:
    out = out_dir(args, prof)
    on_own_cluster("curve", args, prof, session, lambda rate: curve_steps(prof, rate, out))


def on_own_cluster(
    command: str,
    args: argparse.Namespace,
    prof: Profile,
    session: Session,
    steps_at: Callable[[float], list[Step]],
    probe: bool = True,
) -> None:
    """Main's, curve's and regime's life cycle: doctor, start the netns cluster, generate, find
    the rate (known, or, with `probe`, from a probe), shape to it, run `steps_at(rate)`, always
    stop the cluster, report. With everything already recorded it starts nothing."""
    out = out_dir(args, prof)
    rate = known_main_rate(args, prof, out) if probe else prof["cluster"]["rate_mbit"]
    steps = steps_at(rate) if rate is not None else []
    if rate is not None and not unfinished(
        [r for _, runs in steps for r in runs], out / "results.jsonl"
    ):
        report, _ = write_report(out, mapred=mapred_of(args))
        log(
            f"{command}: all {sum(len(runs) for _, runs in steps)} runs are already recorded in "
            f"{out}; nothing to run, no cluster started. Report: {report} (--fresh starts over)"
        )
        return
    lines, ok = doctor.report(doctor.run_checks(prof["cluster"], state_dir(args)))
    for line in lines:
        log(f"doctor: {line}")
    if not ok:
        raise ClusterError(
            "this machine lacks what the netns cluster needs: see the MISSING "
            "lines of doctor above and their fixes (`marco-bench doctor` checks again)"
        )
    c = prof["cluster"]
    client = session.client
    started = False
    try:
        t = time.monotonic()
        argv = cluster_start_argv(c, client.dist)
        log(f"cluster: {shlex.join(argv)}")
        started = True
        r = subprocess.run(argv, env=client.env())
        if r.returncode != 0:
            raise ClusterError(f"cluster start failed (exit {r.returncode}); see its output above")
        session.phase("cluster start", time.monotonic() - t)
        # Which jobs the steps run, and in what order, does not depend on the rate.
        planned = [r for _, runs in steps_at(c["rate_mbit"]) for r in runs]
        probe = prof.get("calibration", {}).get("probe_job") if rate is None else None
        jobs = sorted({r.job for r in planned} | ({probe} if probe else set()))
        runner = prepare(args, prof, session, True, jobs)
        # Shaped only after generating: the data is written unshaped, as its replicas in the other
        # groups would otherwise cross the throttled link, and generating is not what we measure.
        if rate is None:
            t = time.monotonic()
            rate = probe_rate(runner, prof, out, planned[0].job)
            session.phase("calibration probe", time.monotonic() - t)
            steps = steps_at(rate)
        if rate != c["rate_mbit"]:
            c["rate_mbit"] = rate
            session.entry["environment"] = environment(prof, client, args)
            session.save()
        if rate:
            t = time.monotonic()
            runner.reshape(rate)
            session.phase("shaping", time.monotonic() - t)
        for label, runs in steps:  # the cluster stops next: no re-shape after a curve
            t = time.monotonic()
            runner.execute(runs, label)
            name = "runs" if label == "main" else f"{label} runs"
            session.phase(f"{name} ({len(runs)})", time.monotonic() - t)
    finally:
        if started:
            t = time.monotonic()
            log("cluster: stopping")
            stop = subprocess.run([str(MARCO_CLUSTER), "stop"], env=client.env())
            session.phase("cluster stop", time.monotonic() - t)
            if stop.returncode != 0:
                log(
                    f"WARNING: cluster stop exited {stop.returncode}; "
                    "run cluster/marco-cluster stop"
                )
    session.finish()
    t = time.monotonic()
    report, figures = write_report(out_dir(args, prof), mapred=mapred_of(args))
    session.phase("report", time.monotonic() - t)
    # Again, so that the report lists its own timing.
    write_report(out_dir(args, prof), mapred=mapred_of(args))
    log(f"report: {report}")


# The commands that record runs in the results directory.
RECORDING = ("main", "curve", "regime", "run", "sweep", "faults", "calibrate")
# The commands that start (and stop) the netns cluster themselves.
OWN_CLUSTER = ("main", "curve", "regime")
COMMANDS = {
    "main": cmd_main,
    "curve": cmd_curve,
    "regime": cmd_regime,
    "run": cmd_run,
    "sweep": cmd_sweep,
    "faults": cmd_faults,
    "calibrate": cmd_calibrate,
    "generate": cmd_generate,
}


def on_sigterm(signum: int, frame: FrameType | None) -> NoReturn:
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    signal.signal(signal.SIGTERM, on_sigterm)
    # A shell starts background jobs with SIGINT ignored; `kill -INT` must still stop us cleanly.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    session = None
    try:
        if args.command == "report":
            cmd_report(args)
            return 0
        if args.command == "doctor":
            return cmd_doctor(args)
        prof = load_profile(args)
        client = make_client(args)
        if args.command in RECORDING:
            prepare_results_dir(args, prof, client)
        session = Session(out_dir(args, prof), prof, client, args)
        session.client = client
        log(f"{args.command}: profile {prof['name']}; results in {out_dir(args, prof)}")
        COMMANDS[args.command](args, prof, session)
        if session.entry["seconds"] is None:
            session.finish()
        log(f"{args.command}: done in {fmt_seconds(session.entry['seconds'])}")
        return 0
    except (
        profiles.ProfileError,
        ClusterError,
        resume.ResumeError,
        FileNotFoundError,
        ValueError,
    ) as e:
        if session is not None and not session.entry["phases"]:
            session.discard()  # failed before doing anything: not a session worth listing
        print(f"marco-bench: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(
            "marco-bench: interrupted; results so far are kept and the next run resumes",
            file=sys.stderr,
        )
        return 130


if __name__ == "__main__":
    sys.exit(main())
