# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""marco-bench doctor: what the one-machine netns cluster needs from this machine, checked before
anything starts. Each check says what it found and, where something is missing, the fix.

Kernel features are probed the way the cluster uses them, inside a throwaway network namespace
(`unshare --net`) that the kernel removes when the probe exits: nothing is left behind."""

import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .cluster import netns_namespaces
from .datatypes import ClusterProfile

# Heaps of the daemons (cluster/lib/daemons.sh): a worker's DataNode and NodeManager, the
# master's NameNode, ResourceManager and history server, and the job client's JVM.
WORKER_DAEMONS_MB = 256 + 384
MASTER_AND_CLIENT_MB = 512 + 512 + 256 + 1024
# HDFS data of a profile (each data set on every worker), job outputs, logs and the state dir's
# copy of the distribution fit well within this on the profiles we ship.
MIN_FREE_DISK_GB = 10
COMMANDS = ("ip", "tc", "unshare", "java", "python3")


class DiskUsage(Protocol):
    """What the disk check reads of shutil.disk_usage's answer."""

    @property
    def free(self) -> int: ...


@dataclass
class Check:
    name: str
    ok: bool
    found: str
    fix: str = ""
    required: bool = True

    def line(self) -> str:
        status = "ok" if self.ok else ("MISSING" if self.required else "note")
        text = f"{status:<8}{self.name}: {self.found}"
        return text + (f". Fix: {self.fix}" if not self.ok and self.fix else "")


def memory_needed_mb(cluster_profile: ClusterProfile) -> int:
    """What a cluster of the profile's shape may take: each worker's YARN memory and daemons, and
    the master's daemons and the client."""
    nm_mb = cluster_profile.get("nm_memory_mb") or 3072  # marco-cluster's default
    return cluster_profile["workers"] * (nm_mb + WORKER_DAEMONS_MB) + MASTER_AND_CLIENT_MB


def available_memory_mb(proc: Path = Path("/proc")) -> int:
    for line in (proc / "meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) // 1024
    return 0


def cgroup_layout(cgroup_root: Path = Path("/sys/fs/cgroup")) -> str | None:
    """'v1' where a writable v1 cpu hierarchy exists, 'v2' where a v2 mount offers cpu, else None
    (the same order as cluster/lib/cgroups.sh)."""
    if os.access(cgroup_root / "cpu", os.W_OK):
        return "v1"
    for root in (cgroup_root, cgroup_root / "unified"):
        controllers = root / "cgroup.controllers"
        if controllers.is_file() and "cpu" in controllers.read_text().split():
            return "v2"
    return None


def probe(*argv: str) -> bool:
    """True if ARGV succeeds inside a network namespace of its own."""
    try:
        return (
            subprocess.run(
                ["unshare", "--net", *argv], capture_output=True, check=False, timeout=30
            ).returncode
            == 0
        )
    except (OSError, subprocess.TimeoutExpired):
        return False


def existing_parent(path: str | Path) -> Path:
    path = Path(path).resolve()
    while not path.exists():
        path = path.parent
    return path


def run_checks(
    cluster_profile: ClusterProfile,
    state_dir: str | Path,
    *,
    euid: int | None = None,
    proc: Path = Path("/proc"),
    cgroup_root: Path = Path("/sys/fs/cgroup"),
    which: Callable[[str], str | None] = shutil.which,
    disk_usage: Callable[[Path], DiskUsage] = shutil.disk_usage,
    namespaces: Callable[[], list[str]] | None = None,
    kernel_probe: Callable[..., bool] = probe,
) -> list[Check]:
    """Every check, in the order a user fixes them."""
    euid = os.geteuid() if euid is None else euid
    checks = [
        Check(
            "root",
            euid == 0,
            f"uid {euid}",
            "run marco-bench as root (e.g. with sudo): namespaces, tc and cgroups need it",
        )
    ]
    missing = [c for c in COMMANDS if which(c) is None]
    checks.append(
        Check(
            "commands",
            not missing,
            "missing " + ", ".join(missing) if missing else ", ".join(COMMANDS),
            "./build.sh installs them (apt-get install iproute2 util-linux "
            "openjdk-17-jdk-headless python3)",
        )
    )
    need, have = memory_needed_mb(cluster_profile), available_memory_mb(proc)
    checks.append(
        Check(
            "memory",
            have >= need,
            f"{have} MiB available, the profile's cluster needs about {need} MiB",
            "stop other work, or give the cluster fewer workers or less YARN memory "
            "(main --workers, the profile's cluster.nm_memory_mb)",
        )
    )
    where = existing_parent(state_dir)
    free_gb = disk_usage(where).free / 2**30
    checks.append(
        Check(
            "disk",
            free_gb >= MIN_FREE_DISK_GB,
            f"{free_gb:.1f} GiB free at {where}, {MIN_FREE_DISK_GB} GiB wanted",
            "free space there, or put the cluster elsewhere with --state-dir",
        )
    )
    layout = cgroup_layout(cgroup_root)
    checks.append(
        Check(
            "cgroups",
            layout is not None,
            f"cgroup {layout} cpu controller"
            if layout
            else "no writable cgroup cpu controller (v1 or v2)",
            "mount the cpu controller (v1 at /sys/fs/cgroup/cpu, or v2 with cpu in "
            "cgroup.subtree_control); without it partial threads rely on nice alone",
            required=False,
        )
    )
    if euid == 0:
        checks.append(
            Check(
                "network namespaces",
                kernel_probe(
                    "ip", "link", "add", "mcdoc0", "type", "veth", "peer", "name", "mcdoc1"
                ),
                "a namespace with a veth pair",
                "a kernel with CONFIG_NET_NS and CONFIG_VETH, and permission to unshare",
            )
        )
        checks.append(
            Check(
                "sch_htb",
                kernel_probe("tc", "qdisc", "add", "dev", "lo", "root", "handle", "1:", "htb"),
                "HTB qdisc",
                "load the module: modprobe sch_htb (shaping needs it)",
            )
        )
        checks.append(
            Check(
                "ifb",
                kernel_probe("ip", "link", "add", "mcdoc0", "type", "ifb"),
                "IFB device",
                "modprobe ifb; only bandwidth-shaping/shape --dev (a real "
                "host's interface) needs it, not the netns cluster",
                required=False,
            )
        )
    if namespaces is None:
        namespaces = netns_namespaces if which("ip") else list
    ns = namespaces()
    checks.append(
        Check(
            "leftover cluster",
            not ns,
            f"namespaces {', '.join(ns)}" if ns else "no marco-cluster namespace",
            "stop it: cluster/marco-cluster stop",
        )
    )
    return checks


def report(checks: list[Check]) -> tuple[list[str], bool]:
    """The report's lines and whether every required check passed."""
    return [c.line() for c in checks], all(c.ok or not c.required for c in checks)
