#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# Entry point of a cluster container (cluster/docker-compose.yml): writes this node's configuration
# with the same settings marco-cluster uses, starts the daemons of ROLE and stays up until the
# container is stopped, then stops them. The client role starts no daemon: it writes the client
# configuration, then runs its command (docker compose run client hadoop jar ...) or, without
# one, waits for `docker compose exec client ...`.
#
# Workers are replicas of a scalable service per group: each takes a free slot of the shared
# volume for its HDFS and YARN state, registers with YARN and HDFS by its address (its hostname is
# a container id), and, when SHAPE_RATE is set, shapes eth0 against the addresses the other
# groups' services resolve to, re-shaping whenever replicas come or go.
#
# Environment: ROLE (master|worker|client), GROUP (a worker's group: its 1-based position in
# GROUP_SERVICES), GROUP_SERVICES (the workers' services, one per group, comma-separated),
# SHAPE_RATE (payload Mbit/s between groups; empty = no shaping), REPLICATION, NM_MEMORY_MB,
# NM_VCORES, NODE_STATE_DIR (default /data: the master's volume, or the workers' shared one).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=../../lib/common.sh
source "$HERE/../lib/common.sh"
# shellcheck source=../../lib/topology.sh
source "$HERE/../lib/topology.sh"
# shellcheck source=../lib/cgroups.sh
source "$HERE/lib/cgroups.sh"
# shellcheck source=../lib/daemons.sh
source "$HERE/lib/daemons.sh"
# shellcheck source=../lib/compose.sh
source "$HERE/lib/compose.sh"

ROLE=${ROLE:?set ROLE to master, worker or client}
STATE=${NODE_STATE_DIR:-/data}   # the container's volume; settable for a run outside a container
DIST=$HADOOP_HOME
REPLICATION=${REPLICATION:-2}
NM_MEMORY_MB=${NM_MEMORY_MB:-3072}
NM_VCORES=${NM_VCORES:-4}

case $ROLE in
  master|worker|client) ;;
  *) marco_die "ROLE must be master, worker or client, not '$ROLE'" "set ROLE in docker-compose.yml" ;;
esac

if [[ $ROLE == client ]]; then
  dm_write_client_conf
  export HADOOP_CONF_DIR=$STATE/client/conf
  if (($#)); then
    exec "$@"
  fi
  trap 'exit 0' TERM INT
  while true; do
    sleep 3600 & wait $!
  done
fi

if [[ $ROLE == master ]]; then
  NODE=master
  dm_write_conf "$NODE"
  # Workers register by address, and Docker's reverse DNS names them after their container, not
  # after that address: the NameNode's check that the two agree would turn every DataNode away.
  echo "hdfs-site.xml dfs.namenode.datanode.registration.ip-hostname-check=false" | python3 "$HCONF" "$(dm_node_dir "$NODE")/conf"
  if [[ ! -d $(dm_node_dir "$NODE")/data/name/current ]]; then
    (dm_export_env "$NODE" namenode && "$DIST/bin/hdfs" namenode -format -nonInteractive)
  fi
else
  : "${GROUP:?set GROUP to the group of this worker}" "${GROUP_SERVICES:?set GROUP_SERVICES}"
  compose_claim_slot "$STATE" "group$GROUP"
  NODE=$COMPOSE_SLOT
  ADDR=$(ip -4 -o addr show dev eth0 | awk '{split($4, a, "/"); print a[1]; exit}')
  [[ -n $ADDR ]] || marco_fail "eth0 has no IPv4 address" "attach the container to the compose network"
  dm_write_conf "$NODE"
  printf '%s\n' "yarn-site.xml yarn.nodemanager.hostname=$ADDR" "hdfs-site.xml dfs.datanode.hostname=$ADDR" |
    python3 "$HCONF" "$(dm_node_dir "$NODE")/conf"
  marco_log "worker $ADDR of group $GROUP keeps its state in slot $NODE"
fi

# Re-shape eth0 when the set of worker addresses changed since the last shaping.
SHAPED_GROUPS=""
WAITING_FOR=""
reshape_if_changed() {
  [[ $ROLE == worker && -n ${SHAPE_RATE:-} ]] || return 0
  local services
  IFS=, read -ra services <<<"$GROUP_SERVICES"
  if ! compose_group_subnets "${services[@]}"; then
    # Said once per service waited for, not every 10 s.
    [[ $COMPOSE_UNRESOLVED == "$WAITING_FOR" ]] || marco_log "shaping waits for a replica of $COMPOSE_UNRESOLVED"
    WAITING_FOR=$COMPOSE_UNRESOLVED
    return 0
  fi
  WAITING_FOR=""
  [[ $COMPOSE_GROUP_SUBNETS != "$SHAPED_GROUPS" ]] || return 0
  "$HERE/../bandwidth-shaping/shape" --dev eth0 --group-subnets "$COMPOSE_GROUP_SUBNETS" --my-group "$GROUP" --rate "$SHAPE_RATE"
  marco_log "shaped eth0 to $SHAPE_RATE Mbit/s between groups $COMPOSE_GROUP_SUBNETS"
  SHAPED_GROUPS=$COMPOSE_GROUP_SUBNETS
}
reshape_if_changed

DAEMONS=$(if [[ $ROLE == master ]]; then echo "$MASTER_DAEMONS"; else echo "$WORKER_DAEMONS"; fi)
for daemon in $DAEMONS; do dm_launcher "$NODE" "$daemon" start; done

# shellcheck disable=SC2317  # run by the trap below
stop_daemons() {
  for daemon in $DAEMONS; do dm_launcher "$NODE" "$daemon" stop || true; done
  exit 0
}
trap stop_daemons TERM INT

all_running() {
  local daemon
  for daemon in $DAEMONS; do dm_launcher "$NODE" "$daemon" status >/dev/null || return 1; done
}

# Stay up while every daemon runs; a daemon that dies ends the container (its log says why).
while all_running; do
  sleep 10 & wait $!
  reshape_if_changed
done
echo "a daemon of $NODE stopped; see $(dm_node_dir "$NODE")/logs" >&2
exit 1
