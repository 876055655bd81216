# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Fast checks of the cluster and shaping scripts: bad input, idempotent stop, the network alone
(--network-only) with shaping in both modes, hadoop_conf.py, and the compose file."""

import ipaddress
import json
import os
import shutil
import subprocess
import textwrap
import xml.etree.ElementTree as ET

import pytest
import yaml
from conftest import (
    DIST,
    MARCO_CLUSTER,
    REPO,
    SHAPE,
    VERIFY,
    assert_nothing_left,
    our_namespaces,
    run,
)

RECORD_CLASS_LIST = REPO / "cluster" / "record-class-list"


def test_shape_dry_run_prints_the_commands_and_changes_nothing_without_root():
    """--dry-run on a real host's device: the tc and ip commands, in order, as a shell would run
    them; run as nobody, so it needs no root; lo keeps its qdisc and no IFB device appears."""
    before = run(["tc", "qdisc", "show", "dev", "lo"]).stdout
    result = run(
        ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", SHAPE, "--dev", "lo",
         "--group-subnets", "10.0.1.0/24,10.0.2.0/24+10.0.3.0/25", "--my-group", "1",
         "--rate", "50", "--dry-run"]
    )  # fmt: skip
    lines = result.stdout.splitlines()
    assert lines[0] == "tc qdisc add dev lo root handle 4d43: htb default 10"
    assert (
        "tc class add dev lo parent 4d43: classid 4d43:20 htb rate 52280kbit burst 15k "
        "cburst 15k quantum 1514" in lines
    )
    for cidr in ("10.0.2.0/24", "10.0.3.0/25"):
        assert (
            f"tc filter add dev lo parent 4d43: protocol ip prio 2 u32 match ip dst {cidr} "
            "flowid 4d43:20" in lines
        )
        assert (
            f"tc filter add dev mcifb0 parent 4d43: protocol ip prio 2 u32 match ip src {cidr} "
            "flowid 4d43:20" in lines
        )
    assert "ip link add mcifb0 type ifb" in lines
    assert not any("10.0.1.0/24" in line for line in lines[:-1]), "own group must not be shaped"
    assert lines[-1].startswith("dry run: nothing changed")
    assert run(["tc", "qdisc", "show", "dev", "lo"]).stdout == before
    assert run(["ip", "link", "show", "mcifb0"], check=False).returncode != 0


@pytest.mark.parametrize("script", [MARCO_CLUSTER, SHAPE, VERIFY, RECORD_CLASS_LIST])
def test_help(script):
    out = run([script, "--help"]).stdout
    assert out.startswith("usage:"), out


def test_record_class_list_needs_a_running_cluster_and_keeps_the_list(tmp_path):
    assert "unknown option '--bogus'" in run([RECORD_CLASS_LIST, "--bogus"], check=False).stderr
    out = tmp_path / "classes.lst"
    out.write_text("kept\n")
    result = run([RECORD_CLASS_LIST, "--out", out], check=False)
    assert result.returncode == 2 and "not up" in result.stderr, result
    assert out.read_text() == "kept\n"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--workers", "1"], "--workers must be a whole number from 2 to 8, not '1'"),
        (["--workers", "99"], "--workers must be a whole number from 2 to 8, not '99'"),
        (["--workers", "four"], "--workers must be a whole number from 2 to 8, not 'four'"),
        (
            ["--groups", "5"],
            "--groups must be a whole number from 1 to the number of workers (4), not '5'",
        ),
        (["--rate", "50", "--groups", "1"], "--rate needs at least 2 groups"),
        (["--cpu-per-worker", "lots"], "--cpu-per-worker must be a number of CPUs"),
        (["--mem-per-worker", "1g"], "--mem-per-worker must be a size of at least 1536m"),
        (["--workers"], "option --workers needs a value"),
        (["--bogus"], "unknown option '--bogus' for start"),
        (["--dist", "/nonexistent"], "no hadoop-marco distribution at /nonexistent"),
    ],
)
def test_start_rejects_bad_input(args, message, tmp_path):
    result = run([MARCO_CLUSTER, "start", "--state-dir", tmp_path / "state", *args], check=False)
    assert result.returncode == 2, result
    assert message in result.stderr
    assert "fix:" in result.stderr or "error:" in result.stderr
    assert our_namespaces() == [], "a rejected start must not create anything"


def test_unknown_command():
    result = run([MARCO_CLUSTER, "restart"], check=False)
    assert result.returncode == 2
    assert "unknown command 'restart'" in result.stderr


def test_stop_when_stopped_is_a_noop(tmp_path):
    first = run([MARCO_CLUSTER, "stop", "--state-dir", tmp_path])
    second = run([MARCO_CLUSTER, "stop", "--state-dir", tmp_path])
    assert "nothing to stop" in first.stdout and "nothing to stop" in second.stdout


def test_commands_that_need_a_cluster_say_so(tmp_path):
    for cmd in (
        [MARCO_CLUSTER, "status"],
        [MARCO_CLUSTER, "client", "hdfs", "dfs", "-ls", "/"],
        [SHAPE, "--rate", "50"],
        [VERIFY],
    ):
        result = run(
            [*cmd[:1], *cmd[1:2], "--state-dir", tmp_path, *cmd[2:]]
            if cmd[0] == MARCO_CLUSTER
            else [*cmd, "--state-dir", tmp_path],
            check=False,
        )
        assert result.returncode == 2, (cmd, result)
        assert (
            "no running marco-cluster" in result.stderr or "no cluster is running" in result.stderr
        ), result.stderr


def test_state_dir_of_someone_else_is_refused(tmp_path):
    (tmp_path / "precious.txt").write_text("not ours")
    result = run([MARCO_CLUSTER, "start", "--network-only", "--state-dir", tmp_path], check=False)
    assert result.returncode == 2
    assert "was not made by marco-cluster" in result.stderr
    assert (tmp_path / "precious.txt").read_text() == "not ours"


@pytest.fixture
def network(tmp_path):
    """A 4-worker network without Hadoop; stopped (and checked clean) afterwards, also on failure.
    start and stop take the same paths with Hadoop as without (the slow stage's cluster), so the
    checks of starting twice and stopping twice live here alone."""
    state = tmp_path / "state"
    run(
        [
            MARCO_CLUSTER,
            "start",
            "--network-only",
            "--workers",
            "4",
            "--groups",
            "2",
            "--cpu-per-worker",
            "0.5",
            "--mem-per-worker",
            "2g",
            "--state-dir",
            state,
        ]
    )
    try:
        yield state
    finally:
        run([MARCO_CLUSTER, "stop", "--state-dir", state])
        assert_nothing_left(state)
    # a second stop, after a real one, is a no-op
    assert "nothing to stop" in run([MARCO_CLUSTER, "stop", "--state-dir", state]).stdout


def test_network_names_resolve_both_ways_in_every_namespace(network):
    for node in ("master", "w1", "w4"):
        out = run(
            [
                "ip",
                "netns",
                "exec",
                f"mc-{node}",
                "unshare",
                "--uts",
                "sh",
                "-c",
                f"hostname {node}; hostname; getent hosts {node}; getent hosts 10.213.77.13",
            ]
        ).stdout.split("\n")
        assert out[0] == node
        assert out[1].split() == [
            {"master": "10.213.77.10", "w1": "10.213.77.11", "w4": "10.213.77.14"}[node],
            node,
        ]
        assert out[2].split() == ["10.213.77.13", "w3"]


def test_start_twice_says_running(network):
    result = run([MARCO_CLUSTER, "start", "--network-only", "--state-dir", network])
    assert "already running" in result.stdout


def test_cgroup_limits_are_set(network):
    assert open("/sys/fs/cgroup/cpu/mc-w1/cpu.cfs_quota_us").read().strip() == "50000"
    assert open("/sys/fs/cgroup/memory/mc-w2/memory.limit_in_bytes").read().strip() == str(
        2 * 1024**3
    )


def test_a_process_started_in_a_node_is_in_its_cgroups_and_sees_the_hierarchies(network):
    """dm_in_node, the daemons' launch wrapper: it joins the worker's cgroups before `ip netns
    exec` (whose fresh /sys hides them) and mounts the hierarchies again inside the node."""
    libs = source_libs("common", "topology", "cgroups", "daemons")
    probe = "hostname; cat /proc/self/cgroup; cat /sys/fs/cgroup/cpu/mc-w1/cpu.cfs_quota_us"
    out = run(["bash", "-c", f"{libs}dm_in_node w1 sh -c '{probe}'"]).stdout.splitlines()
    assert out[0] == "w1" and out[-1] == "50000", out
    groups = {
        c: line.split(":", 2)[2] for line in out[1:-1] for c in line.split(":", 2)[1].split(",")
    }
    assert groups["cpu"] == "/mc-w1" and groups["memory"] == "/mc-w1", out


def test_shape_clear_and_verify_four_groups(network, tmp_path):
    out = run([SHAPE, "--state-dir", network, "--groups", "4", "--rate", "25"]).stdout
    assert "tc 26140kbit" in out  # 25 * 1514 / 1448, rounded up
    shown = run([SHAPE, "show", "--state-dir", network]).stdout
    assert shown.count("rate 26140Kbit") == 8  # both ends of 4 workers' veths
    report = tmp_path / "verify.json"
    run([VERIFY, "--state-dir", network, "--seconds", "2", "--json", report])
    links = json.loads(report.read_text())["links"]
    assert len(links) == 12  # 4x3 shaped pairs; groups of one node have no within-group link
    assert all(link["shaped"] and abs(link["mbit"] - 25) <= 2.5 for link in links), links
    run([SHAPE, "clear", "--state-dir", network])
    assert "rate 26140Kbit" not in run([SHAPE, "show", "--state-dir", network]).stdout
    # Unshaped, the same check must fail: a cross-group link runs far above 25 Mbit/s.
    failed = run(
        [VERIFY, "--state-dir", network, "--groups", "2", "--rate", "25", "--seconds", "2"],
        check=False,
    )
    assert failed.returncode == 1 and "FAIL" in failed.stdout


def test_real_host_mode_inside_the_namespaces(network):
    """shape --dev on each worker's eth0 (egress + IFB ingress), as on a real cluster's hosts."""
    subnets = "10.213.77.11/32+10.213.77.12/32,10.213.77.13/32+10.213.77.14/32"
    for i in range(1, 5):
        run(
            [
                "ip",
                "netns",
                "exec",
                f"mc-w{i}",
                SHAPE,
                "--dev",
                "eth0",
                "--group-subnets",
                subnets,
                "--my-group",
                str(1 if i <= 2 else 2),
                "--rate",
                "75",
            ]
        )
    shown = run(["ip", "netns", "exec", "mc-w1", SHAPE, "show", "--dev", "eth0"]).stdout
    assert "ingress (via mcifb0)" in shown and shown.count("rate 78419Kbit") == 2
    out = run(
        [VERIFY, "--state-dir", network, "--groups", "2", "--rate", "75", "--seconds", "3"]
    ).stdout
    assert "OK:" in out
    bad = run(
        [
            "ip",
            "netns",
            "exec",
            "mc-w1",
            SHAPE,
            "--dev",
            "eth0",
            "--group-subnets",
            "10.0.0.0/24",
            "--my-group",
            "1",
            "--rate",
            "75",
        ],
        check=False,
    )
    assert bad.returncode == 2 and "at least two comma-separated CIDRs" in bad.stderr
    for i in range(1, 5):
        run(["ip", "netns", "exec", f"mc-w{i}", SHAPE, "clear", "--dev", "eth0"])
    links = run(["ip", "netns", "exec", "mc-w1", "ip", "-o", "link"]).stdout
    assert "mcifb0" not in links


def test_shape_rejects_bad_input(network):
    for args, message in [
        (["--groups", "2"], "--rate is missing"),
        (["--groups", "2", "--rate", "fast"], "--rate must be a payload rate in Mbit/s"),
        (
            ["--groups", "9", "--rate", "50"],
            "--groups must be from 2 to the number of workers (4), not '9'",
        ),
        (["--group-subnets", "10.0.0.0/24", "--rate", "50"], "need --dev IFACE"),
    ]:
        result = run([SHAPE, "--state-dir", network, *args], check=False)
        assert result.returncode == 2 and message in result.stderr, (args, result.stderr)


def source_libs(*names):
    """bash `source` commands for the named shell libraries: the shared ones in lib/ (common,
    topology), the cluster's own in cluster/lib/."""
    shared = {"common", "topology"}
    return "".join(
        f"source {REPO / 'lib' if name in shared else MARCO_CLUSTER.parent / 'lib'}/{name}.sh; "
        for name in names
    )


def make_marco_cgroups(root, state):
    """A bash script that makes MaRCO's cgroups under the fake cgroupfs ROOT and prints the
    mapred-site.xml lines that name them."""
    libs = source_libs("common", "topology", "net", "cgroups")
    return (
        f"set -euo pipefail; {libs}CG_ROOT={root}; STATE={state}; "
        "cg_create_marco; cg_marco_settings"
    )


def test_marco_cgroups_on_cgroup_v1_set_only_the_partial_group_site_wide(tmp_path):
    """cg_create_marco on a fake v1 cpu hierarchy of plain files: both groups are made, at 128 and
    2 shares, but mapred-site.xml names only mc-partial; the shuffle group is for jobs to opt in."""
    root, state = tmp_path / "cgroup", tmp_path / "state"
    (root / "cpu").mkdir(parents=True)
    state.mkdir()
    out = run(["bash", "-c", make_marco_cgroups(root, state)])
    assert out.stdout.splitlines() == [
        f"mapred-site.xml mapreduce.marco.partial.cpu.cgroup={root}/cpu/mc-partial"
    ], out
    assert (root / "cpu/mc-shuffle/cpu.shares").read_text() == "128\n"
    assert (root / "cpu/mc-partial/cpu.shares").read_text() == "2\n"


def test_marco_cgroups_go_to_cgroup_v2_where_the_machine_has_no_v1_cpu(tmp_path):
    """cg_create_marco on fake trees of plain files standing in for cgroupfs at CG_ROOT (no v1 cpu
    there): a hybrid host whose v2 part lacks the cpu controller gets no groups; a v2-only host gets
    mc-shuffle at the weight of 128 shares and, as v2 moves single threads only within a threaded
    subtree, mc-partial as its threaded child at the weight of 2 shares, cpu enabled for both."""
    root, state = tmp_path / "cgroup", tmp_path / "state"
    (root / "unified").mkdir(parents=True)
    state.mkdir()
    (root / "unified" / "cgroup.controllers").write_text("hugetlb\n")
    (root / "unified" / "cgroup.subtree_control").write_text("")
    script = make_marco_cgroups(root, state)
    out = run(["bash", "-c", script])
    assert out.stdout == "" and "rely on nice alone" in out.stderr, out
    assert not (state / "created.list").exists()

    (root / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    (root / "cgroup.subtree_control").write_text("memory pids\n")
    out = run(["bash", "-c", script])
    shuffle = root / "mc-shuffle"
    partial = shuffle / "mc-partial"
    # v2 moves partial threads only from a JVM in mc-shuffle into its threaded child: both are set
    assert out.stdout.splitlines() == [
        f"mapred-site.xml mapreduce.marco.shuffle.cpu.cgroup={shuffle}",
        f"mapred-site.xml mapreduce.marco.partial.cpu.cgroup={partial}",
    ], out
    assert (state / "created.list").read_text().splitlines() == [
        f"cgroup {shuffle}",
        f"cgroup {partial}",
    ]
    assert (shuffle / "cpu.weight").read_text() == "13\n"
    assert (partial / "cpu.weight").read_text() == "1\n"
    assert (partial / "cgroup.type").read_text() == "threaded\n"
    # the kernel adds a written +cpu to the controllers already on; a plain file just holds it
    assert (root / "cgroup.subtree_control").read_text() == "+cpu\n"
    assert (shuffle / "cgroup.subtree_control").read_text() == "+cpu\n"


def test_hadoop_conf_keeps_other_properties(tmp_path):
    site = tmp_path / "mapred-site.xml"
    site.write_text(
        textwrap.dedent("""\
        <?xml version="1.0"?>
        <configuration>
          <property><name>mapreduce.job.reduce.shuffle.consumer.plugin.class</name><value>Marco</value></property>
          <property><name>mapreduce.map.memory.mb</name><value>1024</value></property>
          <property><name>mapreduce.admin.map.child.java.opts</name><value>-Da=1</value></property>
        </configuration>
        """)
    )
    run(
        ["python3", REPO / "cluster" / "lib" / "hadoop_conf.py", tmp_path],
        input="mapred-site.xml mapreduce.map.memory.mb=512\ncore-site.xml fs.defaultFS=hdfs://master:9000\n"
        "mapred-site.xml mapreduce.admin.map.child.java.opts+=-Xshare:auto -cp a.jar:$CLASSPATH\n"
        "mapred-site.xml yarn.app.mapreduce.am.admin-command-opts+=-Xss1m\n",
    )
    props = {p.findtext("name"): p.findtext("value") for p in ET.parse(site).getroot()}
    assert props == {
        "mapreduce.job.reduce.shuffle.consumer.plugin.class": "Marco",
        "mapreduce.map.memory.mb": "512",
        "mapreduce.admin.map.child.java.opts": "-Da=1 -Xshare:auto -cp a.jar:$CLASSPATH",
        "yarn.app.mapreduce.am.admin-command-opts": "-Xss1m",
    }
    core = {
        p.findtext("name"): p.findtext("value")
        for p in ET.parse(tmp_path / "core-site.xml").getroot()
    }
    assert core == {"fs.defaultFS": "hdfs://master:9000"}


def compose_config():
    """The compose file as docker-compose itself reads it (merged anchors, defaults applied)."""
    if shutil.which("docker-compose") is None:
        pytest.fail(
            "docker-compose is not installed (Debian: apt-get install docker-compose); "
            "build.sh installs it with the other test prerequisites"
        )
    result = subprocess.run(
        ["docker-compose", "-f", str(REPO / "cluster" / "docker-compose.yml"), "config"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return yaml.safe_load(result.stdout)


def test_docker_compose_file_is_valid_and_its_workers_scale():
    """Workers are one scalable service per group: nothing a replica could hold alone (hostname,
    container name, fixed address, host port, per-node volume), NET_ADMIN to shape, and the
    group they belong to at their service's place in GROUP_SERVICES. The master and client keep
    fixed addresses outside the range Docker hands to replicas; the master's volume keeps the
    NameNode's metadata across down and up."""
    config = compose_config()
    services = config["services"]
    assert set(services) == {"master", "group1", "group2", "client"}
    group_services = services["master"]["environment"]["GROUP_SERVICES"].split(",")
    assert group_services == ["group1", "group2"]
    for position, name in enumerate(group_services, start=1):
        worker = services[name]
        for fixed in ("hostname", "container_name", "ports"):
            assert fixed not in worker, (name, fixed)
        assert worker["networks"] == {"marco": None}, name
        assert worker["environment"]["ROLE"] == "worker"
        assert worker["environment"]["GROUP"] == str(position)
        assert worker["cap_add"] == ["NET_ADMIN"]
        assert worker["scale"] >= 1
        assert worker["volumes"] == ["workers-data:/data:rw"]
    assert services["master"]["volumes"] == ["master-data:/data:rw"]
    assert "cap_add" not in services["client"] and "cap_add" not in services["master"]
    ipam = config["networks"]["marco"]["ipam"]["config"][0]
    replicas = ipaddress.ip_network(ipam["ip_range"])
    assert replicas.subnet_of(ipaddress.ip_network(ipam["subnet"]))
    for name in ("master", "client"):
        fixed = ipaddress.ip_address(services[name]["networks"]["marco"]["ipv4_address"])
        assert fixed not in replicas, name
        assert f"{name}:{fixed}" in services[name]["extra_hosts"]


def compose_lib(script):
    """A bash command that sources the compose helpers and runs SCRIPT."""
    return ["bash", "-c", f"set -euo pipefail; {source_libs('common', 'compose')}{script}"]


def test_compose_workers_find_their_groups_through_name_resolution(tmp_path):
    """Each group's replicas, as a service name resolves to them (here from a hosts file mounted
    over /etc/hosts in a private mount namespace), become one '+'-joined group of /32s for shape,
    in address order; a service that resolves to nothing yet is named, and nothing is shaped."""
    hosts = tmp_path / "hosts"
    hosts.write_text(
        "127.0.0.1 localhost\n"
        "10.213.78.131 group1\n10.213.78.130 group1\n10.213.78.129 group1\n"
        "10.213.78.140 group2\n"
    )
    script = (
        f"mount --bind {hosts} /etc/hosts; "
        'compose_group_subnets group1 group2; echo "$COMPOSE_GROUP_SUBNETS"; '
        "if compose_group_subnets group1 mc-no-such-group; then echo resolved; "
        'else echo "unresolved $COMPOSE_UNRESOLVED"; fi'
    )
    out = run(["unshare", "--mount", *compose_lib(script)]).stdout.splitlines()
    assert out == [
        "10.213.78.129/32+10.213.78.130/32+10.213.78.131/32,10.213.78.140/32",
        "unresolved mc-no-such-group",
    ]
    # the same value is what shape's real-host mode takes as its groups
    dry = run(
        [SHAPE, "--dev", "lo", "--group-subnets", out[0], "--my-group", "2", "--rate", "10",
         "--dry-run"]
    )  # fmt: skip
    assert "10.213.78.129/32" in dry.stdout and "10.213.78.140/32" not in dry.stdout


def test_compose_replicas_take_distinct_slots_and_free_them_when_they_end(tmp_path):
    """Replicas of a group share one volume: each entry point takes the first slot no running
    replica holds, and a replica's slot is free again once its entry point has ended."""
    holders = []

    def claim():
        process = subprocess.Popen(
            compose_lib(
                f'compose_claim_slot {tmp_path} group1; echo "$COMPOSE_SLOT"; exec sleep 300'
            ),
            stdout=subprocess.PIPE,
            text=True,
        )
        holders.append(process)
        return process.stdout.readline().strip()

    try:
        assert [claim(), claim(), claim()] == ["group1-1", "group1-2", "group1-3"]
        holders[1].kill()
        holders[1].wait(timeout=30)
        assert claim() == "group1-2"
        other = run(compose_lib(f'compose_claim_slot {tmp_path} group2; echo "$COMPOSE_SLOT"'))
        assert other.stdout.strip() == "group2-1"
    finally:
        for process in holders:
            process.kill()
            process.wait(timeout=30)


DOCKERFILE = REPO / "cluster" / "docker" / "Dockerfile"


def test_compose_client_role_runs_its_command_with_the_cluster_configuration(tmp_path):
    """The client container's entry point, run here outside a container: it writes the client
    configuration (the compose cluster's master as file system) and runs the command with it."""
    # PATH and HADOOP_HOME as the image sets them (Dockerfile ENV)
    env = {
        "PATH": f"{DIST}/bin:{os.environ['PATH']}",
        "ROLE": "client",
        "HADOOP_HOME": str(DIST),
        "NODE_STATE_DIR": str(tmp_path),
    }
    result = subprocess.run(
        [
            str(REPO / "cluster" / "docker" / "entrypoint.sh"),
            "hdfs",
            "getconf",
            "-confKey",
            "fs.defaultFS",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "hdfs://master:9000"
    assert (tmp_path / "client" / "conf" / "core-site.xml").exists()
    bad = subprocess.run(
        [str(REPO / "cluster" / "docker" / "entrypoint.sh")],
        env={**env, "ROLE": "gateway"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode != 0 and "ROLE must be master, worker or client" in bad.stderr


def test_docker_build_context_holds_only_what_the_dockerfile_copies():
    """.dockerignore excludes everything, then lets in exactly the COPY sources: a new COPY
    without its exception would fail the image build, a stale exception would bloat it."""
    copied = {
        line.split()[1] for line in DOCKERFILE.read_text().splitlines() if line.startswith("COPY ")
    }
    rules = [
        line
        for line in (REPO / ".dockerignore").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert rules[0] == "*", rules
    assert {rule.removeprefix("!") for rule in rules[1:]} == copied


def test_stop_cleans_up_after_a_start_that_lost_its_state(tmp_path):
    """As after a crash half-way through start: the record of what was made is gone, yet stop
    removes every namespace, veth, bridge, hosts file and cgroup by its deterministic name."""
    state = tmp_path / "state"
    run(
        [
            MARCO_CLUSTER,
            "start",
            "--network-only",
            "--workers",
            "3",
            "--cpu-per-worker",
            "0.5",
            "--state-dir",
            state,
        ]
    )
    shutil.rmtree(state)
    try:
        result = run([MARCO_CLUSTER, "start", "--network-only", "--state-dir", state], check=False)
        assert result.returncode == 2, result
        assert "of an earlier cluster are still there" in result.stderr, result.stderr
    finally:
        run([MARCO_CLUSTER, "stop", "--state-dir", state])
    assert_nothing_left(state)
