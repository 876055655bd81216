# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# shellcheck shell=bash
# shellcheck disable=SC2034  # constants read by the scripts that source this file
# Names and addresses of the one-machine cluster. Sourced by cluster/marco-cluster and by
# bandwidth-shaping/, so both agree on what belongs to us. Every name carries the "mc" prefix;
# teardown removes exactly these names and nothing else.

MC_PREFIX=mc
MC_BRIDGE=mcbr0
# A private /24 that nothing else on the machine uses; we only ever talk to addresses in it
# that we assigned ourselves.
MC_NET=10.213.77
MC_PREFIXLEN=24
MC_BRIDGE_ADDR="$MC_NET.1"
MC_MASTER_ADDR="$MC_NET.10"
MC_MIN_WORKERS=2
MC_MAX_WORKERS=8
MC_DEFAULT_STATE_DIR=/tmp/marco-cluster
# Device name of each node's end of its veth, inside the node's namespace.
MC_NODE_DEV=eth0

# Node names are hostnames too: master, w1..w8.
mc_worker_name() { echo "w$1"; }
mc_node_ns() { echo "$MC_PREFIX-$1"; }
# Root-namespace end of the node's veth (<= 15 characters).
mc_node_hostveth() { echo "mcv-$1"; }
mc_worker_addr() { echo "$MC_NET.$((10 + $1))"; }
mc_cgroup_name() { echo "$MC_PREFIX-$1"; }

# Every node name that could ever exist, for removal by deterministic name after a crash.
mc_all_possible_nodes() {
  echo master
  local i
  for ((i = 1; i <= MC_MAX_WORKERS; i++)); do mc_worker_name "$i"; done
}

# Group (1-based) of worker i out of n workers split into g contiguous groups.
mc_worker_group() {
  local i=$1 n=$2 g=$3
  echo $(( (i - 1) * g / n + 1 ))
}

# The cluster writes "<name> <netns> <address> <host-veth> <role>" per node here.
mc_nodes_file() { echo "$1/nodes.list"; }

# mc_cluster_env_value STATE KEY: KEY's value in the cluster.env that marco-cluster start wrote.
mc_cluster_env_value() {
  # shellcheck source=/dev/null
  (source "$1/cluster.env" && printf '%s\n' "${!2}")
}
