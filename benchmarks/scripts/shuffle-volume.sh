#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# Measures every benchmark's shuffle volume per input byte on a small run: generates each job's
# input with the distribution's generators, runs the job, and reads the job counters the client
# prints (map output bytes, reduce shuffle bytes, reduce output records). Prints a markdown table.
set -euo pipefail

usage() {
  cat <<USAGE
Usage: benchmarks/scripts/shuffle-volume.sh [--size BYTES] [--reduces N] [--maps N] [--work DIR]
                                            [--logs DIR] [--config DIR]

Runs the eleven benchmarks on generated data with 'hadoop jar' from \$HADOOP_HOME (the
distribution) and prints, per job: input bytes, map output bytes / input bytes, reduce shuffle
bytes / input bytes and output records.

  --size BYTES   input size per job, with k/m/g suffix (default 16m)
  --reduces N    reducers per job (default 2; grep always uses 1, as in the paper)
  --maps N       generator map tasks and job splits (default 4)
  --work DIR     where data and outputs go (default /tmp/marco-shuffle-volume), on the
                 configured default file system unless it is a URI such as file:///tmp/x
  --reuse-data   keep data sets already generated under --work (same size and seed assumed)
  --logs DIR     local directory for the client logs of every run (default ./shuffle-volume-logs)
  --config DIR   Hadoop configuration directory (default \$HADOOP_CONF_DIR or the distribution's)
  --help         this text

Environment: HADOOP_HOME (required) is the distribution directory, e.g. dist/hadoop-marco-3.5.0.
Re-running replaces the previous data and outputs under --work.
USAGE
}

SIZE=16m
REDUCES=2
MAPS=4
WORK=/tmp/marco-shuffle-volume
LOGS=./shuffle-volume-logs
REUSE=false
CONFIG=${HADOOP_CONF_DIR:-}
while (($#)); do
  case $1 in
    --size) SIZE=$2; shift 2 ;;
    --reduces) REDUCES=$2; shift 2 ;;
    --maps) MAPS=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    --logs) LOGS=$2; shift 2 ;;
    --reuse-data) REUSE=true; shift ;;
    --config) CONFIG=$2; shift 2 ;;
    --help|-h) usage; exit 0 ;;
    *) echo "Unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ -n ${HADOOP_HOME:-} && -x $HADOOP_HOME/bin/hadoop ]] ||
  { echo "Set HADOOP_HOME to the distribution directory (with bin/hadoop); see --help" >&2; exit 2; }
JAR=$(find "$HADOOP_HOME/share/hadoop/mapreduce" -maxdepth 1 -name 'hadoop-marco-benchmarks-*.jar' | sort | head -n 1)
HADOOP=("$HADOOP_HOME/bin/hadoop")
[[ -n $CONFIG ]] && HADOOP+=(--config "$CONFIG")
mkdir -p "$LOGS"

# hadoop fs -rm is idempotent with -f; each data set is generated once per run of this script.
generate() {  # generator name, data dir
  if $REUSE && "${HADOOP[@]}" fs -test -e "$WORK/data/$2/_SUCCESS"; then
    return
  fi
  "${HADOOP[@]}" fs -rm -r -f "$WORK/data/$2" > /dev/null
  "${HADOOP[@]}" jar "$JAR" "$1" --seed 1 --maps "$MAPS" --bytes "$SIZE" "$WORK/data/$2" \
    > "$LOGS/$1.log" 2>&1 || { echo "$1 failed, see $LOGS/$1.log" >&2; exit 1; }
}

counter() {  # log file, counter display name
  sed -n "s/^[[:space:]]*$2=\([0-9]*\)$/\1/p" "$1" | tail -1
}

run_job() {  # job name, data dir, reducers
  local log="$LOGS/$1.log" split
  split=$(( $("${HADOOP[@]}" fs -du -s "$WORK/data/$2" | awk '{print $1}') / MAPS + 1 ))
  "${HADOOP[@]}" fs -rm -r -f "$WORK/out/$1" > /dev/null
  "${HADOOP[@]}" jar "$JAR" "$1" -D mapreduce.job.reduces="$3" \
    -D mapreduce.input.fileinputformat.split.maxsize="$split" \
    -D marco.benchmarks.kmeans.max.iterations=1 \
    "$WORK/data/$2" "$WORK/out/$1" > "$log" 2>&1 || { echo "$1 failed, see $log" >&2; exit 1; }
  local input mapout shuffle records
  input=$("${HADOOP[@]}" fs -du -s "$WORK/data/$2" | awk '{print $1}')
  mapout=$(counter "$log" "Map output bytes")
  shuffle=$(counter "$log" "Reduce shuffle bytes")
  records=$(counter "$log" "Reduce output records")
  awk -v job="$1" -v bytes="$input" -v m="$mapout" -v s="$shuffle" -v r="$records" \
    'BEGIN { printf "| %s | %d | %.3f | %.3f | %d |\n", job, bytes, m / bytes, s / bytes, r }'
}

for gen in gen-binary:binary gen-text:text gen-inverted-index:postings gen-ratings:ratings \
    gen-self-join:candidates gen-graph:graph; do
  generate "${gen%%:*}" "${gen##*:}"
done

echo "| job | input bytes | map output bytes / input | shuffle bytes / input | output records |"
echo "|---|---|---|---|---|"
run_job binary-sort binary "$REDUCES"
run_job term-vector text "$REDUCES"
run_job inverted-index postings "$REDUCES"
run_job self-join candidates "$REDUCES"
run_job adjacency-list graph "$REDUCES"
run_job k-means ratings "$REDUCES"
run_job word-count text "$REDUCES"
run_job classification ratings "$REDUCES"
run_job grep text 1
run_job histogram-movies ratings "$REDUCES"
run_job histogram-ratings ratings "$REDUCES"
