# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Shared helpers of the cluster stage: run our scripts, and list what of ours exists on the
machine.

The cluster uses fixed names (namespaces mc-*, bridge mcbr0, veths mcv-*, cgroups mc-*), so these
tests refuse to run while another marco-cluster is up instead of tearing down someone's cluster.
"""

import os
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MARCO_CLUSTER = REPO / "cluster" / "marco-cluster"
SHAPE = REPO / "bandwidth-shaping" / "shape"
VERIFY = REPO / "bandwidth-shaping" / "verify"
# MARCO_DIST points the tests at another copy of the distribution (e.g. while dist/ is rebuilt).
DIST = Path(os.environ.get("MARCO_DIST", REPO / "dist" / "hadoop-marco-1.0.0"))
CGROUP_ROOT = Path("/sys/fs/cgroup")


def run(cmd, *, check=True, timeout=900, env=None, input=None):
    """Runs cmd, returns the CompletedProcess; on an unexpected exit code, fails with its output."""
    result = subprocess.run(
        [str(c) for c in cmd], capture_output=True, text=True, timeout=timeout, env=env, input=input
    )
    if check and result.returncode != 0:
        pytest.fail(
            f"{' '.join(map(str, cmd))} exited {result.returncode}\n"
            f"--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}"
        )
    return result


def our_namespaces():
    out = run(["ip", "netns", "list"]).stdout
    return [line.split()[0] for line in out.splitlines() if re.match(r"mc-", line)]


def our_links():
    out = run(["ip", "-o", "link", "show"]).stdout
    names = [line.split(":")[1].strip().split("@")[0] for line in out.splitlines()]
    return [n for n in names if n == "mcbr0" or n.startswith("mcv-") or n.startswith("mcifb")]


def our_qdiscs():
    """HTB qdiscs with our handle 4d43: in the root namespace (the namespaces' go with them)."""
    out = run(["tc", "qdisc", "show"]).stdout
    return [line for line in out.splitlines() if " 4d43: " in line]


def our_cgroups():
    found = []
    # v1 controllers; a cgroup v2 mount (a v2-only host's root, a hybrid one's unified) for MaRCO's
    # groups where the machine has no v1 cpu
    for base in (CGROUP_ROOT / "cpu", CGROUP_ROOT / "memory", CGROUP_ROOT, CGROUP_ROOT / "unified"):
        if base.is_dir():
            found += [str(p) for p in base.glob("mc-*") if p.is_dir()]
    return found


def our_processes(state_dir):
    """Processes whose command line mentions the state dir (daemons, containers) or our subnet
    (iperf3 of verify)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if str(state_dir) in cmdline or ("iperf3" in cmdline and "10.213.77." in cmdline):
            found.append(f"{proc.name}: {cmdline[:160]}")
    return found


def leftovers(state_dir):
    return {
        "namespaces": our_namespaces(),
        "links": our_links(),
        "qdiscs": our_qdiscs(),
        "cgroups": our_cgroups(),
        "processes": our_processes(state_dir),
        "hosts files": [str(p) for p in Path("/etc/netns").glob("mc-*")]
        if Path("/etc/netns").is_dir()
        else [],
    }


def assert_nothing_left(state_dir):
    left = {kind: items for kind, items in leftovers(state_dir).items() if items}
    assert not left, f"the cluster left these behind: {left}"


@pytest.fixture(scope="session", autouse=True)
def no_foreign_cluster():
    if os.geteuid() != 0:
        pytest.skip("the cluster stage needs root (network namespaces, tc, cgroups)")
    existing = our_namespaces() + our_links()
    if existing:
        pytest.fail(
            f"a marco-cluster is already up ({existing}); stop it first: cluster/marco-cluster stop"
        )
