# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Pseudo-distributed smoke run of the built distribution on loopback: format HDFS, start the five
daemons, run the benchmarks jar's wordcount through YARN with MaRCO as the shuffle consumer (the
distribution's default), check the output and that every reduce did partial work, stop every
daemon, and check no process is left. The tests in this file share one cluster and run in file
order. (Stock-vs-MaRCO byte identity is the mini-cluster differential tests' job; ./run-main.sh
also shows it.)"""

import pytest
from job_history import job_id_of
from marco_counters import assert_partial_work_in_every_reduce
from pseudo_cluster import DAEMONS, daemon_alive, started_cluster
from word_input import counter_group, parse_word_counts, write_word_files

# One map per file. 12, not fewer: no invocation starts once the stop fraction (1.0: all) of the map
# outputs has arrived, and the first needs 4 waiting map outputs, so 4 maps would run none.
INPUT_FILES = 12
LINES_PER_FILE = 1000


@pytest.fixture(scope="module")
def cluster(dist_home, tmp_path_factory):
    with started_cluster(dist_home, tmp_path_factory.mktemp("pseudo-cluster")) as cluster:
        yield cluster


@pytest.fixture(scope="module")
def input_dir(cluster, tmp_path_factory):
    """Several input files (one map each) of Zipf-ish random words; returns (HDFS dir, counts)."""
    local = tmp_path_factory.mktemp("wordcount-input")
    expected = write_word_files(local, INPUT_FILES, LINES_PER_FILE)
    cluster.run("hdfs", "dfs", "-mkdir", "-p", "/user/smoke")
    cluster.run("hdfs", "dfs", "-put", local, "/user/smoke/in")
    return "/user/smoke/in", expected


def test_all_five_daemons_run(cluster):
    for launcher, daemon in DAEMONS:
        status = cluster.run(launcher, "--daemon", "status", daemon)
        assert f"{daemon} is running as process {cluster.pid_of(daemon)}" in status.stdout


def test_starting_a_running_daemon_says_so_and_starts_no_second(cluster):
    before = cluster.pid_of("namenode")
    result = cluster.run("hdfs", "--daemon", "start", "namenode")
    assert f"namenode is already running as process {before}" in result.stdout
    assert cluster.pid_of("namenode") == before
    again = cluster.run_script("start-all.sh")
    assert again.stdout.count("already running") == len(DAEMONS)


def read_word_counts(cluster, output_dir):
    return parse_word_counts(cluster.run("hdfs", "dfs", "-cat", f"{output_dir}/part-r-*").stdout)


def test_wordcount_runs_through_yarn_with_marco_shuffle(cluster, input_dir, dist_home, tmp_path):
    hdfs_input, expected = input_dir
    benchmarks_jar = next(
        (dist_home / "share/hadoop/mapreduce").glob("hadoop-marco-benchmarks-*.jar")
    )
    # Every running invocation finishes at shuffle end: on one quiet machine the last map output
    # often arrives within milliseconds of an invocation's start, when the default would abandon it.
    job = cluster.run(
        "hadoop",
        "jar",
        benchmarks_jar,
        "wordcount",
        "-Dmapreduce.job.reduces=2",
        "-Dmapreduce.marco.finish.all.at.shuffle.end=true",
        hdfs_input,
        "/user/smoke/out-marco",
    )
    log = job.stdout + job.stderr
    assert "completed successfully" in log, log
    # The job client prints every counter group by display name; the MaRCO group exists only
    # when the reduces ran the MaRCO shuffle consumer, and its final merge is always counted.
    marco = counter_group(log, "MaRCO")
    assert "Final merge (ms)" in marco, f"no MaRCO counter group:\n{log}"
    assert read_word_counts(cluster, "/user/smoke/out-marco") == dict(expected)

    # The history server holds the finished job, and its counters show the same group.
    job_id = job_id_of(log)
    status = cluster.run("mapred", "job", "-status", job_id)
    assert "MaRCO" in status.stdout, status.stdout

    # Each reduce, not just the job as a whole, ran partial invocations that reduced the data.
    history = cluster.job_history(job_id, tmp_path)
    assert len(history.map_finishes) == INPUT_FILES and len(history.reduces) == 2
    assert_partial_work_in_every_reduce(history)


def test_distcp_copies_a_directory_with_a_mapreduce_job(cluster, input_dir):
    hdfs_input, _ = input_dir
    job = cluster.run("hadoop", "distcp", hdfs_input, "/user/smoke/distcp-copy")
    assert "completed successfully" in job.stdout + job.stderr, job.stdout + job.stderr
    listing = cluster.run("hdfs", "dfs", "-ls", "/user/smoke/distcp-copy").stdout
    assert listing.count("/user/smoke/distcp-copy/") == INPUT_FILES, listing
    assert (
        cluster.run("hdfs", "dfs", "-cat", "/user/smoke/distcp-copy/*").stdout
        == cluster.run("hdfs", "dfs", "-cat", f"{hdfs_input}/*").stdout
    )


def test_bad_marco_value_fails_the_job_at_once_through_the_default_appmaster(
    cluster, input_dir, dist_home
):
    """The distribution's AppMaster is MarcoMRAppMaster: it checks the job's mapreduce.marco.*
    values when it creates the job and fails it before any task runs (Hadoop's own AppMaster
    would run and retry every reduce attempt)."""
    hdfs_input, _ = input_dir
    benchmarks_jar = next(
        (dist_home / "share/hadoop/mapreduce").glob("hadoop-marco-benchmarks-*.jar")
    )
    job = cluster.run(
        "hadoop",
        "jar",
        benchmarks_jar,
        "wordcount",
        "-Dmapreduce.job.reduces=2",
        "-Dmapreduce.marco.stop.fraction=1.5",
        hdfs_input,
        "/user/smoke/out-bad",
        check=False,
    )
    log = job.stdout + job.stderr
    assert job.returncode != 0, log
    assert (
        "MaRCO configuration error: Invalid value '1.5' for mapreduce.marco.stop.fraction" in log
    ), log
    assert "Launched map tasks" not in log and "Launched reduce tasks" not in log, log
    assert (
        cluster.run(
            "hdfs", "dfs", "-test", "-e", "/user/smoke/out-bad/_SUCCESS", check=False
        ).returncode
        != 0
    )


def test_stop_all_leaves_no_process_and_is_idempotent(cluster):
    pids = cluster.started_pids()
    assert len(pids) == len(DAEMONS)
    cluster.run_script("stop-all.sh")
    left = {daemon: pid for daemon, pid in pids.items() if daemon_alive(pid, daemon)}
    assert not left, f"still running after stop-all.sh: {left}"
    assert cluster.started_pids() == {}, "stop-all.sh must remove the pid files"
    again = cluster.run_script("stop-all.sh")
    assert again.stdout.count("to stop") == len(DAEMONS)
