#!/usr/bin/env bash
# Entry point of a cluster container (cluster/docker-compose.yml): writes this node's configuration
# with the same settings marco-cluster uses, shapes eth0 when SHAPE_RATE is set, starts the daemons
# of ROLE and stays up until the container is stopped, then stops them.
#
# Environment: ROLE (master|worker), WORKERS, GROUP (worker's group, 1-based), GROUP_SUBNETS,
# SHAPE_RATE (payload Mbit/s between groups; empty = no shaping), REPLICATION, NM_MEMORY_MB, NM_VCORES.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
source "$HERE/lib/common.sh"
source "$HERE/lib/topology.sh"
source "$HERE/lib/daemons.sh"

ROLE=${ROLE:?set ROLE to master or worker}
STATE=/data
DIST=$HADOOP_HOME
REPLICATION=${REPLICATION:-2}
NM_MEMORY_MB=${NM_MEMORY_MB:-3072}
NM_VCORES=${NM_VCORES:-4}
NODE=$(hostname)

case $ROLE in
  master|worker) ;;
  *) mc_die "ROLE must be master or worker, not '$ROLE'" "set ROLE in docker-compose.yml" ;;
esac

dm_write_conf "$NODE"
if [[ $ROLE == master && ! -d $(dm_node_dir "$NODE")/data/name/current ]]; then
  (dm_export_env "$NODE" namenode && "$DIST/bin/hdfs" namenode -format -nonInteractive)
fi
if [[ $ROLE == worker && -n ${SHAPE_RATE:-} ]]; then
  "$HERE/../bandwidth-shaping/shape" --dev eth0 --group-subnets "$GROUP_SUBNETS" --my-group "${GROUP:?set GROUP}" --rate "$SHAPE_RATE"
fi

DAEMONS=$(if [[ $ROLE == master ]]; then echo "$MASTER_DAEMONS"; else echo "$WORKER_DAEMONS"; fi)
for daemon in $DAEMONS; do dm_launcher "$NODE" "$daemon" start; done

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
