# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""docs/deploy.md followed step by step on a Hadoop installation without MaRCO.

The installation is the distribution with every MaRCO jar taken out and the two MaRCO properties
taken out of its mapred-site.xml: Hadoop's own jars and daemons, configured as a Java 17 site
runs them. On it, as an operator would: copy the engine jar in, select MaRCO per job and then
cluster-wide, install the AppMaster through its command-opts hook, check each step the way
deploy.md says to check it, and roll back. Every MaRCO run's output is compared, byte for byte,
with the stock run's. The tests share one cluster and run in file order."""

import re
import shutil
import time

import pytest
from hadoop_xml import read_properties, remove_properties, set_properties
from job_history import job_id_of
from marco_counters import (
    MARCO_GROUP,
    assert_marco_shuffle,
    assert_partial_work_in_every_reduce,
    assert_stock_shuffle,
)
from pseudo_cluster import started_cluster
from word_input import write_word_files

PLUGIN_KEY = "mapreduce.job.reduce.shuffle.consumer.plugin.class"
MARCO_SHUFFLE = "org.apache.hadoop.mapreduce.task.reduce.MarcoShuffle"
STOCK_SHUFFLE = "org.apache.hadoop.mapreduce.task.reduce.Shuffle"
AM_OPTS_KEY = "yarn.app.mapreduce.am.command-opts"
MARCO_APPMASTER = "org.apache.hadoop.mapreduce.v2.app.MarcoMRAppMaster"
# Every jar hadoop-marco adds: the four engine-side jars and the benchmarks jar.
MARCO_JAR_PREFIXES = ("hadoop-mapreduce-client-marco-", "hadoop-marco-benchmarks-")
# As in the pseudo-distributed smoke run: enough maps for invocations to start.
INPUT_FILES = 12
INPUT = "/user/deploy/in"


def marco_jar(dist_home, name):
    """The distribution's jar NAME-<version>.jar, found by its exact name as deploy.md copies it."""
    jars = [
        jar
        for jar in (dist_home / "share/hadoop/mapreduce").glob(f"{name}-*.jar")
        if re.fullmatch(re.escape(name) + r"-\d[\w.]*\.jar", jar.name)
    ]
    assert len(jars) == 1, f"expected one {name} jar in the distribution, found {jars}"
    return jars[0]


@pytest.fixture(scope="module")
def stock_home(dist_home, tmp_path_factory):
    """A Hadoop installation without MaRCO: the distribution less its jars and properties."""
    home = tmp_path_factory.mktemp("stock-hadoop") / "hadoop"
    shutil.copytree(
        dist_home,
        home,
        ignore=lambda _, names: [n for n in names if n.startswith(MARCO_JAR_PREFIXES)],
    )
    mapred_site = home / "etc/hadoop/mapred-site.xml"
    am_opts = read_properties(mapred_site)[AM_OPTS_KEY]
    assert am_opts.endswith(" " + MARCO_APPMASTER), am_opts
    remove_properties(mapred_site, [PLUGIN_KEY])
    set_properties(mapred_site, {AM_OPTS_KEY: am_opts[: -len(MARCO_APPMASTER) - 1]})
    return home


@pytest.fixture(scope="module")
def cluster(stock_home, tmp_path_factory):
    with started_cluster(stock_home, tmp_path_factory.mktemp("deploy-cluster")) as cluster:
        local = tmp_path_factory.mktemp("deploy-input")
        write_word_files(local, INPUT_FILES, 1000)
        cluster.run("hdfs", "dfs", "-mkdir", "-p", "/user/deploy")
        cluster.run("hdfs", "dfs", "-put", local, INPUT)
        yield cluster


@pytest.fixture(scope="module")
def job_jar(dist_home, tmp_path_factory):
    """The benchmarks jar, as a job author's jar: outside the cluster's classpath."""
    jar = marco_jar(dist_home, "hadoop-marco-benchmarks")
    return shutil.copy(jar, tmp_path_factory.mktemp("job-jar"))


@pytest.fixture(scope="module")
def outputs():
    """The walk-through's word-count outputs, by run name, as `hdfs dfs -cat` prints them."""
    return {}


def word_count(cluster, job_jar, outputs, name, tmp_path, *options):
    """Runs deploy.md's check job (the benchmarks jar's word count, 2 reduces) as run NAME;
    returns its parsed history, and keeps its output for comparison."""
    out = f"/user/deploy/out-{name}"
    job = cluster.run(
        "hadoop",
        "jar",
        job_jar,
        "word-count",
        "-D",
        "mapreduce.job.reduces=2",
        *options,
        INPUT,
        out,
    )
    log = job.stdout + job.stderr
    assert "completed successfully" in log, log
    outputs[name] = cluster.run("hdfs", "dfs", "-cat", f"{out}/part-r-*").stdout
    return cluster.job_history(job_id_of(log), tmp_path)


def counter_from_mapred_job(cluster, job_id, name):
    """deploy.md's counter check: `mapred job -counter JOB_ID GROUP NAME`, as a number."""
    printed = cluster.run("mapred", "job", "-counter", job_id, MARCO_GROUP, name).stdout
    return int(printed.strip().splitlines()[-1])


def aggregated_logs(cluster, job_id, timeout=120):
    """`yarn logs -applicationId` of JOB_ID's application, once log aggregation has finished."""
    app_id = job_id.replace("job_", "application_", 1)
    deadline = time.monotonic() + timeout
    while True:
        logs = cluster.run("yarn", "logs", "-applicationId", app_id, check=False)
        if logs.returncode == 0 and "syslog" in logs.stdout:
            return logs.stdout
        if time.monotonic() > deadline:
            raise AssertionError(f"no aggregated logs of {app_id} after {timeout}s:\n{logs.stderr}")
        time.sleep(3)


def test_the_installation_starts_without_any_marco_class_or_setting(stock_home, cluster):
    assert not [jar for jar in stock_home.rglob("*.jar") if "marco" in jar.name.lower()], (
        "a MaRCO jar is left in the stock installation"
    )
    # A MaRCO class (MarcoShuffle, MarcoMRAppMaster, ...) or key; not a path that happens to
    # contain the project's name.
    marco_setting = re.compile(r"\bMarco[A-Z]|mapreduce\.marco\.")
    for site in cluster.conf_dir.glob("*-site.xml"):
        for name, value in read_properties(site).items():
            assert not marco_setting.search(f"{name}={value}"), (
                f"{site.name} sets {name}={value}: deploy.md must name every setting MaRCO adds"
            )


def test_step_1_the_engine_jar_alone_changes_no_job(
    stock_home, dist_home, cluster, job_jar, outputs, tmp_path
):
    # deploy.md: copy the engine jar to $HADOOP_MAPRED_HOME/share/hadoop/mapreduce/.
    shutil.copy(
        marco_jar(dist_home, "hadoop-mapreduce-client-marco"), stock_home / "share/hadoop/mapreduce"
    )
    job = word_count(cluster, job_jar, outputs, "stock", tmp_path)
    assert_stock_shuffle(job)
    assert counter_from_mapred_job(cluster, job.job_id, "INVOCATIONS") == 0


def test_step_2_per_job_property_runs_marco_with_the_same_output(
    cluster, job_jar, outputs, tmp_path
):
    job = word_count(
        cluster,
        job_jar,
        outputs,
        "per-job",
        tmp_path,
        f"-D{PLUGIN_KEY}={MARCO_SHUFFLE}",
        # On one quiet machine the last map output often arrives within milliseconds of an
        # invocation's start, when the default would abandon it: keep the check deterministic.
        "-Dmapreduce.marco.finish.all.at.shuffle.end=true",
    )
    assert_partial_work_in_every_reduce(job)
    assert counter_from_mapred_job(cluster, job.job_id, "INVOCATIONS") > 0
    assert outputs["per-job"] == outputs["stock"]
    logs = aggregated_logs(cluster, job.job_id)
    # deploy.md's reduce log check: each of the 2 reduces logs its start, budget and end.
    for line in ("MaRCO shuffle consumer started for attempt_", "MaRCO merge manager for "):
        assert logs.count(line) == 2, f"expected '{line}' once per reduce in:\n{logs[-5000:]}"
    assert len(re.findall(r"MaRCO shuffle of \S+ done: ", logs)) == 2, logs[-5000:]


def test_step_2_cluster_wide_with_the_appmaster_hook(
    stock_home, dist_home, cluster, job_jar, outputs, tmp_path
):
    shutil.copy(
        marco_jar(dist_home, "hadoop-mapreduce-client-marco-app"),
        stock_home / "share/hadoop/mapreduce",
    )
    mapred_site = cluster.conf_dir / "mapred-site.xml"
    am_opts = read_properties(mapred_site)[AM_OPTS_KEY]
    set_properties(
        mapred_site, {PLUGIN_KEY: MARCO_SHUFFLE, AM_OPTS_KEY: f"{am_opts} {MARCO_APPMASTER}"}
    )
    job = word_count(cluster, job_jar, outputs, "cluster-wide", tmp_path)
    assert_marco_shuffle(job)
    assert outputs["cluster-wide"] == outputs["stock"]
    logs = aggregated_logs(cluster, job.job_id)
    assert "MarcoMRAppMaster starting: hadoop-marco " in logs, logs[-5000:]


def test_step_5_roll_back_per_job_then_cluster_wide(
    stock_home, cluster, job_jar, outputs, tmp_path
):
    job = word_count(
        cluster, job_jar, outputs, "per-job-stock", tmp_path, f"-D{PLUGIN_KEY}={STOCK_SHUFFLE}"
    )
    assert_stock_shuffle(job)
    assert outputs["per-job-stock"] == outputs["stock"]

    # Cluster-wide: the two properties back to stock Hadoop's (no plugin property: Hadoop's
    # default is its own shuffle, as in step 1), then the jars out.
    mapred_site = cluster.conf_dir / "mapred-site.xml"
    am_opts = read_properties(mapred_site)[AM_OPTS_KEY]
    remove_properties(mapred_site, [PLUGIN_KEY])
    set_properties(mapred_site, {AM_OPTS_KEY: am_opts.replace(" " + MARCO_APPMASTER, "")})
    for jar in (stock_home / "share/hadoop/mapreduce").glob("hadoop-mapreduce-client-marco*.jar"):
        jar.unlink()
    # The cluster runs MapReduce jobs with no MaRCO class anywhere (distcp: Hadoop's own job),
    # under Hadoop's own AppMaster.
    copy = cluster.run("hadoop", "distcp", INPUT, "/user/deploy/after-rollback")
    log = copy.stdout + copy.stderr
    assert "completed successfully" in log, log
    assert "MarcoMRAppMaster" not in aggregated_logs(cluster, job_id_of(log))
