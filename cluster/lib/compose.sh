# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# shellcheck shell=bash
# shellcheck disable=SC2034  # COMPOSE_* results are read by the entry point that sources this
# What a worker container of cluster/docker-compose.yml needs to know about the others when the
# workers are scaled (`docker compose up --scale group1=N`): replicas get their addresses from
# Docker and their hostnames are container ids, so a worker finds its group's peers through
# Docker's DNS and keeps its HDFS and YARN state in a numbered slot of the shared volume instead
# of a directory named after itself. Needs common.sh.

# Most replicas of one group the slots allow; far beyond what one Docker host runs.
COMPOSE_MAX_SLOTS=64

# compose_group_subnets SERVICE...: sets COMPOSE_GROUP_SUBNETS to the --group-subnets value of
# bandwidth-shaping/shape for these services, one group per service in the order given: every
# address a service name resolves to (Docker's DNS answers a service name with all its replicas)
# as a /32, joined with '+'. Returns 1 and sets COMPOSE_UNRESOLVED to the service instead while
# one resolves to nothing (its replicas are not up yet).
compose_group_subnets() {
  local service addrs groups=()
  for service in "$@"; do
    addrs=$(getent ahostsv4 "$service" | awk '{print $1 "/32"}' | sort -u -t. -k1,1n -k2,2n -k3,3n -k4,4n | paste -sd+ -) || true
    if [[ -z $addrs ]]; then
      COMPOSE_UNRESOLVED=$service
      return 1
    fi
    groups+=("$addrs")
  done
  local IFS=,
  COMPOSE_GROUP_SUBNETS="${groups[*]}"
}

# compose_claim_slot DIR PREFIX: takes the first free slot PREFIX-1, PREFIX-2, ... under DIR/locks
# with an exclusive flock held on a descriptor of the calling shell (so the slot stays taken for
# as long as the container's entry point runs, and is free again once it exits, however it
# exits). Sets COMPOSE_SLOT to the slot's name. A slot's state outlives its container, so after
# `down` and `up` each replica takes over a previous replica's DataNode storage, and HDFS keeps
# its blocks; which replica gets which slot does not matter, as a DataNode is known by the
# storage id in its directory, not by its host.
compose_claim_slot() {
  local dir=$1 prefix=$2 k fd
  mkdir -p "$dir/locks"
  for ((k = 1; k <= COMPOSE_MAX_SLOTS; k++)); do
    exec {fd}>"$dir/locks/$prefix-$k.lock"
    if flock -n "$fd"; then
      COMPOSE_SLOT=$prefix-$k
      return 0
    fi
    exec {fd}>&-
  done
  marco_fail "all $COMPOSE_MAX_SLOTS slots of $prefix under $dir are taken" \
    "scale the service down, or remove stale replicas with docker compose down"
}
