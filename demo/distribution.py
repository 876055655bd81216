# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Finds the built hadoop-marco distribution and runs its launchers."""

import os
import pathlib
import subprocess


def find_dist_home(repo):
    """The single dist/hadoop-marco-*/ directory under REPO; fails with the fix if there is none."""
    homes = sorted(p for p in pathlib.Path(repo, "dist").glob("hadoop-marco-*") if p.is_dir())
    if len(homes) != 1:
        raise RuntimeError(
            f"expected one distribution under {repo}/dist, found {[str(h) for h in homes]}; "
            "run ./build.sh (or ./build.sh dist) first"
        )
    return homes[0]


def run_dist_command(dist_home, command, *args, env=None, check=True, timeout=600):
    """Runs COMMAND (a path inside the distribution, e.g. 'bin/hdfs') with ARGS; returns the
    CompletedProcess, and with CHECK fails with its output when it exits non-zero."""
    result = subprocess.run(
        [str(pathlib.Path(dist_home, command)), *map(str, args)],
        env=env if env is not None else os.environ.copy(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if check and result.returncode != 0:
        raise AssertionError(
            f"{command} {' '.join(map(str, args))} exited {result.returncode}\n"
            f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
        )
    return result
