# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Fetches a finished job's history file (.jhist, written as JSON: the job ran with
mapreduce.jobhistory.jhist.format=json) from HDFS and parses it with the benchmark harness's
reader, which gives the job's counters and every successful reduce attempt's."""

import pathlib
import re
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "benchmarks"))
from harness import history  # noqa: E402  (needs the path set above)


def job_id_of(client_log):
    """The job id a job client's log names."""
    found = re.search(r"Running job: (job_\d+_\d+)", client_log)
    assert found, f"no 'Running job:' line in the client log:\n{client_log[-3000:]}"
    return found.group(1)


def fetch(hdfs, job_id, history_dirs, local_dir, timeout=120):
    """The parsed history of JOB_ID, found anywhere under HISTORY_DIRS (HDFS paths) and copied to
    LOCAL_DIR. HDFS(*args) runs `hdfs ARGS` and returns the CompletedProcess without failing.
    The history server moves a file from its intermediate directory to its done directory, and
    the file may lag the job client, so this looks again until TIMEOUT seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        for path in _jhist_paths(hdfs, job_id, history_dirs):
            # Not the file's own name: it holds %-escapes (word%2Dcount), which -get decodes.
            local = pathlib.Path(local_dir) / f"{job_id}.jhist"
            if hdfs("dfs", "-get", "-f", path, str(local)).returncode == 0:
                return history.parse(local.read_text())
        if time.monotonic() > deadline:
            raise AssertionError(
                f"no job history file of {job_id} under {history_dirs} after {timeout}s"
            )
        time.sleep(2)


def _jhist_paths(hdfs, job_id, history_dirs):
    for directory in history_dirs:
        listing = hdfs("dfs", "-ls", "-R", directory).stdout
        for line in listing.splitlines():
            path = line.split()[-1] if line.strip() else ""
            if path.endswith(".jhist") and path.rsplit("/", 1)[-1].startswith(f"{job_id}-"):
                yield path
