# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Reads a MapReduce job history file (.jhist, written with mapreduce.jobhistory.jhist.format=json:
a line "Avro-Json", the schema, then one event per line) into the times and counters the
breakdown needs."""

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .datatypes import Counters

TASK_CPU_MILLIS = "org.apache.hadoop.mapreduce.TaskCounter.CPU_MILLISECONDS"


# Hadoop's defaults (mapred-default.xml) for where job histories go.
STAGING_DIR = "yarn.app.mapreduce.am.staging-dir"
INTERMEDIATE_DONE_DIR = "mapreduce.jobhistory.intermediate-done-dir"
DONE_DIR = "mapreduce.jobhistory.done-dir"
DEFAULTS = {
    STAGING_DIR: "/tmp/hadoop-yarn/staging",
    INTERMEDIATE_DONE_DIR: "${yarn.app.mapreduce.am.staging-dir}/history/done_intermediate",
    DONE_DIR: "${yarn.app.mapreduce.am.staging-dir}/history/done",
}


class HistoryError(ValueError):
    pass


@dataclass(frozen=True)
class HistoryDirs:
    """Where the cluster keeps job histories: the ApplicationMaster writes a finished job's
    .jhist to intermediate/USER/, and the JobHistoryServer moves it to done/YYYY/MM/DD/SERIAL/."""

    intermediate: str
    done: str

    @classmethod
    def from_conf_dir(cls, conf_dir: Path) -> "HistoryDirs":
        """The directories a client with HADOOP_CONF_DIR=conf_dir uses: its mapred-site.xml over
        Hadoop's defaults, with ${...} references to other keys expanded."""
        props = dict(DEFAULTS)
        site = Path(conf_dir) / "mapred-site.xml"
        if site.exists():
            for prop in ET.parse(site).getroot().iter("property"):
                name, value = prop.findtext("name"), prop.findtext("value")
                if name in DEFAULTS and value is not None:
                    props[name] = value.strip()

        def expand(value: str, depth: int = 0) -> str:
            if depth > 5:
                raise HistoryError(
                    f"{site}: ${{...}} references in the history directories nest too deep: {value}"
                )
            return re.sub(
                r"\$\{([^}]+)\}",
                lambda m: expand(props.get(m.group(1), m.group(0)), depth + 1),
                value,
            )

        return cls(intermediate=expand(props[INTERMEDIATE_DONE_DIR]), done=expand(props[DONE_DIR]))

    def globs(self, job_id: str) -> list[str]:
        """HDFS globs that find the job's .jhist wherever it is now."""
        return [f"{self.intermediate}/*/{job_id}-*.jhist", f"{self.done}/*/*/*/*/{job_id}-*.jhist"]

    def conf_globs(self, job_id: str) -> list[str]:
        """HDFS globs that find the job's configuration (JOB_conf.xml, beside its .jhist)."""
        return [
            f"{self.intermediate}/*/{job_id}_conf.xml",
            f"{self.done}/*/*/*/*/{job_id}_conf.xml",
        ]


@dataclass
class ReduceAttempt:
    attempt: str
    host: str
    start: int
    shuffle_end: int
    sort_end: int
    finish: int
    counters: Counters
    container: str = ""  # the YARN container id the attempt ran in


@dataclass
class JobHistory:
    job_id: str
    submit: int = 0
    launch: int = 0
    finish: int = 0
    status: str = ""
    map_starts: list[int] = field(default_factory=list)
    map_finishes: list[int] = field(default_factory=list)
    map_hosts: list[str] = field(default_factory=list)  # of each successful map attempt
    map_attempts: list[str] = field(default_factory=list)  # their attempt ids
    am_host: str = ""  # the NodeManager host of the (last) ApplicationMaster attempt
    reduces: list[ReduceAttempt] = field(default_factory=list)  # successful ReduceAttempts
    failed_attempts: list[str] = field(default_factory=list)  # attempt ids
    killed_attempts: list[str] = field(default_factory=list)
    counters: Counters = field(default_factory=dict)  # "GROUP.NAME" -> value (job totals)
    # host -> CPU ms of the job's successful task attempts there (Hadoop's CPU_MILLISECONDS)
    task_cpu_ms: dict[str, int] = field(default_factory=dict)

    def counter(self, group_suffix: str, name: str, default: int = 0) -> int:
        for key, value in self.counters.items():
            g, _, n = key.rpartition(".")
            if n == name and (g == group_suffix or g.endswith("." + group_suffix)):
                return value
        return default


def flatten_counters(jh_counters: dict[str, Any] | None) -> Counters:
    out = {}
    for group in (jh_counters or {}).get("groups", []):
        for count in group.get("counts", []):
            out[f"{group['name']}.{count['name']}"] = count["value"]
    return out


def _unwrap(event: dict[str, Any]) -> dict[str, Any]:
    """Avro's JSON encoding of the union: {"<full record name>": {...}}."""
    if len(event) == 1:
        return next(iter(event.values()))
    return event


def parse(text: str) -> JobHistory:
    lines = text.splitlines()
    if not lines or lines[0].strip() != "Avro-Json":
        raise HistoryError(
            "not a JSON job history file (first line is not 'Avro-Json'); the "
            "harness runs jobs with -D mapreduce.jobhistory.jhist.format=json"
        )
    history = JobHistory(job_id="")
    map_started = {}
    reduce_started = {}
    reduce_container = {}
    for line in lines[2:]:
        if not line.strip():
            continue
        record = json.loads(line)
        kind = record["type"]
        ev = _unwrap(record["event"])
        if kind in ("MAP_ATTEMPT_FINISHED", "REDUCE_ATTEMPT_FINISHED"):
            cpu = flatten_counters(ev.get("counters")).get(TASK_CPU_MILLIS, 0)
            history.task_cpu_ms[ev["hostname"]] = history.task_cpu_ms.get(ev["hostname"], 0) + cpu
        if kind == "JOB_SUBMITTED":
            history.job_id = ev["jobid"]
            history.submit = ev["submitTime"]
        elif kind == "JOB_INITED":
            history.launch = ev["launchTime"]
        elif kind == "MAP_ATTEMPT_STARTED":
            map_started[ev["attemptId"]] = ev["startTime"]
        elif kind == "REDUCE_ATTEMPT_STARTED":
            reduce_started[ev["attemptId"]] = ev["startTime"]
            reduce_container[ev["attemptId"]] = ev.get("containerId", "")
        elif kind == "MAP_ATTEMPT_FINISHED":
            history.map_starts.append(map_started.get(ev["attemptId"], ev["finishTime"]))
            history.map_finishes.append(ev["finishTime"])
            history.map_hosts.append(ev["hostname"])
            history.map_attempts.append(ev["attemptId"])
        elif kind == "AM_STARTED":
            history.am_host = ev["nodeManagerHost"]
        elif kind == "REDUCE_ATTEMPT_FINISHED":
            history.reduces.append(
                ReduceAttempt(
                    attempt=ev["attemptId"],
                    host=ev["hostname"],
                    start=reduce_started.get(ev["attemptId"], ev["shuffleFinishTime"]),
                    shuffle_end=ev["shuffleFinishTime"],
                    sort_end=ev["sortFinishTime"],
                    finish=ev["finishTime"],
                    counters=flatten_counters(ev.get("counters")),
                    container=reduce_container.get(ev["attemptId"], ""),
                )
            )
        elif kind in ("MAP_ATTEMPT_FAILED", "REDUCE_ATTEMPT_FAILED"):
            history.failed_attempts.append(ev["attemptId"])
        elif kind in ("MAP_ATTEMPT_KILLED", "REDUCE_ATTEMPT_KILLED"):
            history.killed_attempts.append(ev["attemptId"])
        elif kind in ("JOB_FINISHED", "JOB_FAILED", "JOB_KILLED"):
            history.finish = ev["finishTime"]
            history.status = {"JOB_FINISHED": "SUCCEEDED"}.get(kind, ev.get("jobStatus", kind))
            history.counters = flatten_counters(ev.get("totalCounters"))
    if not history.job_id or not history.finish:
        raise HistoryError(
            f"job history of {history.job_id or 'unknown job'} is incomplete "
            f"(no JOB_SUBMITTED or no JOB_FINISHED event)"
        )
    return history
