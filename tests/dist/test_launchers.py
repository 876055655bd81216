# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""The distribution's layout, build.sh's and the launchers' handling of bad input, and daemon
control without a running cluster (no daemon is started here)."""

import hashlib
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from distribution import run_dist_command

LAUNCHERS = ["hadoop", "hdfs", "yarn", "mapred"]


def pom_value(repo_root, path):
    """A value of the root pom.xml, the one source of the versions (e.g. 'm:version')."""
    root = ET.parse(repo_root / "pom.xml").getroot()
    return root.find(path, {"m": "http://maven.apache.org/POM/4.0.0"}).text.strip()


def test_build_sh_rejects_unknown_command_with_usage(repo_root):
    result = subprocess.run(
        [str(repo_root / "build.sh"), "nonsense"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert result.returncode != 0
    assert "Usage: ./build.sh" in result.stderr
    assert "unknown command 'nonsense'" in result.stderr


def test_build_sh_rejects_unknown_test_stage(repo_root):
    result = subprocess.run(
        [str(repo_root / "build.sh"), "test", "--stage", "unit,bogus"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert result.returncode != 0
    assert "unknown stage 'bogus'" in result.stderr


def test_distribution_carries_the_license_and_hadoops_notice(repo_root, dist_home):
    assert (dist_home / "LICENSE").read_text() == (repo_root / "LICENSE").read_text()
    assert "Apache License" in (dist_home / "LICENSE").read_text()
    notice = (dist_home / "NOTICE").read_text()
    assert notice.startswith((repo_root / "NOTICE").read_text())
    # Apache Hadoop's own notice, as the bundled hadoop-common jar carries it
    assert "Apache Hadoop\nCopyright 2006 and onwards The Apache Software Foundation." in notice


@pytest.mark.parametrize("launcher", LAUNCHERS)
def test_launcher_rejects_unknown_subcommand_with_usage(dist_home, launcher):
    result = run_dist_command(dist_home, f"bin/{launcher}", "frobnicate", check=False)
    assert result.returncode != 0
    assert "unknown subcommand 'frobnicate'" in result.stderr
    assert f"Usage: {launcher} " in result.stderr


@pytest.mark.parametrize("launcher", LAUNCHERS)
def test_launcher_without_subcommand_prints_usage(dist_home, launcher):
    result = run_dist_command(dist_home, f"bin/{launcher}", check=False)
    assert result.returncode != 0
    assert f"Usage: {launcher} " in result.stderr


def test_daemon_option_refuses_a_client_subcommand(dist_home):
    result = run_dist_command(dist_home, "bin/hdfs", "--daemon", "start", "dfs", check=False)
    assert result.returncode != 0
    assert "'dfs' is not a daemon" in result.stderr


def test_distribution_is_named_by_the_release_version(dist_home, repo_root):
    version = pom_value(repo_root, "m:version")
    assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{version} is not a release version"
    assert dist_home.name == f"hadoop-marco-{version}"
    assert f"hadoop-marco {version}\n" in (dist_home / "RELEASE").read_text()


def test_version_reports_the_pinned_hadoop_then_hadoop_marcos(dist_home, repo_root):
    lines = run_dist_command(dist_home, "bin/hadoop", "version").stdout.splitlines()
    pinned = pom_value(repo_root, "m:properties/m:hadoop.version")
    assert lines[0] == f"Hadoop {pinned}"
    version = pom_value(repo_root, "m:version")
    assert lines[-1].startswith(
        f"hadoop-marco {version} (the MaRCO shuffle consumer; built against Hadoop {pinned}, "
    ), lines[-1]


def test_tarball_has_a_matching_sha512_file(dist_home):
    tarball = dist_home.parent / f"{dist_home.name}.tar.gz"
    checksum = dist_home.parent / f"{tarball.name}.sha512"
    assert checksum.is_file(), f"{checksum} is missing: ./build.sh writes it next to the tarball"
    digest, name = checksum.read_text().split()
    assert name == tarball.name
    assert digest == hashlib.sha512(tarball.read_bytes()).hexdigest()
    # The file is the one sha512sum -c checks, as for Apache releases.
    subprocess.run(
        ["sha512sum", "-c", checksum.name], cwd=dist_home.parent, check=True, capture_output=True
    )


def test_classpath_covers_every_component(dist_home):
    classpath = run_dist_command(dist_home, "bin/hadoop", "classpath").stdout.strip().split(":")
    share = dist_home.resolve() / "share" / "hadoop"
    for component in ["common/*", "common/lib/*", "hdfs", "hdfs/*", "yarn/*", "mapreduce/*"]:
        assert str(share / component) in classpath
    assert classpath[0] == str(dist_home.resolve() / "etc" / "hadoop")


def test_layout_puts_jars_where_hadoop_does(dist_home):
    share = dist_home / "share" / "hadoop"
    names = {
        d: {p.name for p in (share / d).glob("*.jar")}
        for d in ["common", "common/lib", "hdfs", "yarn", "mapreduce"]
    }
    assert any(n.startswith("hadoop-common-") for n in names["common"])
    assert any(n.startswith("hadoop-hdfs-") for n in names["hdfs"])
    assert any(n.startswith("hadoop-yarn-server-nodemanager-") for n in names["yarn"])
    assert any(n.startswith("hadoop-mapreduce-client-marco-") for n in names["mapreduce"])
    assert any(n.startswith("hadoop-marco-benchmarks-") for n in names["mapreduce"])
    assert not any(n.startswith("hadoop-") for n in names["common/lib"])
    assert (share / "hdfs" / "webapps" / "hdfs").is_dir()
    assert (dist_home / "logs").is_dir()


def test_build_time_values_are_filled_in(dist_home):
    for path in dist_home.glob("*/**/*"):
        if path.is_file() and path.suffix in ("", ".sh", ".xml", ".properties"):
            text = path.read_text()
            for placeholder in ("@JAVA_OPENS@", "@HADOOP_VERSION@", "@MARCO_VERSION@"):
                assert placeholder not in text, (placeholder, path)
    mapred_site = (dist_home / "etc" / "hadoop" / "mapred-site.xml").read_text()
    assert "--add-opens=java.base/java.lang=ALL-UNNAMED" in mapred_site


@pytest.fixture
def daemon_env(tmp_path):
    return dict(
        os.environ, HADOOP_PID_DIR=str(tmp_path / "pids"), HADOOP_LOG_DIR=str(tmp_path / "logs")
    )


def test_stopping_a_stopped_daemon_is_a_no_op(dist_home, daemon_env):
    result = run_dist_command(dist_home, "bin/hdfs", "--daemon", "stop", "namenode", env=daemon_env)
    assert "no namenode to stop" in result.stdout
    status = run_dist_command(
        dist_home, "bin/hdfs", "--daemon", "status", "namenode", env=daemon_env, check=False
    )
    assert status.returncode != 0
    assert "namenode is not running" in status.stdout


def test_stop_never_signals_a_process_that_only_reuses_the_pid(dist_home, daemon_env, tmp_path):
    """A stale pid file whose pid now belongs to another process: stop must leave it alone."""
    bystander = subprocess.Popen(["sleep", "300"])
    try:
        pid_dir = tmp_path / "pids"
        pid_dir.mkdir()
        pid_file = pid_dir / f"hadoop-{os.environ.get('USER', 'root')}-datanode.pid"
        daemon_env["HADOOP_IDENT_STRING"] = os.environ.get("USER", "root")
        pid_file.write_text(f"{bystander.pid}\n")
        result = run_dist_command(
            dist_home, "bin/hdfs", "--daemon", "stop", "datanode", env=daemon_env
        )
        assert "no datanode to stop" in result.stdout
        assert bystander.poll() is None, "stop signalled a process that is not the datanode"
        assert not pid_file.exists(), "the stale pid file should be removed"
    finally:
        bystander.kill()
        bystander.wait()


@pytest.mark.parametrize("script", ["start-all.sh", "start-dfs.sh", "start-yarn.sh"])
def test_start_scripts_refuse_remote_workers(dist_home, daemon_env, tmp_path, script):
    conf = tmp_path / "conf"
    conf.mkdir()
    (conf / "workers").write_text("localhost\nworker-7.example.org\n")
    daemon_env["HADOOP_CONF_DIR"] = str(conf)
    result = run_dist_command(dist_home, f"sbin/{script}", env=daemon_env, check=False)
    assert result.returncode != 0
    assert "worker-7.example.org" in result.stderr and script in result.stderr
    assert not (tmp_path / "pids").exists(), "no daemon may start when the workers file is refused"


@pytest.mark.parametrize(
    "group, daemons",
    [
        ("all", "namenode datanode resourcemanager nodemanager historyserver"),
        ("dfs", "namenode datanode"),
        ("yarn", "resourcemanager nodemanager"),
    ],
)
def test_start_and_stop_scripts_cover_hadoops_daemon_groups(dist_home, daemon_env, group, daemons):
    """start-dfs.sh, start-yarn.sh and start-all.sh (and their stop twins) name their daemons in
    --help; stopping the group when nothing runs stops each of them, in reverse order, as a
    no-op."""
    for action in ("start", "stop"):
        usage = run_dist_command(dist_home, f"sbin/{action}-{group}.sh", "--help", env=daemon_env)
        listed = [
            entry.split(":")[1]
            for entry in re.search(r"on this machine: (.*)\.", usage.stdout)[1].split()
        ]
        assert listed == daemons.split(), usage.stdout
    stopped = run_dist_command(dist_home, f"sbin/stop-{group}.sh", env=daemon_env)
    said = [line.split()[1] for line in stopped.stdout.splitlines() if line.startswith("no ")]
    assert said == list(reversed(daemons.split())), stopped.stdout


def test_distcp_runs_from_the_tools_jars_and_names_a_missing_one(dist_home, tmp_path):
    usage = run_dist_command(dist_home, "bin/hadoop", "distcp", check=False)
    assert "usage: distcp" in usage.stdout + usage.stderr, usage
    # The same launchers over a distribution whose tools/lib lost its jar.
    home = tmp_path / "home"
    for part in ("bin", "libexec", "etc"):
        shutil.copytree(dist_home / part, home / part)
    for component in ("common", "hdfs", "yarn", "mapreduce"):
        (home / "share/hadoop").mkdir(parents=True, exist_ok=True)
        (home / "share/hadoop" / component).symlink_to(dist_home / "share/hadoop" / component)
    (home / "share/hadoop/tools/lib").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k not in ("HADOOP_HOME", "HADOOP_CONF_DIR")}
    missing = run_dist_command(home, "bin/hadoop", "distcp", "/a", "/b", env=env, check=False)
    assert missing.returncode != 0
    assert "no hadoop-distcp jar" in missing.stderr and "./build.sh" in missing.stderr, (
        missing.stderr
    )
