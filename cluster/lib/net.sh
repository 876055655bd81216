# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# shellcheck shell=bash
# Network of the one-machine cluster: one bridge in the root namespace, one namespace per node,
# one veth pair per node, per-namespace hosts files. Needs topology.sh and common.sh.
#
# Everything is written to "$STATE/created.list" *before* it is made, so that stop can remove it
# even when start died half-way.

net_record() { echo "$1 $2" >> "$STATE/created.list"; }

net_create_bridge() {
  net_record bridge "$MC_BRIDGE"
  ip link add "$MC_BRIDGE" type bridge
  ip addr add "$MC_BRIDGE_ADDR/$MC_PREFIXLEN" dev "$MC_BRIDGE"
  ip link set "$MC_BRIDGE" up
}

# net_create_node NAME ADDRESS: namespace + veth on the bridge + address + hosts file.
net_create_node() {
  local name=$1 addr=$2 ns hostveth
  ns=$(mc_node_ns "$name")
  hostveth=$(mc_node_hostveth "$name")
  net_record netns "$ns"
  ip netns add "$ns"
  net_record link "$hostveth"
  ip link add "$hostveth" type veth peer name "$MC_NODE_DEV" netns "$ns"
  ip link set "$hostveth" master "$MC_BRIDGE"
  ip link set "$hostveth" up
  ip -n "$ns" addr add "$addr/$MC_PREFIXLEN" dev "$MC_NODE_DEV"
  ip -n "$ns" link set "$MC_NODE_DEV" up
  ip -n "$ns" link set lo up
  # No default route: the nodes and the root namespace (bridge address) are all on the /24, and
  # nothing may leave it. Name lookups that the hosts file cannot answer (Java asks for IPv6 too)
  # then fail at once instead of waiting for the machine's DNS server.
  net_record hostsdir "/etc/netns/$ns"
  mkdir -p "/etc/netns/$ns"
  # `ip netns exec` bind-mounts these over /etc/hosts and /etc/resolv.conf inside the namespace.
  cp "$STATE/hosts" "/etc/netns/$ns/hosts"
  echo "nameserver 127.0.0.1" > "/etc/netns/$ns/resolv.conf"
}

# The cluster's hosts table: forward and reverse entries for every node (Java, HDFS's
# registration check and YARN all resolve both ways).
net_write_hosts_table() {
  local workers=$1 i
  {
    echo "127.0.0.1 localhost"
    echo "$MC_MASTER_ADDR master"
    for ((i = 1; i <= workers; i++)); do
      echo "$(mc_worker_addr "$i") $(mc_worker_name "$i")"
    done
  } > "$STATE/hosts"
}

# Remove one recorded or deterministic object if it still exists.
net_remove() {
  local kind=$1 name=$2
  case $kind in
    netns)
      if ip netns list | awk '{print $1}' | grep -qx -- "$name"; then ip netns del "$name"; fi ;;
    link|bridge)
      if ip link show dev "$name" >/dev/null 2>&1; then ip link del dev "$name"; fi ;;
    hostsdir)
      # Only ever our own /etc/netns/mc-* directories.
      if [[ $name == /etc/netns/$MC_PREFIX-* && -d $name ]]; then rm -rf -- "$name"; fi ;;
  esac
}

# Names of the namespaces of ours that exist now.
net_existing_namespaces() {
  local node ns
  for node in $(mc_all_possible_nodes); do
    ns=$(mc_node_ns "$node")
    if ip netns list | awk '{print $1}' | grep -qx -- "$ns"; then echo "$ns"; fi
  done
}

# Tear down recorded objects first (their order: links before namespaces before the bridge),
# then every deterministic name, which covers a lost or partial record.
net_teardown() {
  local node kind name
  if [[ -f $STATE/created.list ]]; then
    for kind in link netns hostsdir bridge; do
      while read -r k name; do
        if [[ $k == "$kind" ]]; then net_remove "$kind" "$name"; fi
      done < "$STATE/created.list"
    done
  fi
  for node in $(mc_all_possible_nodes); do
    net_remove link "$(mc_node_hostveth "$node")"
    net_remove netns "$(mc_node_ns "$node")"
    net_remove hostsdir "/etc/netns/$(mc_node_ns "$node")"
  done
  net_remove bridge "$MC_BRIDGE"
  # /etc/netns itself is left alone when other tools keep files there.
  rmdir /etc/netns 2>/dev/null || true
}
