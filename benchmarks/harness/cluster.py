# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""How the harness reaches Hadoop: through cluster/marco-cluster (the one-machine netns cluster) or
through the distribution's launchers with a given HADOOP_CONF_DIR (any other cluster, e.g. a
pseudo-distributed one or a real cluster's client node)."""

import glob
import os
import re
import subprocess
from pathlib import Path
from typing import Any

from .datatypes import ClusterProfile

REPO = Path(__file__).resolve().parents[2]
MARCO_CLUSTER = REPO / "cluster" / "marco-cluster"
SHAPE = REPO / "bandwidth-shaping" / "shape"
DEFAULT_DIST = REPO / "dist" / "hadoop-marco-1.0.0"
DEFAULT_STATE_DIR = "/tmp/marco-cluster"  # lib/topology.sh's MC_DEFAULT_STATE_DIR

# Fail fast instead of retrying for minutes when a daemon is down.
FAST_FAIL = [
    "-D",
    "ipc.client.connect.max.retries=2",
    "-D",
    "ipc.client.connect.max.retries.on.timeouts=2",
    "-D",
    "yarn.resourcemanager.connect.max-wait.ms=20000",
    "-D",
    "yarn.resourcemanager.connect.retry-interval.ms=2000",
]


class ClusterError(RuntimeError):
    pass


class Client:
    """Runs hadoop/hdfs/yarn/mapred commands against one cluster."""

    def __init__(
        self,
        dist: str | Path | None = None,
        conf_dir: str | Path | None = None,
        state_dir: str | Path | None = None,
    ) -> None:
        self.dist = Path(dist or DEFAULT_DIST)
        self.conf_dir = conf_dir
        self.state_dir = state_dir
        if conf_dir is not None and not Path(conf_dir).is_dir():
            raise ClusterError(
                f"--conf-dir {conf_dir} is not a directory; give the cluster's "
                f"HADOOP_CONF_DIR (the directory holding core-site.xml)"
            )
        if not (self.dist / "bin" / "hadoop").exists():
            raise ClusterError(
                f"no distribution at {self.dist} (bin/hadoop missing): build it with "
                f"./build.sh, or pass --dist DIR"
            )

    @property
    def netns(self) -> bool:
        return self.conf_dir is None

    def describe(self) -> str:
        if self.netns:
            return f"netns cluster (cluster/marco-cluster, state dir {self.state_dir or 'default'})"
        return f"cluster of HADOOP_CONF_DIR={self.conf_dir}"

    def client_conf_dir(self) -> Path:
        """The HADOOP_CONF_DIR the client commands run with."""
        if not self.netns:
            return Path(self.conf_dir)
        return self._netns_state() / "client" / "conf"

    def _netns_state(self) -> Path:
        return Path(
            self.state_dir or os.environ.get("MARCO_CLUSTER_STATE_DIR") or DEFAULT_STATE_DIR
        )

    def container_log_file(self, container: str, name: str) -> Path | None:
        """The file `name` that a container wrote to its log directory; None where there is none,
        or where the harness cannot read the NodeManagers' disks (a --conf-dir cluster). The
        netns cluster keeps container logs on each node (log aggregation is off), under
        <state dir>/nodes/<host>/logs/userlogs/<application>/<container>
        (yarn.nodemanager.log-dirs in cluster/lib/daemons.sh)."""
        if not self.netns or not container:
            return None
        found = sorted(
            self._netns_state().glob(f"nodes/*/logs/userlogs/*/{glob.escape(container)}/{name}")
        )
        return found[0] if found else None

    def shaped_rate(self) -> int | float | None:
        """The payload Mbit/s between groups that `shape` last applied to the netns cluster (its
        state dir's shaping.env), 0 if the bisection is not shaped, None where unknown (a cluster
        of --conf-dir is shaped, or not, outside the harness)."""
        if not self.netns:
            return None
        return read_shaping_env(self._netns_state() / "shaping.env")

    def shaped_groups(self) -> dict[str, int] | None:
        """Worker host -> the group the bisection is shaped between, as `shape` split them; None
        where unknown (a --conf-dir cluster) or not shaped."""
        if not self.netns:
            return None
        return read_shaped_groups(self._netns_state())

    def bisection_bytes(self) -> int | None:
        """Bytes the workers have sent across the shaped bisection so far: the sum over workers of
        the `Sent` counter of the shaped HTB class (bandwidth-shaping/lib/htb.sh's
        HTB_SHAPED_CLASS) on each worker's egress. Each byte counts once, at its sender. None
        where unknown: a --conf-dir cluster, or a netns cluster whose bisection is not shaped."""
        if not self.netns:
            return None
        total, shaped = 0, False
        for ns in netns_namespaces():
            if ns == "mc-master":
                continue
            out = subprocess.run(
                ["ip", "netns", "exec", ns, "tc", "-s", "class", "show", "dev", "eth0"],
                capture_output=True,
                text=True,
            ).stdout
            sent = shaped_class_sent(out)
            if sent is not None:
                total, shaped = total + sent, True
        return total if shaped else None

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.pop("HADOOP_HOME", None)
        if self.netns:
            if self.state_dir:
                env["MARCO_CLUSTER_STATE_DIR"] = str(self.state_dir)
        else:
            env["HADOOP_CONF_DIR"] = str(self.conf_dir)
        return env

    def argv(self, launcher: str, *args: object) -> list[str]:
        if self.netns:
            return [str(MARCO_CLUSTER), "client", launcher, *map(str, args)]
        return [str(self.dist / "bin" / launcher), *map(str, args)]

    def run(
        self, launcher: str, *args: object, check: bool = True, timeout: float = 3600
    ) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            self.argv(launcher, *args),
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if check and result.returncode != 0:
            raise ClusterError(
                f"`{' '.join(self.argv(launcher, *args))}` exited "
                f"{result.returncode}:\n{tail(result.stderr + result.stdout)}"
            )
        return result

    def popen(self, launcher: str, *args: object, **kwargs: Any) -> subprocess.Popen[str]:
        return subprocess.Popen(self.argv(launcher, *args), env=self.env(), text=True, **kwargs)

    def benchmarks_jar(self) -> str:
        jars = sorted(
            glob.glob(str(self.dist / "share/hadoop/mapreduce/hadoop-marco-benchmarks-*.jar"))
        )
        jars = [j for j in jars if not j.endswith(("-tests.jar", "-sources.jar"))]
        if not jars:
            raise ClusterError(
                f"no hadoop-marco-benchmarks jar under {self.dist}/share/hadoop/"
                f"mapreduce: rebuild the distribution with ./build.sh"
            )
        return jars[0]

    def require_netns_up(self) -> None:
        """Raises ClusterError naming the fix if this is the netns cluster and it is not up."""
        if self.netns and not netns_namespaces():
            raise ClusterError(
                "the netns cluster is not up (no mc-* network namespace): start it "
                "with `cluster/marco-cluster start --rate 50`, or run "
                "`marco-bench main`, which starts and stops it"
            )

    def check_up(self) -> int:
        """Raises ClusterError naming the fix unless HDFS answers and YARN has running nodes."""
        self.require_netns_up()
        hdfs = self.run("hdfs", "dfs", *FAST_FAIL, "-ls", "/", check=False, timeout=120)
        if hdfs.returncode != 0:
            raise ClusterError(
                f"HDFS of the {self.describe()} does not answer; is the cluster up? "
                f"Start it (cluster/marco-cluster start, or `marco-bench main`).\n"
                f"{tail(hdfs.stderr)}"
            )
        nodes = self.run("yarn", "node", *FAST_FAIL, "-list", check=False, timeout=120)
        match = re.search(r"Total Nodes:\s*(\d+)", nodes.stdout + nodes.stderr)
        if nodes.returncode != 0 or not match or int(match.group(1)) == 0:
            raise ClusterError(
                f"YARN of the {self.describe()} has no running NodeManager; is the "
                f"cluster up?\n{tail(nodes.stderr + nodes.stdout)}"
            )
        return int(match.group(1))


def read_shaping_env(path: Path) -> int | float:
    """RATE_MBIT from a shaping.env written by bandwidth-shaping/shape; 0 if the file is absent."""
    if not path.exists():
        return 0
    for line in path.read_text().splitlines():
        key, _, value = line.partition("=")
        if key == "RATE_MBIT":
            rate = float(value)
            return int(rate) if rate.is_integer() else rate
    raise ClusterError(
        f"{path} names no RATE_MBIT; re-apply the shaping with bandwidth-shaping/shape --rate MBIT"
    )


def read_shaped_groups(state: Path) -> dict[str, int] | None:
    """Worker host -> group, as bandwidth-shaping/shape splits the workers of the state dir's
    nodes.list, in their order, into shaping.env's SHAPED_GROUPS contiguous groups
    (lib/topology.sh's mc_worker_group); None if the cluster is not shaped."""
    env, nodes = state / "shaping.env", state / "nodes.list"
    if not env.exists() or not nodes.exists():
        return None
    groups = next(
        (
            int(value)
            for key, _, value in (line.partition("=") for line in env.read_text().splitlines())
            if key == "SHAPED_GROUPS"
        ),
        None,
    )
    workers = [
        fields[0]
        for fields in (line.split() for line in nodes.read_text().splitlines())
        if len(fields) >= 5 and fields[4] == "worker"
    ]
    if not groups or not workers:
        return None
    return {name: i * groups // len(workers) + 1 for i, name in enumerate(workers)}


def shaped_class_sent(tc_class_stats: str) -> int | None:
    """The `Sent` bytes of the shaped class (handle :20) in `tc -s class show` output, or None."""
    match = re.search(
        r"^class htb [0-9a-f]+:20 .*\n\s*Sent (\d+) bytes", tc_class_stats, re.MULTILINE
    )
    return int(match.group(1)) if match else None


def tail(text: str, lines: int = 25) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


def cluster_start_argv(cluster_profile: ClusterProfile, dist: str | Path) -> list[str]:
    argv = [
        str(MARCO_CLUSTER),
        "start",
        "--workers",
        str(cluster_profile["workers"]),
        "--groups",
        str(cluster_profile["groups"]),
        "--dist",
        str(dist),
    ]
    for key, flag in (
        ("cpu_per_worker", "--cpu-per-worker"),
        ("mem_per_worker", "--mem-per-worker"),
        ("nm_memory_mb", "--nm-memory-mb"),
        ("nm_vcores", "--nm-vcores"),
    ):
        if cluster_profile.get(key) is not None:
            argv += [flag, str(cluster_profile[key])]
    if cluster_profile.get("class_archive"):
        argv.append("--class-archive")
    return argv


def shape_argv(groups: int, rate: float) -> list[str]:
    return [str(SHAPE), "--groups", str(groups), "--rate", str(rate)]


def netns_namespaces() -> list[str]:
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.startswith("mc-")]
