#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# Entry point of a cluster container (cluster/docker-compose.yml): writes this node's configuration
# with the same settings marco-cluster uses, shapes eth0 when SHAPE_RATE is set, starts the daemons
# of ROLE and stays up until the container is stopped, then stops them. The client role starts no
# daemon: it writes the client configuration, then runs its command (docker compose run client
# hadoop jar ...) or, without one, waits for `docker compose exec client ...`.
#
# Environment: ROLE (master|worker|client), WORKERS, GROUP (worker's group, 1-based), GROUP_SUBNETS,
# SHAPE_RATE (payload Mbit/s between groups; empty = no shaping), REPLICATION, NM_MEMORY_MB, NM_VCORES,
# NODE_STATE_DIR (default /data).
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

ROLE=${ROLE:?set ROLE to master, worker or client}
STATE=${NODE_STATE_DIR:-/data}   # the container's volume; settable for a run outside a container
DIST=$HADOOP_HOME
REPLICATION=${REPLICATION:-2}
NM_MEMORY_MB=${NM_MEMORY_MB:-3072}
NM_VCORES=${NM_VCORES:-4}
NODE=$(hostname)

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

dm_write_conf "$NODE"
if [[ $ROLE == master && ! -d $(dm_node_dir "$NODE")/data/name/current ]]; then
  (dm_export_env "$NODE" namenode && "$DIST/bin/hdfs" namenode -format -nonInteractive)
fi
if [[ $ROLE == worker && -n ${SHAPE_RATE:-} ]]; then
  "$HERE/../bandwidth-shaping/shape" --dev eth0 --group-subnets "$GROUP_SUBNETS" --my-group "${GROUP:?set GROUP}" --rate "$SHAPE_RATE"
fi

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
done
echo "a daemon of $NODE stopped; see $(dm_node_dir "$NODE")/logs" >&2
exit 1
