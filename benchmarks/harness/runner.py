# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Runs planned benchmark runs one by one: builds the hadoop jar command, times it, fetches the
job history, MaRCO timelines and output from HDFS, checksums the output, computes the breakdown,
and appends one JSON line per run to results.jsonl (so an interrupted session resumes where it
stopped: runs already recorded as ok are skipped)."""

import hashlib
import json
import random
import re
import shlex
import shutil
import subprocess
import threading
import time
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import baseline, breakdown, catalog, history, linklag, machine_cpu, safepoints
from .cluster import Client, ClusterError, tail
from .datatypes import JobConf, Profile, Record
from .profile import dataset_dir

# Settings every run needs for the harness to read it back (not profile knobs).
JOB_ID = re.compile(r"Running job: (job_\d+_\d+)")
# Hadoop's "File Output Format Counters": the bytes the job's output format wrote.
OUTPUT_GROUP = "FileOutputFormatCounter"
# The name a MaRCO reduce gives its timeline in the container's log directory (MarcoTimeline).
MARCO_TIMELINE = "marco-timeline.jsonl"
# The arrivals a stock variant's reduce logs in its container's log directory (TimedStockShuffle).
STOCK_ARRIVALS = "stock-arrivals.jsonl"


@dataclass
class Config:
    """One column of a comparison: a variant plus extra job settings, at a bisection rate."""

    name: str
    variant: str
    conf: JobConf = field(default_factory=dict)
    rate: float | None = None  # payload Mbit/s between groups; None = leave the shaping as it is
    fault: str | None = None  # None, "kill-reduce" or "fail-partial"
    # The reducer kind asked for (catalog.REDUCER_KINDS); jobs without that kind run their own.
    reducers: str = "efficient"


@dataclass
class Run:
    set: str
    job: str
    config: Config
    rep: int

    @property
    def key(self) -> str:
        rate = f"@{self.config.rate}" if self.config.rate is not None else ""
        return f"{self.set}/{self.job}/{self.config.name}{rate}/{self.rep}"


def plan(set_name: str, jobs: Iterable[str], configs: list[Config], repetitions: int) -> list[Run]:
    """Interleaved order in blocks: job by job, each repetition is a block that runs every config
    once, in an order drawn at random for that block. The machine's speed drifts over minutes, so
    a block's runs, close in time, share its speed; the random order within a block is what lets
    the report's noise test deal the runs again inside their blocks. Job by job means a session
    cut short still has every repetition of the jobs it finished."""
    runs = []
    for job in jobs:
        for rep in range(1, repetitions + 1):
            block = [Run(set_name, job, c, rep) for c in configs]
            block_order(block).shuffle(block)
            runs += block
    return runs


def block_order(block: list[Run]) -> random.Random:
    """The random source of one block's order, seeded by its runs' keys: planning the same set
    again, as a resumed session does, gives the same order."""
    digest = hashlib.sha256("\n".join(r.key for r in block).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def run_dir_name(key: str) -> str:
    """The directory under the results' runs/ that keeps what the run with KEY left: its client
    log, its jobs' histories, its timelines."""
    return key.replace("/", "__").replace(" ", "_").replace("@", "_at_")


def load_results(path: Path) -> list[Record]:
    results = []
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                results.append(json.loads(line))
    return results


def fmt_seconds(s: float) -> str:
    s = int(round(s))
    return (
        f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
    )


def hadoop_value(value: object) -> str:
    """A -D value as Hadoop users write it: JSON's true/false, not Python's True/False."""
    return str(value).lower() if isinstance(value, bool) else str(value)


class Runner:
    def __init__(
        self,
        client: Client,
        profile: Profile,
        out_dir: str | Path,
        hdfs_root: str,
        shaper: Callable[[float], None] | None = None,
        log: Callable[[str], None] = print,
    ) -> None:
        self.client = client
        self.profile = profile
        self.out = Path(out_dir)
        self.hdfs_root = hdfs_root.rstrip("/")
        self.shaper = shaper  # callable(rate) that re-shapes the bisection, or None
        # What is in force, not what the profile asked for: someone may have re-shaped the
        # cluster by hand (a cluster of --conf-dir cannot be read: the profile's rate stands).
        in_force = client.shaped_rate()
        self.current_rate = profile["cluster"].get("rate_mbit") if in_force is None else in_force
        self.rate_source = "profile (not checked)" if in_force is None else "shaping in force"
        self.log = log
        self.results_path = self.out / "results.jsonl"
        self.jar = client.benchmarks_jar()
        self.warmed_up = False

    # ---- data ----------------------------------------------------------------------------
    def present_datasets(self) -> set[str]:
        listing = self.client.run("hdfs", "dfs", "-ls", "-R", f"{self.hdfs_root}/data", check=False)
        return {
            line.split()[-1].rsplit("/", 1)[0]
            for line in listing.stdout.splitlines()
            if line.endswith("/_SUCCESS")
        }

    def missing_datasets(self, jobs: Iterable[str]) -> list[str]:
        present = self.present_datasets()
        needed = [d for d in catalog.GENERATORS if d in {catalog.JOB_DATA[j] for j in jobs}]
        return [d for d in needed if dataset_dir(self.profile, self.hdfs_root, d) not in present]

    def generate(self, jobs: Iterable[str]) -> float:
        """Generates the missing data sets, all generator jobs at once (the cluster has room)."""
        missing = self.missing_datasets(jobs)
        if not missing:
            self.log("data: every data set is present")
            return 0.0
        start = time.monotonic()
        procs = {}
        logs = self.out / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        # Half-written sets (no _SUCCESS) go first, in one client call.
        self.client.run(
            "hdfs",
            "dfs",
            "-rm",
            "-r",
            "-f",
            "-skipTrash",
            *(dataset_dir(self.profile, self.hdfs_root, d) for d in missing),
        )
        for d in missing:
            spec = self.profile["data"][d]
            target = dataset_dir(self.profile, self.hdfs_root, d)
            args = [catalog.GENERATORS[d]]
            for k, v in {
                **self.profile.get("job_conf", {}),
                **self.profile.get("generate_conf", {}),
                **spec.get("conf", {}),
            }.items():
                args += ["-D", f"{k}={hadoop_value(v)}"]
            args += ["--seed", str(self.profile["seed"]), "--maps", str(spec.get("maps", 2))]
            args += (
                ["--bytes", str(spec["bytes"])]
                if "bytes" in spec
                else ["--records", str(spec["records"])]
            )
            args.append(target)
            size = f"bytes {spec['bytes']}" if "bytes" in spec else f"records {spec['records']}"
            self.log(f"data: generating {d} ({size}) into {target}")
            log_file = open(logs / f"gen-{d}.log", "w")
            procs[d] = (
                self.client.popen(
                    "hadoop", "jar", self.jar, *args, stdout=log_file, stderr=subprocess.STDOUT
                ),
                log_file,
            )
        failed = []
        try:
            codes = {d: proc.wait() for d, (proc, _) in procs.items()}
        except BaseException:
            for d, (proc, _) in procs.items():
                self.stop_client(proc, logs / f"gen-{d}.log")
            raise
        finally:
            for _, log_file in procs.values():
                log_file.close()
        for d, rc in codes.items():
            if rc != 0:
                failed.append(
                    f"{d} (exit {rc}, log {logs / f'gen-{d}.log'}):\n"
                    f"{tail((logs / f'gen-{d}.log').read_text(), 15)}"
                )
        if failed:
            raise ClusterError("data generation failed for " + "\n".join(failed))
        took = time.monotonic() - start
        self.log(f"data: generated {', '.join(missing)} in {took:.0f} s")
        return took

    def require_data(self, jobs: Iterable[str]) -> None:
        missing = self.missing_datasets(jobs)
        if missing:
            raise ClusterError(
                "data missing on the cluster: "
                + ", ".join(
                    f"{d} (expected {dataset_dir(self.profile, self.hdfs_root, d)}/_SUCCESS)"
                    for d in missing
                )
                + f". Generate it with `marco-bench generate --profile {self.profile['name']}` "
                f"or pass --generate."
            )

    # ---- runs ----------------------------------------------------------------------------
    def job_settings(self, run: Run) -> JobConf:
        p = self.profile
        settings = {"mapreduce.job.reduces": p["reduces"]}
        settings.update(p.get("job_conf", {}))
        settings.update(p.get("per_job_conf", {}).get(run.job, {}))
        settings.update(catalog.VARIANTS[run.config.variant])
        settings.update(run.config.conf)
        reducers = catalog.reducers_of(run.job, run.config.reducers)
        if reducers != "efficient":
            settings[catalog.REDUCERS_KEY] = reducers
        if run.config.variant == "hadoop":
            settings = baseline.without_our_settings(settings)
            settings.update(baseline.settings(self.client_site(), self.client.dist))
        # What the harness reads back: JSON history (where the cluster keeps it, so that the
        # JobHistoryServer lists the job), MaRCO timelines. On the netns cluster it reads each
        # reduce's timeline from the container's log directory; elsewhere the reduce copies it to
        # HDFS, a file write at shuffle end on the final merge's critical path.
        settings["mapreduce.jobhistory.jhist.format"] = "json"
        if not self.client.netns and run.config.variant != "hadoop":
            settings["mapreduce.marco.timeline.dir"] = f"{self.hdfs_root}/timelines"
        # Every reduce JVM, whatever the variant, logs its safepoints in its container's log
        # directory (safepoints.py), after the options it would have run with.
        settings[safepoints.REDUCE_JAVA_OPTS] = safepoints.with_log_option(
            self.reduce_java_opts(settings)
        )
        return settings

    def client_site(self) -> dict[str, str]:
        """The client's mapred-site.xml and yarn-site.xml properties: the cluster's settings."""
        conf = self.client.client_conf_dir()
        return {
            **site_properties(conf / "yarn-site.xml"),
            **site_properties(conf / "mapred-site.xml"),
        }

    def reduce_java_opts(self, settings: JobConf) -> str:
        """The reduce JVM options a job of these settings runs with, as Hadoop picks them: its
        mapreduce.reduce.java.opts, else the client's mapred-site.xml's, else
        mapred.child.java.opts likewise; empty where none is set (Hadoop's default)."""
        site = None
        for key in (safepoints.REDUCE_JAVA_OPTS, safepoints.CHILD_JAVA_OPTS):
            if key in settings:
                return str(settings[key])
            if site is None:
                site = site_properties(self.client.client_conf_dir() / "mapred-site.xml")
            if key in site:
                return site[key]
        return ""

    def command(self, run: Run, output: str) -> list[str]:
        args = ["jar", self.jar, run.job]
        for k, v in self.job_settings(run).items():
            args += ["-D", f"{k}={hadoop_value(v)}"]
        args += [dataset_dir(self.profile, self.hdfs_root, catalog.JOB_DATA[run.job]), output]
        return args

    def execute(self, runs: list[Run], label: str) -> list[Record]:
        """Runs every planned run not yet recorded as ok; prints progress; returns the records."""
        self.out.mkdir(parents=True, exist_ok=True)
        done = {r["key"] for r in load_results(self.results_path) if r["status"] == "ok"}
        todo = [r for r in runs if r.key not in done]
        jobs = len({r.job for r in runs})
        configs = len({r.config.name for r in runs})
        rates = len({r.config.rate for r in runs})
        self.log(
            f"{label}: {len(runs)} runs planned ({jobs} jobs x {configs} variants x "
            + (f"{rates} rates x " if rates > 1 else "")
            + f"{max(r.rep for r in runs)} repetitions)"
        )
        if len(todo) < len(runs):
            self.log(
                f"{label}: {len(runs) - len(todo)} of {len(runs)} runs already in "
                f"{self.results_path}; resuming with {len(todo)}"
            )
        if todo:
            self.warm_up(todo[0])
        start = time.monotonic()
        records = []
        for i, run in enumerate(todo, 1):
            if run.config.rate is not None and run.config.rate != self.current_rate:
                self.reshape(run.config.rate)
            elapsed = time.monotonic() - start
            eta = (elapsed / (i - 1) * (len(todo) - i + 1)) if i > 1 else None
            self.log(
                f"[{i}/{len(todo)}] {run.job} / {run.config.name}"
                f"{' @' + str(run.config.rate) + ' Mbit/s' if run.config.rate else ''}"
                f" / rep {run.rep}   elapsed {fmt_seconds(elapsed)}"
                f"   remaining ~{fmt_seconds(eta) if eta is not None else '?'}"
            )
            record = self.run_one(run)
            records.append(record)
            with self.results_path.open("a") as f:
                f.write(json.dumps(record) + "\n")
            status = (
                f"{record['wall_s']:.1f} s"
                if record["status"] == "ok"
                else f"FAILED: {record['error'].splitlines()[0] if record['error'] else ''}"
            )
            ident = (
                ""
                if record.get("output_sha256") is None
                else f", output {record['output_sha256'][:12]}"
            )
            self.log(f"        -> {status}{ident}")
        self.log(f"{label}: {len(todo)} runs in {fmt_seconds(time.monotonic() - start)}")
        return records

    def warm_up(self, first: Run) -> None:
        """Runs the profile's warm-up runs (the first job to come, with the stock shuffle, the first
        run's extra settings such as `run --conf`, and no fault; recorded nowhere) once per
        cluster session. The first job on a fresh cluster runs its daemons' container-launch and
        shuffle-serving paths cold: in the paper profile its map phase was 7 s longer than the
        same job's later runs, in every main command."""
        if self.warmed_up:
            return
        self.warmed_up = True
        for i in range(1, self.profile["warmup_runs"] + 1):
            run = Run("warmup", first.job, Config("stock", "stock", dict(first.config.conf)), i)
            self.log(f"warm-up {i}/{self.profile['warmup_runs']}: {first.job} / stock")
            record = self.run_one(run)
            if record["status"] == "ok":
                self.log(f"        -> {record['wall_s']:.1f} s (not measured)")
            else:
                self.log(f"        -> FAILED (not measured): {record['error']}")

    def reshape(self, rate: float) -> None:
        if self.shaper is None:
            raise ClusterError(
                f"a run needs the bisection at {rate} Mbit/s, but this cluster "
                f"cannot be shaped from here (only the netns cluster can)"
            )
        self.log(f"shaping the bisection to {rate} Mbit/s")
        self.shaper(rate)
        in_force = self.client.shaped_rate()
        self.current_rate = rate if in_force is None else in_force

    def run_one(self, run: Run) -> Record:
        tag = f"r{run.rep}-{uuid.uuid4().hex[:8]}"
        output = f"{self.hdfs_root}/out/{run.set}/{run.job}/{run.config.name}/{tag}"
        run_dir = self.out / "runs" / run_dir_name(run.key)
        if run_dir.exists():
            shutil.rmtree(run_dir)
        run_dir.mkdir(parents=True)
        args = self.command(run, output)
        argv = self.client.argv("hadoop", *args)
        record = {
            "key": run.key,
            "set": run.set,
            "job": run.job,
            "config": run.config.name,
            "variant": run.config.variant,
            "conf": run.config.conf,
            "rate_mbit": self.current_rate,
            "rate_source": self.rate_source,
            "fault": run.config.fault,
            "rep": run.rep,
            "status": "failed",
            "error": None,
            "command": shlex.join(argv),
            "output_dir": output,
            "shuffle_heavy": catalog.is_shuffle_heavy(run.job),
            "reducers": catalog.reducers_of(run.job, run.config.reducers),
        }
        log_path = run_dir / "client.log"
        bisection_before = self.client.bisection_bytes()
        sampler = machine_cpu.CpuSampler()
        sampler.start()
        try:
            start_ms = int(time.time() * 1000)
            t0 = time.monotonic()
            with log_path.open("w") as log_file:
                proc = self.client.popen("hadoop", *args, stdout=log_file, stderr=subprocess.STDOUT)
                injector = (
                    self.start_fault(run, log_path) if run.config.fault == "kill-reduce" else None
                )
                try:
                    rc = proc.wait()
                except BaseException:
                    self.stop_client(proc, log_path)
                    raise
            wall = time.monotonic() - t0
            end_ms = int(time.time() * 1000)
        finally:
            # After end_ms, so that the samples span the whole run.
            cpu = sampler.stop()
        (run_dir / "machine_cpu.json").write_text(json.dumps(cpu))
        bisection_after = self.client.bisection_bytes()
        if bisection_before is not None and bisection_after is not None:
            # Ethernet frames through the shaped classes, as tc counts them: the run's own traffic
            # across the bisection (the cluster runs one job at a time).
            record["bisection_bytes"] = bisection_after - bisection_before
        if injector:
            injector.join(timeout=60)
            record["fault_injected"] = injector.result
        client_log = log_path.read_text(errors="replace")
        job_ids = list(dict.fromkeys(JOB_ID.findall(client_log)))
        record.update(
            {
                "wall_s": wall,
                "start_ms": start_ms,
                "end_ms": end_ms,
                "job_ids": job_ids,
                "exit_code": rc,
            }
        )
        if rc != 0:
            record["error"] = f"job exited {rc}; log {log_path}:\n{tail(client_log, 20)}"
            return record
        try:
            download = self.profile["output_checksum"] == "download"
            histories = self.fetch(job_ids, output if download else None, run_dir)
            if run.config.variant == "hadoop":
                self.check_hadoop_as_shipped(job_ids, histories, run_dir)
            record.update(
                analyse(
                    histories,
                    start_ms,
                    end_ms,
                    self.client.shaped_groups(),
                    self.current_rate,
                    cpu,
                )
            )
            record["output_checksum"] = self.profile["output_checksum"]
            if download:
                record["output_sha256"], record["output_bytes"] = checksum(run_dir / "output")
                shutil.rmtree(run_dir / "output")
            else:
                record["output_sha256"] = self.composite_crc(output)
                # the last job's: k-means writes its result in its last round
                record["output_bytes"] = histories[-1].counter(OUTPUT_GROUP, "BYTES_WRITTEN")
            record["timelines"] = sorted(
                str(p.relative_to(self.out)) for p in (run_dir / "timelines").rglob("*.jsonl")
            )
            record["safepoints"] = safepoints.read_run(run_dir / "safepoints")
            record["link_lag"] = linklag.read_run(
                histories, run_dir, self.client.shaped_groups(), self.current_rate
            )
            if record.get("fault_injected", {}).get("killed"):
                # A kill that came after the attempt ended does not count as a fault.
                record["fault_injected"]["took_effect"] = (
                    record["fault_injected"]["killed"] in record["killed_attempt_ids"]
                )
            record["status"] = "ok"
        except (ClusterError, history.HistoryError, OSError) as e:
            record["error"] = str(e)
        return record

    def check_hadoop_as_shipped(
        self, job_ids: list[str], histories: list[history.JobHistory], run_dir: Path
    ) -> None:
        """Raises ClusterError where a `hadoop` run's job configuration or counters show a class
        of this project on its path (baseline.problems)."""
        dirs = history.HistoryDirs.from_conf_dir(self.client.client_conf_dir())
        for j, h in zip(job_ids, histories, strict=True):
            self.client.run("hdfs", "dfs", "-get", *dirs.conf_globs(j), str(run_dir), check=False)
            path = run_dir / f"{j}_conf.xml"
            if not path.exists():
                raise ClusterError(
                    f"no job configuration {j}_conf.xml beside the job history in "
                    f"{dirs.intermediate} or {dirs.done}: cannot check that the hadoop run "
                    "ran Hadoop as shipped"
                )
            found = baseline.problems(site_properties(path), h.counters, self.client.dist)
            if found:
                raise ClusterError(
                    f"the hadoop run {j} did not run Hadoop as shipped: " + "; ".join(found)
                )

    def stop_client(self, proc: subprocess.Popen[str], log_path: Path) -> None:
        """Interrupted (Ctrl-C, SIGTERM): stops a job client and kills its YARN jobs. Killing the
        client JVM alone would leave the job running on the cluster, holding its containers."""
        proc.terminate()
        proc.wait()
        for job_id in dict.fromkeys(JOB_ID.findall(log_path.read_text(errors="replace"))):
            self.log(f"interrupted: killing {job_id} on the cluster (mapred job -kill)")
            r = self.client.run("mapred", "job", "-kill", job_id, check=False, timeout=120)
            if r.returncode != 0:
                self.log(
                    f"WARNING: could not kill {job_id} (exit {r.returncode}): "
                    f"{tail(r.stderr + r.stdout, 3)}; kill it with "
                    f"`yarn application -kill {job_id.replace('job_', 'application_')}`"
                )

    def composite_crc(self, output: str) -> str:
        """The output's digest from HDFS, without copying it: see composite_crc_digest."""
        r = self.client.run(
            "hadoop",
            "fs",
            "-D",
            "dfs.checksum.combine.mode=COMPOSITE_CRC",
            "-checksum",
            f"{output}/*",
        )
        return composite_crc_digest(r.stdout, output)

    def fetch(
        self, job_ids: list[str], output: str | None, run_dir: Path
    ) -> list[history.JobHistory]:
        """Copies the output (unless None), job history and timelines of the run's jobs from
        HDFS in one client call (the history file may lag the client by a moment: retried), or
        the timelines from the container logs where the harness can read them."""
        if not job_ids:
            raise ClusterError("no 'Running job: job_...' line in the client output")
        (run_dir / "timelines").mkdir()
        dirs = history.HistoryDirs.from_conf_dir(self.client.client_conf_dir())
        sources = ([output] if output else []) + [g for j in job_ids for g in dirs.globs(j)]
        timeline_sources = (
            [] if self.client.netns else [f"{self.hdfs_root}/timelines/{j}" for j in job_ids]
        )
        self.client.run(
            "hdfs", "dfs", "-get", *sources, *timeline_sources, str(run_dir), check=False
        )
        for j in job_ids:
            if (run_dir / j).is_dir():
                (run_dir / j).rename(run_dir / "timelines" / j)
        if output:
            (run_dir / output.rsplit("/", 1)[1]).rename(run_dir / "output")
        histories = []
        for j in job_ids:
            for _ in range(10):
                found = list(run_dir.glob(f"{j}-*.jhist"))
                if found:
                    break
                time.sleep(1)
                self.client.run("hdfs", "dfs", "-get", *dirs.globs(j), str(run_dir), check=False)
            if not found:
                raise ClusterError(
                    f"no job history for {j} in {dirs.intermediate} or "
                    f"{dirs.done} (mapreduce.jobhistory.intermediate-done-dir, "
                    f"-done-dir of {self.client.client_conf_dir()})"
                )
            histories.append(history.parse(found[0].read_text()))
        for h in histories:
            self.copy_container_timelines(h, run_dir / "timelines" / h.job_id)
            self.copy_container_logs(
                h, safepoints.SAFEPOINT_LOG, run_dir / "safepoints" / h.job_id, ".log"
            )
            self.copy_container_logs(h, STOCK_ARRIVALS, run_dir / "arrivals" / h.job_id, ".jsonl")
        return histories

    def copy_container_timelines(self, h: history.JobHistory, to: Path) -> None:
        """Copies the timeline each successful reduce of the job left in its container's log
        directory (MaRCO reduces only) to <to>/<attempt>.jsonl, the name the HDFS copy has."""
        self.copy_container_logs(h, MARCO_TIMELINE, to, ".jsonl")

    def copy_container_logs(self, h: history.JobHistory, name: str, to: Path, suffix: str) -> None:
        """Copies the file `name` each successful reduce of the job left in its container's log
        directory to <to>/<attempt><suffix>, where the harness can read those directories."""
        for r in h.reduces:
            local = self.client.container_log_file(r.container, name)
            if local is not None:
                to.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(local, to / f"{r.attempt}{suffix}")

    def start_fault(self, run: Run, log_path: Path) -> "FaultInjector":
        """Kills one running reduce attempt once the job has run for kill_at of its usual time."""
        faults = self.profile.get("faults", {})
        kill_at = faults.get("kill_at", 0.5)
        usual = self.usual_wall(run.job, run.config.variant)
        injector = FaultInjector(self.client, log_path, kill_at * usual if usual else None)
        injector.start()
        return injector

    def usual_wall(self, job: str, variant: str) -> float | None:
        walls = [
            r["wall_s"]
            for r in load_results(self.results_path)
            if r["job"] == job
            and r["variant"] == variant
            and r["status"] == "ok"
            and not r.get("fault")
        ]
        return sum(walls) / len(walls) if walls else None


class FaultInjector(threading.Thread):
    """Waits for the job id in the client log, then runs the benchmarks jar's
    `kill-running-reduce` with the part of `delay` (s since the job's launch) still to go: it
    kills a running reduce attempt then, plus its own JVM start-up, or as soon as one runs."""

    def __init__(self, client: Client, log_path: Path, delay: float | None) -> None:
        super().__init__(daemon=True)
        self.client, self.log_path, self.delay = client, log_path, delay or 0.0
        self.result: dict[str, Any] | None = None

    def run(self) -> None:
        t0 = time.monotonic()
        job_id = None
        while job_id is None and time.monotonic() - t0 < 300:
            found = JOB_ID.findall(self.log_path.read_text(errors="replace"))
            job_id = found[0] if found else None
            time.sleep(0.5)
        if job_id is None:
            self.result = {"killed": None, "why": "job id never appeared"}
            return
        remaining = max(0.0, self.delay - (time.monotonic() - t0))
        tool = self.client.run(
            "hadoop",
            "jar",
            self.client.benchmarks_jar(),
            "kill-running-reduce",
            job_id,
            f"{remaining:.1f}",
            check=False,
        )
        killed = re.search(r"^killed (attempt_\S+)", tool.stdout, re.M)
        if killed:
            self.result = {
                "killed": killed[1],
                "at_s": round(time.monotonic() - t0, 1),
                "exit_code": tool.returncode,
            }
        else:
            self.result = {
                "killed": None,
                "exit_code": tool.returncode,
                "why": tail(tool.stdout, 1) or tail(tool.stderr, 3),
            }


def analyse(
    histories: list[history.JobHistory],
    start_ms: int,
    end_ms: int,
    group_of: dict[str, int] | None = None,
    rate_mbit: float | None = None,
    cpu: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The record fields that come from the run's job histories; the link slack needs the
    workers' groups and the shaped rate, and is None without them; the machine's CPU by phase
    needs the run's /proc/stat samples (machine_cpu.CpuSampler), and is None without them."""
    return {
        "breakdown": breakdown.run_breakdown(histories, start_ms, end_ms),
        **breakdown.run_metrics(histories),
        "reduce_attempts": breakdown.reduce_rows(histories),
        "link_slack_s": breakdown.link_slack(histories, group_of, rate_mbit),
        "machine_cpu_by_phase": (
            machine_cpu.by_phase(cpu, breakdown.phase_windows(histories, start_ms, end_ms))
            if cpu
            else None
        ),
    }


def site_properties(path: Path) -> dict[str, str]:
    """name -> value of a Hadoop site file's properties; empty where there is no such file."""
    if not path.exists():
        return {}
    return {
        name: value.strip()
        for prop in ET.parse(path).getroot().iter("property")
        if (name := prop.findtext("name")) and (value := prop.findtext("value")) is not None
    }


def composite_crc_digest(listing: str, output: str) -> str:
    """SHA-256 over the output files' names and composite CRCs, from `hadoop fs -checksum` lines
    (path, algorithm, hex), skipping _SUCCESS and hidden files. Two outputs with the same files
    of the same bytes have the same digest whatever their block sizes."""
    digest = hashlib.sha256()
    files = []
    for line in listing.splitlines():
        parts = line.split("\t")
        if len(parts) != 3:
            continue
        path, algorithm, crc = parts
        name = path.rsplit("/", 1)[-1]
        if name.startswith(("_", ".")):
            continue
        if not algorithm.startswith("COMPOSITE-CRC"):
            raise ClusterError(
                f"HDFS returned a {algorithm} checksum for {path}, not a composite "
                f"CRC (dfs.checksum.combine.mode=COMPOSITE_CRC needs Hadoop 3.1 or "
                f"later DataNodes); use the profile's output_checksum 'download'"
            )
        files.append((name, algorithm, crc))
    if not files:
        raise ClusterError(
            f"no output file checksums for {output} (hadoop fs -checksum printed nothing usable)"
        )
    for name, algorithm, crc in sorted(files):
        digest.update(f"{name}\0{algorithm}\0{crc}\n".encode())
    return digest.hexdigest()


def checksum(output_dir: str | Path) -> tuple[str, int]:
    """SHA-256 over the output files (path and bytes, in path order), skipping _SUCCESS and
    hidden files; returns (hex digest, total bytes)."""
    digest = hashlib.sha256()
    total = 0
    files = sorted(
        p for p in Path(output_dir).rglob("*") if p.is_file() and not p.name.startswith(("_", "."))
    )
    if not files:
        raise ClusterError(f"the job wrote no output files (looked in {output_dir})")
    for p in files:
        digest.update(str(p.relative_to(output_dir)).encode() + b"\0")
        with p.open("rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                digest.update(chunk)
                total += len(chunk)
    return digest.hexdigest(), total
