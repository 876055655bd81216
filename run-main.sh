#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# A short pseudo-distributed demo; the main command is benchmarks/marco-bench main. It starts the
# five daemons of the built distribution on loopback (free ports, state under dist/demo-run/), runs
# word count with the stock shuffle and with MaRCO on the same input, checks both outputs, shows
# MaRCO's counters, and stops every daemon. Run ./build.sh first.
set -euo pipefail
REPO=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd -P)
source "$REPO/lib/common.sh"

if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  cat <<USAGE
Usage: ./run-main.sh [--files N] [--lines N] [--reduces N]

Pseudo-distributed demo of hadoop-marco (build first: ./build.sh):
  formats HDFS and starts NameNode, DataNode, ResourceManager, NodeManager and JobHistoryServer
  from dist/, runs word count with the stock shuffle and with MaRCO, checks that both outputs
  are right and identical, prints MaRCO's counters, and stops every daemon.
  --files N     input files, one map each (default 8)
  --lines N     lines per input file (default 20000)
  --reduces N   reduce tasks (default 2)
State, logs and configuration: dist/demo-run/ (recreated each run).
USAGE
  exit 0
fi
compgen -G "$REPO/dist/hadoop-marco-*/bin/hadoop" >/dev/null ||
  marco_die "no distribution under $REPO/dist" "build it first: ./build.sh"
exec python3 "$REPO/demo/pseudo_demo.py" --work-dir "$REPO/dist/demo-run" "$@"
