# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""A single-node (pseudo-distributed) hadoop-marco cluster started from the built distribution.

Everything of one cluster lives under its work directory: configuration (a copy of the
distribution's etc/hadoop), HDFS and NodeManager data, logs and pid files. Every daemon gets a
free port, so the cluster does not collide with anything else running on the machine.
"""

import contextlib
import os
import pathlib
import random
import re
import shutil
import signal
import socket
import time

from hadoop_xml import set_properties
from job_history import fetch as fetch_job_history

from distribution import run_dist_command

# launcher, daemon: the five daemons in start order.
DAEMONS = [
    ("hdfs", "namenode"),
    ("hdfs", "datanode"),
    ("yarn", "resourcemanager"),
    ("yarn", "nodemanager"),
    ("mapred", "historyserver"),
]
# Where jobs leave their history files (HDFS), first the AM, then the history server.
HISTORY_DIRS = ("/history/intermediate", "/history/done")


def _ephemeral_range_start():
    with open("/proc/sys/net/ipv4/ip_local_port_range") as ports:
        return int(ports.read().split()[0])


_taken_ports = set()


def free_port():
    """A port that is free now and below the kernel's ephemeral range: daemons can take minutes
    to bind on a loaded machine, and an ephemeral port may meanwhile serve an outgoing
    connection."""
    high = _ephemeral_range_start() - 1
    rng = random.Random()
    for _ in range(1000):
        port = rng.randint(high - 12000, high)
        if port in _taken_ports:
            continue
        with socket.socket() as sock:
            try:
                sock.bind(("0.0.0.0", port))
            except OSError:
                continue
        _taken_ports.add(port)
        return port
    raise RuntimeError(f"no free port found below {high + 1}")


class PseudoCluster:
    def __init__(self, dist_home, work_dir):
        self.dist_home = pathlib.Path(dist_home)
        self.work_dir = pathlib.Path(work_dir)
        self.conf_dir = self.work_dir / "conf"
        self.log_dir = self.work_dir / "logs"
        self.pid_dir = self.work_dir / "pids"
        self.env = dict(
            os.environ,
            HADOOP_CONF_DIR=str(self.conf_dir),
            HADOOP_LOG_DIR=str(self.log_dir),
            HADOOP_PID_DIR=str(self.pid_dir),
        )
        # A HADOOP_HOME of another installation must not leak in.
        self.env.pop("HADOOP_HOME", None)
        self._write_configuration()

    def _write_configuration(self):
        shutil.copytree(self.dist_home / "etc" / "hadoop", self.conf_dir)
        port = {
            name: free_port()
            for name in (
                "nn",
                "nn_http",
                "dn",
                "dn_http",
                "dn_ipc",
                "rm",
                "rm_scheduler",
                "rm_tracker",
                "rm_admin",
                "rm_web",
                "nm_localizer",
                "nm_web",
                "shuffle",
                "jhs",
                "jhs_web",
                "jhs_admin",
            )
        }
        self.jhs_web = f"localhost:{port['jhs_web']}"
        set_properties(
            self.conf_dir / "core-site.xml",
            {
                "fs.defaultFS": f"hdfs://localhost:{port['nn']}",
                "hadoop.tmp.dir": str(self.work_dir / "data"),
            },
        )
        set_properties(
            self.conf_dir / "hdfs-site.xml",
            {
                "dfs.namenode.http-address": f"localhost:{port['nn_http']}",
                "dfs.datanode.address": f"127.0.0.1:{port['dn']}",
                "dfs.datanode.http.address": f"127.0.0.1:{port['dn_http']}",
                "dfs.datanode.ipc.address": f"127.0.0.1:{port['dn_ipc']}",
            },
        )
        set_properties(
            self.conf_dir / "yarn-site.xml",
            {
                "yarn.resourcemanager.address": f"localhost:{port['rm']}",
                "yarn.resourcemanager.scheduler.address": f"localhost:{port['rm_scheduler']}",
                "yarn.resourcemanager.resource-tracker.address": f"localhost:{port['rm_tracker']}",
                "yarn.resourcemanager.admin.address": f"localhost:{port['rm_admin']}",
                "yarn.resourcemanager.webapp.address": f"localhost:{port['rm_web']}",
                "yarn.nodemanager.localizer.address": f"localhost:{port['nm_localizer']}",
                "yarn.nodemanager.webapp.address": f"localhost:{port['nm_web']}",
                "yarn.log.server.url": f"http://{self.jhs_web}/jobhistory/logs",
            },
        )
        set_properties(
            self.conf_dir / "mapred-site.xml",
            {
                "mapreduce.jobhistory.address": f"localhost:{port['jhs']}",
                "mapreduce.jobhistory.webapp.address": self.jhs_web,
                "mapreduce.jobhistory.admin.address": f"localhost:{port['jhs_admin']}",
                # Here, not in yarn-site.xml: the NodeManager's ShuffleHandler creates a JobConf,
                # which loads mapred-default.xml after yarn-site.xml, so only mapred-site.xml
                # overrides 13562.
                "mapreduce.shuffle.port": port["shuffle"],
                # History files as JSON in known places: tests read each reduce's counters there.
                "mapreduce.jobhistory.intermediate-done-dir": HISTORY_DIRS[0],
                "mapreduce.jobhistory.done-dir": HISTORY_DIRS[1],
                "mapreduce.jobhistory.jhist.format": "json",
            },
        )

    def run(self, launcher, *args, check=True, timeout=600):
        """Runs bin/LAUNCHER ARGS with this cluster's environment."""
        return run_dist_command(
            self.dist_home, f"bin/{launcher}", *args, env=self.env, check=check, timeout=timeout
        )

    def run_script(self, script, check=True):
        """Runs sbin/SCRIPT with this cluster's environment."""
        return run_dist_command(self.dist_home, f"sbin/{script}", env=self.env, check=check)

    def job_history(self, job_id, local_dir):
        """The finished job's history (harness.history.JobHistory), copied to LOCAL_DIR."""
        return fetch_job_history(
            lambda *args: self.run("hdfs", *args, check=False), job_id, HISTORY_DIRS, local_dir
        )

    def format(self):
        self.run("hdfs", "namenode", "-format", "-force", "-nonInteractive")

    def pid_of(self, daemon):
        """The pid in DAEMON's pid file, or None when there is no pid file."""
        files = list(self.pid_dir.glob(f"hadoop-*-{daemon}.pid"))
        return int(files[0].read_text().strip()) if files else None

    def started_pids(self):
        return {daemon: self.pid_of(daemon) for _, daemon in DAEMONS if self.pid_of(daemon)}

    def wait_until_ready(self, timeout=900):
        """Waits for one live DataNode and one running NodeManager, then for HDFS to leave safe
        mode; fails at once, with the log's last lines, when a daemon has died. The timeout is
        generous because on a loaded 2-core machine a daemon can need minutes to come up."""
        deadline = time.monotonic() + timeout
        datanodes_up = nodemanagers_up = False
        report = nodes = ""
        while not (datanodes_up and nodemanagers_up):
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"cluster not ready after {timeout}s (DataNode up: {datanodes_up}, "
                    f"NodeManager up: {nodemanagers_up}); logs in {self.log_dir}\n{report}\n{nodes}"
                )
            time.sleep(5)
            self._fail_if_a_daemon_died()
            # Each probe is a JVM; ask YARN only once HDFS is up, and keep client retries short.
            if not datanodes_up:
                report = self.run(
                    "hdfs", "dfsadmin", "-Dipc.client.connect.max.retries=2", "-report", check=False
                ).stdout
                datanodes_up = re.search(r"Live datanodes \(1\)", report) is not None
            if datanodes_up:
                nodes = self.run(
                    "yarn",
                    "node",
                    "-Dyarn.resourcemanager.connect.max-wait.ms=5000",
                    "-Dyarn.resourcemanager.connect.retry-interval.ms=1000",
                    "-list",
                    check=False,
                ).stdout
                nodemanagers_up = re.search(r"Total Nodes:1\b", nodes) is not None
        self.run("hdfs", "dfsadmin", "-safemode", "wait")

    def _fail_if_a_daemon_died(self):
        for _, daemon in DAEMONS:
            pid = self.pid_of(daemon)
            if pid is None or not daemon_alive(pid, daemon):
                logs = sorted(self.log_dir.glob(f"hadoop-*-{daemon}-*.log"))
                tail = logs[0].read_text().splitlines()[-30:] if logs else ["(no log file)"]
                raise AssertionError(
                    f"{daemon} is not running; last lines of its log:\n" + "\n".join(tail)
                )

    def kill_leftovers(self, pids):
        """Last resort for a failed test: SIGKILL each daemon of PIDS ({daemon: pid}) that still
        runs as that daemon (never a process that merely got the pid number again)."""
        for daemon, pid in pids.items():
            if daemon_alive(pid, daemon):
                os.kill(pid, signal.SIGKILL)


@contextlib.contextmanager
def started_cluster(home, work_dir):
    """A PseudoCluster of the installation HOME in WORK_DIR, formatted, started and ready for
    jobs; on leaving, stop-all.sh, then SIGKILL for exactly the daemons it started that still
    run, also when the body failed."""
    cluster = PseudoCluster(home, work_dir)
    cluster.format()
    started = {}
    try:
        cluster.run_script("start-all.sh")
        started.update(cluster.started_pids())
        cluster.wait_until_ready()
        yield cluster
    finally:
        started.update(cluster.started_pids())
        cluster.run_script("stop-all.sh", check=False)
        cluster.kill_leftovers(started)


def daemon_alive(pid, daemon):
    """True while PID is a live, non-zombie process started as DAEMON (-Dproc_DAEMON); the kernel
    reuses pids quickly, so the number alone proves nothing."""
    try:
        status = pathlib.Path(f"/proc/{pid}/status").read_text()
        cmdline = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except (FileNotFoundError, ProcessLookupError):
        return False
    state = re.search(r"^State:\s*(\S)", status, re.MULTILINE)
    return bool(state) and state.group(1) != "Z" and f"-Dproc_{daemon}".encode() in cmdline
