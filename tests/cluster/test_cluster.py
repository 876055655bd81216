# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""The slow end-to-end check: a real 4-worker cluster in network namespaces, shaped to 50 Mbit/s
between 2 groups; verify measures the shaping; the same shuffle-heavy job runs with the stock
shuffle and with MaRCO and must produce byte-identical output, the stock run through Hadoop's
shuffle and every MaRCO reduce with partial work; reduce staggering keeps to k reduces per node
while maps run; stop must leave nothing behind.

Timings of start, verify, each job and stop are written to build-logs/cluster-timings.json (if the
directory exists) so they can be quoted.
"""

import json
import random
import re
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from conftest import DIST, MARCO_CLUSTER, REPO, SHAPE, VERIFY, assert_nothing_left, run
from job_history import fetch as fetch_job_history
from job_history import job_id_of
from marco_counters import assert_partial_work_in_every_reduce, assert_stock_shuffle

WORKERS = 4
GROUPS = 2
RATE_MBIT = 50
STOCK_SHUFFLE = "org.apache.hadoop.mapreduce.task.reduce.Shuffle"
MARCO_SHUFFLE = "org.apache.hadoop.mapreduce.task.reduce.MarcoShuffle"
# Every job leaves its history, as JSON, here (not where the history server looks, so it stays).
HISTORY_DIR = "/job-history"
# 4 maps would run no partial invocation: none starts once the stop fraction (1.0: all) of the map
# outputs has arrived, and the first needs 4 waiting. Half-MiB splits give each input file 4 maps.
MANY_MAPS = "mapreduce.input.fileinputformat.split.maxsize=524288"
# For the checks of partial work: every invocation still running at shuffle end finishes. By
# default one that has read little of its input is abandoned as not worth the wait, which on a
# fast link can catch a reduce's only invocation.
KEEP_INVOCATIONS = "mapreduce.marco.finish.all.at.shuffle.end=true"
TIMINGS = {}


def record(name, started):
    TIMINGS[name] = round(time.monotonic() - started, 1)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    if not (DIST / "bin" / "hadoop").exists():
        pytest.fail(f"no distribution at {DIST}: run ./build.sh dist first (or set MARCO_DIST)")
    state = tmp_path_factory.mktemp("marco-cluster")
    started = time.monotonic()
    try:
        run(
            [
                MARCO_CLUSTER,
                "start",
                "--workers",
                WORKERS,
                "--groups",
                GROUPS,
                "--dist",
                DIST,
                "--state-dir",
                state,
                "--timeout",
                600,
                "--class-archive",
            ],
            timeout=900,
        )
        record("start_s", started)
        yield state
    finally:
        started = time.monotonic()
        run([MARCO_CLUSTER, "stop", "--state-dir", state], timeout=300)
        record("stop_s", started)
        logs = REPO / "build-logs"
        if logs.is_dir():
            (logs / "cluster-timings.json").write_text(json.dumps(TIMINGS, indent=2) + "\n")
    assert_nothing_left(state)


def client(state, *args, timeout=900, check=True):
    return run([MARCO_CLUSTER, "client", "--state-dir", state, *args], timeout=timeout, check=check)


def test_status_shows_every_daemon_running(cluster):
    out = run([MARCO_CLUSTER, "status", "--state-dir", cluster]).stdout
    assert re.search(
        r"master .*namenode: running .*resourcemanager: running .*historyserver: running", out
    ), out
    for i in range(1, WORKERS + 1):
        assert re.search(rf"w{i} .*datanode: running .*nodemanager: running", out), out
    assert f"HDFS live DataNodes: {WORKERS}/{WORKERS}" in out
    assert f"YARN running NodeManagers: {WORKERS + 1}/{WORKERS + 1}" in out
    assert re.search(r"master .*nodemanager: running", out), out


def test_logs_lists_and_prints_daemon_logs(cluster):
    listing = run([MARCO_CLUSTER, "logs", "--state-dir", cluster]).stdout
    assert "hadoop-root-namenode-master.log" in listing and "hadoop-root-datanode-w4.log" in listing
    log = run([MARCO_CLUSTER, "logs", "--state-dir", cluster, "w1", "datanode"]).stdout
    assert "STARTUP_MSG: Starting DataNode" in log
    bad = run([MARCO_CLUSTER, "logs", "--state-dir", cluster, "w9"], check=False)
    assert bad.returncode == 2 and "no node 'w9'" in bad.stderr


def test_client_reaches_hdfs_and_yarn(cluster):
    nodes = client(cluster, "yarn", "node", "-list", "-showDetails").stdout
    assert f"Total Nodes:{WORKERS + 1}" in nodes
    for i in range(1, WORKERS + 1):
        assert re.search(rf"^\s*w{i}:\d+\s+RUNNING", nodes, re.M), nodes
    # the master's NodeManager is the AppMasters' exclusive partition; the workers have no label
    labels = dict(re.findall(r"^\s*(\S+):\d+\s+RUNNING.*?Node-Labels : *(\S*)", nodes, re.M | re.S))
    assert labels == {"master": "appmaster", **{f"w{i}": "" for i in range(1, WORKERS + 1)}}, nodes


def test_shaping_holds_50_mbit_between_groups(cluster, tmp_path):
    run([SHAPE, "--state-dir", cluster, "--groups", GROUPS, "--rate", RATE_MBIT])
    started = time.monotonic()
    report = tmp_path / "verify.json"
    result = run([VERIFY, "--state-dir", cluster, "--seconds", 4, "--json", report])
    record("verify_s", started)
    print(result.stdout)
    links = json.loads(report.read_text())["links"]
    shaped = [link for link in links if link["shaped"]]
    assert len(shaped) == GROUPS * (GROUPS - 1)
    for link in shaped:
        assert abs(link["mbit"] - RATE_MBIT) <= 0.1 * RATE_MBIT, link
    for link in links:
        if not link["shaped"]:
            assert link["mbit"] >= 2 * RATE_MBIT, link
    TIMINGS["verify_matrix"] = result.stdout


def write_input(directory, files=4, lines=20000, vocabulary=50000):
    """Words drawn uniformly from a large vocabulary: the combiner removes little, so the shuffle
    carries most of the map output across the shaped links."""
    rng = random.Random(20091)
    words = [f"w{i:05d}" for i in range(vocabulary)]
    paths = []
    for f in range(files):
        path = directory / f"part-{f}.txt"
        with path.open("w") as out:
            for _ in range(lines):
                out.write(" ".join(rng.choice(words) for _ in range(12)) + "\n")
        paths.append(path)
    return paths, files * lines * 12


@pytest.fixture(scope="module")
def word_input(cluster, tmp_path_factory):
    """The words in HDFS under /input; returns how many there are."""
    paths, total_words = write_input(tmp_path_factory.mktemp("words"))
    client(cluster, "hdfs", "dfs", "-mkdir", "-p", "/input")
    client(cluster, "hdfs", "dfs", "-put", *paths, "/input")
    return total_words


@pytest.fixture(scope="module")
def jar():
    jars = sorted((DIST / "share" / "hadoop" / "mapreduce").glob("hadoop-marco-benchmarks-*.jar"))
    assert jars, f"no benchmarks jar in {DIST}/share/hadoop/mapreduce"
    return jars[-1]


def wordcount(state, jar, shuffle, output, *settings, reduces=4):
    started = time.monotonic()
    options = [
        f"mapreduce.job.reduces={reduces}",
        f"mapreduce.job.reduce.shuffle.consumer.plugin.class={shuffle}",
        "mapreduce.jobhistory.jhist.format=json",
        f"mapreduce.jobhistory.intermediate-done-dir={HISTORY_DIR}",
        *settings,
    ]
    result = client(
        state,
        "hadoop",
        "jar",
        jar,
        "wordcount",
        *[a for o in options for a in ("-D", o)],
        "/input",
        output,
    )
    record(f"job_{shuffle.rsplit('.', 1)[1]}_{output.strip('/')}_s", started)
    return result.stderr


def read_output(state, output):
    return client(state, "hdfs", "dfs", "-cat", f"{output}/part-*").stdout


def test_stock_and_marco_give_identical_output_under_shaping(cluster, word_input, jar, tmp_path):
    stock_log = wordcount(cluster, jar, STOCK_SHUFFLE, "/out-stock", MANY_MAPS)
    marco_log = wordcount(cluster, jar, MARCO_SHUFFLE, "/out-marco", MANY_MAPS, KEEP_INVOCATIONS)
    # Each run went through the shuffle it names, and every MaRCO reduce did partial work.
    assert_stock_shuffle(job_history(cluster, stock_log, tmp_path))
    marco = job_history(cluster, marco_log, tmp_path)
    assert len(marco.map_finishes) >= 12, f"{len(marco.map_finishes)} maps"
    assert_partial_work_in_every_reduce(marco)
    # the cluster's mapred-site.xml does not put a MaRCO reduce's whole JVM in mc-shuffle
    reduce_logs = marco_reduce_logs(cluster, marco_log)
    assert len(reduce_logs) == 4, f"{len(reduce_logs)} MaRCO reduce logs"
    assert not [text for text in reduce_logs if "mc-shuffle" in text], "a reduce tried mc-shuffle"

    stock = read_output(cluster, "/out-stock")
    assert stock == read_output(cluster, "/out-marco"), (
        "MaRCO's output differs from the stock shuffle's"
    )
    counts = [int(line.split("\t")[1]) for line in stock.splitlines()]
    assert sum(counts) == word_input and len(counts) == 50000


def test_scratch_files_stay_in_the_state_dir(cluster, word_input, jar):
    # Hadoop puts the ResourceManager's node-attribute store and the local job runner's staging
    # area (data generation in the client JVM) under /tmp outside hadoop.tmp.dir by default.
    assert (cluster / "nodes/master/tmp/node-attribute/nodeattribute.mirror").is_file()
    staging = cluster / "client/tmp/mapred/staging"
    assert not staging.exists()
    wordcount(
        cluster, jar, STOCK_SHUFFLE, "/out-local", "mapreduce.framework.name=local", reduces=1
    )
    assert staging.is_dir() and any(staging.iterdir()), "the local job runner staged elsewhere"


def test_am_and_task_jvms_map_the_class_archive(cluster, word_input, jar):
    """--class-archive: every JVM of a job, AM and tasks, takes its main class (a Hadoop class, so
    not from the JDK's own archive) from the archive dumped at start."""
    logging = "-Xlog:class+load=info"
    log = wordcount(
        cluster,
        jar,
        MARCO_SHUFFLE,
        "/out-class-archive",
        f"mapreduce.map.java.opts={logging}",
        f"mapreduce.reduce.java.opts={logging}",
        f"yarn.app.mapreduce.am.command-opts=-Xmx768m {logging} "
        "org.apache.hadoop.mapreduce.v2.app.MarcoMRAppMaster",
    )
    app = "application_" + re.search(r"Running job: job_(\d+_\d+)", log).group(1)
    stdouts = sorted(cluster.glob(f"nodes/*/logs/userlogs/{app}/*/stdout"))
    mains = Counter()
    for stdout in stdouts:
        node = stdout.relative_to(cluster / "nodes").parts[0]
        text = stdout.read_text()
        main = re.search(
            r"\] (org\.apache\.hadoop\.\S+(?:YarnChild|MarcoMRAppMaster)) source: (.*)$", text, re.M
        )
        if not main:
            continue  # a container the AM released and killed before its JVM got that far
        assert main.group(2).startswith("shared objects file"), (
            f"{stdout}: {main.group(1)} was loaded from {main.group(2)}, not from the class archive"
        )
        kind = main.group(1).rsplit(".", 1)[1]
        # the AppMaster on the master's NodeManager (its node-label partition), tasks on workers
        assert (node == "master") == (kind == "MarcoMRAppMaster"), f"{kind} ran on {node}"
        mains[kind] += 1
    # the AM, and at least a map per input file and the 4 reduces
    assert mains["MarcoMRAppMaster"] == 1 and mains["YarnChild"] >= 4 + 4, mains


def marco_reduce_logs(state, log):
    """The syslog.shuffle (where Hadoop logs package ...task.reduce) of each MaRCO reduce of the
    job the client log names."""
    app = "application_" + re.search(r"Running job: job_(\d+_\d+)", log).group(1)
    logs = [p.read_text() for p in state.glob(f"nodes/w*/logs/userlogs/{app}/*/syslog.shuffle")]
    return [text for text in logs if "MaRCO merge manager" in text]


REDUCE_ATTEMPT = re.compile(rb"attempt_\d+_\d+_r_\d+_\d+")
YARN_CHILD = b"org.apache.hadoop.mapred.YarnChild"


class ReduceCgroupSampler(threading.Thread):
    """Over and over until done, the cpu cgroup of every reduce JVM on the machine as the kernel
    reports it: the cpu line of /proc/<pid>/cgroup (its main thread's), and whether the pid is in
    the shuffle cgroup's cgroup.procs. A sample is (epoch ms before its reads, epoch ms after
    them, attempt id, cgroup path, listed in cgroup.procs): what it read held at some moment
    between the two, however long the machine took to run the sampler."""

    def __init__(self, shuffle_cgroup):
        super().__init__(daemon=True)
        self.procs = Path(shuffle_cgroup) / "cgroup.procs"
        self.samples = []
        self.done = threading.Event()

    @staticmethod
    def cpu_cgroup(pid):
        for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            if "cpu" in controllers.split(","):
                return path
        return None

    def sample(self):
        before = time.time() * 1000
        listed = set(self.procs.read_text().split())
        # attempt -> (start time, pid) of the task JVM: a process the JVM forks (Hadoop's shell
        # commands) has the same command line until it execs, and the cgroup of its thread
        found = {}
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            try:
                cmdline = (proc / "cmdline").read_bytes()
                argv = cmdline.split(b"\0")
                # the task JVM itself, not the container's launch shell around it
                if argv[0].rsplit(b"/", 1)[-1] != b"java" or YARN_CHILD not in argv:
                    continue
                attempt = REDUCE_ATTEMPT.search(cmdline)
                if attempt:
                    # field 22 of stat, the start time; fields count from 3 after the ")"
                    started = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[19])
                    key = attempt.group().decode()
                    here = (started, int(proc.name))
                    found[key] = min(found.get(key, here), here)
            except (FileNotFoundError, ProcessLookupError):
                continue  # the process ended while being read
        read = []
        for attempt, (_, pid) in found.items():
            try:
                read.append((attempt, self.cpu_cgroup(pid), str(pid) in listed))
            except (FileNotFoundError, ProcessLookupError):
                continue
        after = time.time() * 1000
        self.samples.extend((before, after, *sample) for sample in read)

    def run(self):
        # The pause only spares the CPU: no assertion depends on how often samples come.
        while not self.done.wait(0.05):
            self.sample()


def test_marco_reduces_shuffle_and_partial_threads_run_in_the_low_share_cpu_cgroups(
    cluster, word_input, jar, tmp_path
):
    """Every container has a scheduling group of its own (its session's autogroup), in which alone
    nice ranks threads; so the cluster gives MaRCO's partial threads a machine-wide cpu cgroup at
    the lowest share, and makes one for shuffling reduces that a job opts in to. With it, read
    from the kernel (/proc and the cgroup's cgroup.procs) while the job runs: a reduce started
    during the map phase is in mc-shuffle then, and out of it once its shuffle has ended (its
    final merge and reduce run at the container's share). The reduce logs say the same, and the
    partial threads joined mc-partial."""
    cgroup = "/sys/fs/cgroup/cpu/mc-partial"
    shuffle_cgroup = "/sys/fs/cgroup/cpu/mc-shuffle"
    assert open(f"{cgroup}/cpu.shares").read().strip() == "2"
    assert open(f"{shuffle_cgroup}/cpu.shares").read().strip() == "128"
    sampler = ReduceCgroupSampler(shuffle_cgroup)
    sampler.start()
    try:
        # many maps: a map phase long enough for early reduces, and partial invocations
        log = wordcount(
            cluster,
            jar,
            MARCO_SHUFFLE,
            "/out-partial-cgroup",
            MANY_MAPS,
            f"mapreduce.marco.shuffle.cpu.cgroup={shuffle_cgroup}",
        )
    finally:
        sampler.done.set()
        sampler.join()
    history = job_history(cluster, log, tmp_path)
    map_phase_end = max(history.map_finishes)
    shuffle_end = {r.attempt: r.shuffle_end for r in history.reduces}
    # attempt -> [(ms before the reads, ms after them, in mc-shuffle by /proc, listed in its
    # cgroup.procs)]
    seen = {}
    for before, after, attempt, path, listed in sampler.samples:
        if attempt in shuffle_end:
            seen.setdefault(attempt, []).append((before, after, path == "/mc-shuffle", listed))
    joined_during_maps, after_shuffle = [], 0
    for attempt, samples in seen.items():
        # A JVM starts in its container's cgroup, joins mc-shuffle once, and leaves it once.
        trace = "".join("S" if in_shuffle else "-" for _, _, in_shuffle, _ in samples)
        assert re.fullmatch(r"-*S*-*", trace), f"{attempt} moved more than once: {trace}"
        # Read in mc-shuffle, all of it before the last map finished.
        if any(in_shuffle and after < map_phase_end for _, after, in_shuffle, _ in samples):
            joined_during_maps.append(attempt)
            assert any(listed for _, _, _, listed in samples), f"{attempt}: not in cgroup.procs"
        # The reduce leaves mc-shuffle inside the shuffle plugin's run(), before the task stamps
        # the end of its shuffle (the history's shuffle end) on the same machine's clock: a
        # sample whose reads all came after that stamp (1 ms: the stamp is in whole ms) must
        # find it out, whatever the scheduling.
        late = [s for s in samples if s[0] > shuffle_end[attempt] + 1]
        assert not any(in_shuffle for _, _, in_shuffle, _ in late), (
            f"{attempt} was still in mc-shuffle after its shuffle ended: {trace}"
        )
        after_shuffle += len(late)
    assert joined_during_maps, "no reduce JVM was seen in mc-shuffle while the maps ran"
    assert after_shuffle, "no reduce JVM was seen after its shuffle ended"
    TIMINGS["shuffle_cgroup_samples"] = {
        "reduces_in_it_during_maps": len(joined_during_maps),
        "after_shuffle": after_shuffle,
    }

    reduce_logs = marco_reduce_logs(cluster, log)
    assert len(reduce_logs) == 4, f"{len(reduce_logs)} MaRCO reduce logs"
    for text in reduce_logs:
        assert f"joined cpu cgroup {shuffle_cgroup} for the shuffle" in text, text[-3000:]
        assert "back in cpu cgroup /sys/fs/cgroup/cpu for the final merge" in text, text[-3000:]
    with_partial_threads = [text for text in reduce_logs if "[MaRCO partial " in text]
    assert with_partial_threads, "no reduce ran a partial invocation"
    for text in with_partial_threads:
        assert f"joined cpu cgroup {cgroup}" in text and "cannot join" not in text, text[-3000:]


def job_history(state, log, local_dir):
    """The job history of the job the client log names (harness.history.JobHistory)."""
    return fetch_job_history(
        lambda *args: client(state, "hdfs", *args, check=False),
        job_id_of(log),
        [HISTORY_DIR],
        local_dir,
    )


def test_staggering_starts_at_most_k_reduces_per_node_while_maps_run(
    cluster, word_input, jar, tmp_path
):
    """Reduce staggering on the real cluster through the distribution's default AppMaster
    (MarcoMRAppMaster): a MaRCO job starts reduces while maps run, but at most k = 1 per node (there
    is room for several); the others start once the map phase is over. Output equals stock's."""
    reduces = 2 * WORKERS
    # many maps: a longer map phase, and partial work in every reduce
    stock_log = wordcount(
        cluster, jar, STOCK_SHUFFLE, "/out-stagger-stock", MANY_MAPS, reduces=reduces
    )
    marco_log = wordcount(
        cluster,
        jar,
        MARCO_SHUFFLE,
        "/out-stagger-marco",
        MANY_MAPS,
        KEEP_INVOCATIONS,
        reduces=reduces,
    )
    assert read_output(cluster, "/out-stagger-stock") == read_output(cluster, "/out-stagger-marco")
    assert_stock_shuffle(job_history(cluster, stock_log, tmp_path))

    marco = job_history(cluster, marco_log, tmp_path)
    assert len(marco.map_finishes) >= 12 and len(marco.reduces) == reduces
    assert_partial_work_in_every_reduce(marco)
    map_phase_end = max(marco.map_finishes)
    early = Counter(r.host for r in marco.reduces if r.start < map_phase_end)
    TIMINGS["staggering_early_reduces_per_node"] = dict(early)
    assert early, "no reduce started while maps ran: early reduce start is off"
    assert max(early.values()) <= 1, f"more than k=1 reduce per node while maps ran: {dict(early)}"


def advise(state, *args):
    """`mapred marco-advise ARGS --json` on the cluster's client; returns its JSON."""
    result = client(state, "mapred", "marco-advise", *args, "--json")
    return json.loads(result.stdout)


def assert_sane_advice(advice, job_id):
    [job] = [j for j in advice["jobs"] if j["id"] == job_id]
    assert job["state"] == "SUCCEEDED" and job["not_applicable"] is None, job
    assert not job["marco_counters"], "a stock run has no MaRCO counters"
    assert job["maps"] == 4 and job["reduces"] == 2, job
    phases = job["breakdown_s"]
    assert all(v >= 0 for v in phases.values()), phases
    total = sum(v for k, v in phases.items() if k != "job")
    assert total == pytest.approx((job["finish_ms"] - job["submit_ms"]) / 1000, abs=1e-3)
    assert phases["map"] > 0 and phases["exposed_shuffle"] >= 0, phases
    assert job["predicted"]["speedup"] >= 1.0, job["predicted"]
    # The benchmarks' word count declares its sum reducer as the partial reducer.
    assert job["partial_reducer"]["kind"] == "declared", job["partial_reducer"]
    assert job["partial_reducer"]["class"].endswith("WordCount$SumReducer"), job["partial_reducer"]
    return job


def test_the_advisor_reads_a_stock_jobs_history_from_hdfs_and_the_history_server(
    cluster, word_input, jar
):
    """One small stock job, its history in HDFS: the advisor reads it from the history directory
    (recursively, on HDFS), and another from the JobHistoryServer's REST API, whose lists of one
    item (one job, one attempt, one counter) Hadoop 3.5 writes as the item alone."""
    log = wordcount(cluster, jar, STOCK_SHUFFLE, "/out-advise", reduces=2)
    job_id = job_id_of(log)
    from_files = assert_sane_advice(advise(cluster, f"hdfs://{HISTORY_DIR}"), job_id)
    # The JobHistoryServer lists a job only from its own history directories; run a second,
    # identical job that leaves its history there.
    log = client(
        cluster,
        "hadoop",
        "jar",
        jar,
        "wordcount",
        "-D",
        "mapreduce.job.reduces=2",
        "-D",
        f"mapreduce.job.reduce.shuffle.consumer.plugin.class={STOCK_SHUFFLE}",
        "/input",
        "/out-advise-jhs",
    ).stderr
    served_id = job_id_of(log)
    # The server lists a finished job once it has seen its intermediate directory (at the latest
    # after mapreduce.jobhistory.move.interval-ms, 3 minutes by default).
    deadline = time.monotonic() + 300
    while True:
        served = advise(cluster, "--history-server", "http://master:19888", "--name", "count")
        if any(j["id"] == served_id for j in served["jobs"]) or time.monotonic() > deadline:
            break
        time.sleep(5)
    from_server = assert_sane_advice(served, served_id)
    assert from_server["source"].startswith("http://master:19888/ws/v1/history/mapreduce/jobs/")
    assert from_files["source"].endswith(".jhist")
    help_text = client(cluster, "mapred", "marco-advise", "--help").stdout
    assert "--history-server URL" in help_text
