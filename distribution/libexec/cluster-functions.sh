# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# shellcheck shell=bash
# Behind sbin/start-{all,dfs,yarn}.sh and sbin/stop-{all,dfs,yarn}.sh: the single-node daemons,
# in start order. Sourced, never executed.

HM_BIN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../bin" && pwd -P)
# shellcheck source=../../lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/marco-common.sh"
# launcher:daemon, in the order they must start (HDFS before YARN, which the history server needs).
# As in Hadoop, the dfs and yarn scripts leave the history server to
# `mapred --daemon start historyserver`; the all scripts include it.
HM_DFS_DAEMONS=(hdfs:namenode hdfs:datanode)
HM_YARN_DAEMONS=(yarn:resourcemanager yarn:nodemanager)
HM_CLUSTER_DAEMONS=("${HM_DFS_DAEMONS[@]}" "${HM_YARN_DAEMONS[@]}" mapred:historyserver)

hm_cluster_usage() {
  cat <<USAGE
Usage: $(basename "$0") [--config DIR] [--help]

$1 the single-node daemons on this machine: ${HM_SELECTED[*]}.
  --config DIR   configuration directory (default: \$HADOOP_CONF_DIR or HADOOP_HOME/etc/hadoop)
Pid files go to \$HADOOP_PID_DIR, logs to \$HADOOP_LOG_DIR (docs/distribution.md).
USAGE
}

# start-all.sh runs every daemon here; it cannot start the remote hosts a workers file may list.
hm_check_workers_are_local() {
  local workers_file=${HADOOP_CONF_DIR:-$HM_BIN_DIR/../etc/hadoop}/workers host
  [[ -f $workers_file ]] || return 0
  while read -r host _; do
    [[ -z $host || $host == \#* ]] && continue
    case $host in
      localhost | 127.0.0.1 | "$(hostname)" | "$(hostname -f 2>/dev/null)") ;;
      *) marco_fail "$workers_file lists '$host', but $(basename "$0") only starts daemons on this machine" \
           "run 'hdfs --daemon start datanode' and 'yarn --daemon start nodemanager' on each worker, or list only localhost" ;;
    esac
  done <"$workers_file"
}

# hm_cluster_main start|stop all|dfs|yarn [ARGS...]
hm_cluster_main() {
  local action=$1 group=$2
  shift 2
  case $group in
    all) HM_SELECTED=("${HM_CLUSTER_DAEMONS[@]}") ;;
    dfs) HM_SELECTED=("${HM_DFS_DAEMONS[@]}") ;;
    yarn) HM_SELECTED=("${HM_YARN_DAEMONS[@]}") ;;
  esac
  while (($#)); do
    case $1 in
      --config)
        (($# >= 2)) || marco_die "--config needs a directory" "see $(basename "$0") --help"
        export HADOOP_CONF_DIR=$2
        shift 2
        ;;
      -h | --help) hm_cluster_usage "${action^}s"; exit 0 ;;
      *) hm_cluster_usage "${action^}s" >&2; marco_die "unknown argument '$1'" "see the usage above" ;;
    esac
  done
  local -a order=("${HM_SELECTED[@]}")
  local entry failed=0 i
  if [[ $action == start ]]; then
    hm_check_workers_are_local
  else
    for ((i = ${#HM_SELECTED[@]} - 1; i >= 0; i--)); do order[${#HM_SELECTED[@]} - 1 - i]=${HM_SELECTED[i]}; done
  fi
  for entry in "${order[@]}"; do
    # Keep stopping the others when one fails; a start stops at the first failure.
    if ! "$HM_BIN_DIR/${entry%%:*}" --daemon "$action" "${entry#*:}"; then
      failed=1
      [[ $action == start ]] && break
    fi
  done
  return "$failed"
}
