# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""The pseudo-distributed demo behind ./run-main.sh: one cluster from the built distribution,
word count with the stock shuffle and with MaRCO on the same input, outputs compared, MaRCO's
counters shown, every daemon stopped at the end."""

import argparse
import pathlib
import shutil
import sys
import time

from pseudo_cluster import PseudoCluster
from word_input import counter_group, parse_word_counts, write_word_files

from distribution import find_dist_home

STOCK_SHUFFLE = "org.apache.hadoop.mapreduce.task.reduce.Shuffle"
MARCO_SHUFFLE = "org.apache.hadoop.mapreduce.task.reduce.MarcoShuffle"


def say(message):
    print(f"[run-main] {message}", flush=True)


def run_wordcount(cluster, jar, variant, plugin, reduces):
    started = time.monotonic()
    job = cluster.run(
        "hadoop",
        "jar",
        jar,
        "wordcount",
        f"-Dmapreduce.job.reduces={reduces}",
        f"-Dmapreduce.job.reduce.shuffle.consumer.plugin.class={plugin}",
        "/demo/in",
        f"/demo/out-{variant}",
    )
    seconds = time.monotonic() - started
    output = cluster.run("hdfs", "dfs", "-cat", f"/demo/out-{variant}/part-r-*").stdout
    return seconds, output, job.stdout + job.stderr


def main(argv):
    parser = argparse.ArgumentParser(prog="run-main.sh", description=__doc__)
    parser.add_argument(
        "--work-dir",
        type=pathlib.Path,
        required=True,
        help="holds the demo cluster's conf, data, logs and pid files (recreated)",
    )
    parser.add_argument("--files", type=int, default=8, help="input files, one map each")
    parser.add_argument("--lines", type=int, default=20000, help="lines per input file")
    parser.add_argument("--reduces", type=int, default=2)
    args = parser.parse_args(argv)
    if args.files < 1 or args.lines < 1 or args.reduces < 1:
        parser.error("--files, --lines and --reduces must be at least 1")

    repo = pathlib.Path(__file__).resolve().parents[1]
    dist_home = find_dist_home(repo)
    shutil.rmtree(args.work_dir, ignore_errors=True)
    args.work_dir.mkdir(parents=True)
    cluster = PseudoCluster(dist_home, args.work_dir)
    expected = write_word_files(_input_dir(args.work_dir), args.files, args.lines)
    jar = next((dist_home / "share/hadoop/mapreduce").glob("hadoop-marco-benchmarks-*.jar"))
    try:
        say(f"formatting HDFS and starting 5 daemons from {dist_home} (logs: {cluster.log_dir})")
        cluster.format()
        cluster.run_script("start-all.sh")
        cluster.wait_until_ready()
        say(f"cluster up; job history at http://{cluster.jhs_web}/jobhistory")
        cluster.run("hdfs", "dfs", "-mkdir", "-p", "/demo")
        cluster.run("hdfs", "dfs", "-put", _input_dir(args.work_dir), "/demo/in")
        results = {}
        for variant, plugin in (("stock", STOCK_SHUFFLE), ("marco", MARCO_SHUFFLE)):
            say(f"word count, {variant} shuffle ({args.files} maps, {args.reduces} reduces) ...")
            results[variant] = run_wordcount(cluster, jar, variant, plugin, args.reduces)
            say(f"  {variant}: {results[variant][0]:.1f} s")
        for variant, (_, output, _) in results.items():
            if parse_word_counts(output) != dict(expected):
                raise SystemExit(f"the {variant} word count differs from the expected counts")
        if counter_group(results["stock"][2], "MaRCO"):
            raise SystemExit(
                "the stock run reported MaRCO counters: it did not use the stock shuffle"
            )
        if results["stock"][1] != results["marco"][1]:
            raise SystemExit("MaRCO's output differs from the stock shuffle's output")
        say(f"both outputs hold the right counts of {len(expected)} words and are identical")
        marco_counters = counter_group(results["marco"][2], "MaRCO")
        if not marco_counters:
            raise SystemExit("the MaRCO job reported no MaRCO counters: MaRCO did not run")
        say("MaRCO counters of the MaRCO job (all reduces):")
        for name, value in marco_counters.items():
            print(f"    {name:45s} {value}")
        say(
            "single-node timings measure little; "
            "the benchmark harness compares under a throttled network"
        )
    finally:
        say("stopping every daemon")
        cluster.run_script("stop-all.sh", check=False)
    return 0


def _input_dir(work_dir):
    directory = work_dir / "input"
    directory.mkdir(exist_ok=True)
    return directory


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
