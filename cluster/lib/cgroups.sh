# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# shellcheck shell=bash
# Optional per-worker CPU (CFS quota) and memory limits through cgroup v1. A worker's daemons,
# and the YARN containers they fork, join the worker's cgroups, so one machine can stand in for
# several smaller ones. Else MaRCO's machine-wide low-share cpu cgroups (v1, or v2 where the
# machine has no v1 cpu hierarchy). Needs topology.sh, common.sh and net.sh (for net_record).

CG_ROOT=/sys/fs/cgroup
CG_CPU_PERIOD_US=100000

cg_dir() { echo "$CG_ROOT/$1/$(mc_cgroup_name "$2")"; }

cg_check_available() {
  local controller=$1
  [[ -w $CG_ROOT/$controller ]] || marco_die "cgroup v1 controller '$controller' is not mounted writable at $CG_ROOT/$controller" \
    "mount it (mount -t cgroup -o $controller cgroup $CG_ROOT/$controller) or start without --cpu-per-worker/--mem-per-worker"
}

# cg_create NODE CPUS MEM_BYTES: CPUS like 0.5 (empty = no limit), MEM_BYTES (empty = no limit).
cg_create() {
  local node=$1 cpus=$2 mem=$3 dir quota
  if [[ -n $cpus ]]; then
    dir=$(cg_dir cpu "$node")
    net_record cgroup "$dir"
    mkdir -p "$dir"
    quota=$(awk -v c="$cpus" -v p="$CG_CPU_PERIOD_US" 'BEGIN { printf "%d", c * p }')
    echo "$CG_CPU_PERIOD_US" > "$dir/cpu.cfs_period_us"
    echo "$quota" > "$dir/cpu.cfs_quota_us"
  fi
  if [[ -n $mem ]]; then
    dir=$(cg_dir memory "$node")
    net_record cgroup "$dir"
    mkdir -p "$dir"
    echo "$mem" > "$dir/memory.limit_in_bytes"
  fi
}

# MaRCO's two machine-wide low-share cpu cgroups. A reduce's partial threads sit in mc-partial
# (mapreduce.marco.partial.cpu.cgroup, set in mapred-site.xml). mc-shuffle, for a reduce's whole
# JVM while it shuffles (mapreduce.marco.shuffle.cpu.cgroup), is made but on cgroup v1 not set:
# at 128 shares next to busy maps the JVM's own threads (GC, compiler) starved there and the
# shuffle ended later, with no gain in the map phase (docs/results.md); a job opts in with -D.
# cgroup v2 moves a thread only within its process's threaded subtree, so there mc-partial is
# mc-shuffle's threaded child and partial threads can reach it only from a JVM in mc-shuffle:
# on v2 the cluster sets both. YARN's default executor starts each
# container in a session of its own; with kernel.sched_autogroup_enabled=1 each session is a
# scheduling group of its own, and nice ranks threads only within their group: without these
# groups a shuffling reduce gets as much CPU as a map. Not with --cpu-per-worker: there a worker's
# containers share the worker's cgroup (nice works inside it), and a machine-wide cgroup would
# escape the quotas.
#
# A container's group weighs 1024 shares. Partial work gets the minimum, 2: only CPU that no one
# else wants. The shuffle gets 128, an eighth of a map's: fetching at tens of Mbit/s needs a few
# percent of a core, which 128 still gives next to busy maps, so the fetchers keep up with the
# network; all shuffling reduces together take at most about a ninth of a CPU from busy maps.
CG_PARTIAL_SHARES=2
CG_SHUFFLE_SHARES=128

# The cgroup v2 mount whose root offers the cpu controller (a v2-only host: $CG_ROOT; a hybrid
# one: $CG_ROOT/unified, which usually lacks cpu since v1 holds it), or nothing.
cg_v2_root() {
  local root
  for root in "$CG_ROOT" "$CG_ROOT/unified"; do
    if [[ -w $root/cgroup.subtree_control ]] && grep -qw cpu "$root/cgroup.controllers" 2>/dev/null; then
      echo "$root"
      return 0
    fi
  done
}

# v1 where the machine has a writable v1 cpu hierarchy, else v2; empty where neither.
cg_shuffle_dir() {
  local v2
  if [[ -w $CG_ROOT/cpu ]]; then
    cg_dir cpu shuffle
  else
    v2=$(cg_v2_root)
    if [[ -n $v2 ]]; then echo "$v2/$(mc_cgroup_name shuffle)"; fi
  fi
}

# v1 moves single threads anywhere: a sibling of mc-shuffle. v2 moves a thread only within its
# process's threaded subtree: a threaded child of mc-shuffle, where the reduce is when its partial
# threads start.
cg_partial_dir() {
  local shuffle
  if [[ -w $CG_ROOT/cpu ]]; then
    cg_dir cpu partial
  else
    shuffle=$(cg_shuffle_dir)
    if [[ -n $shuffle ]]; then echo "$shuffle/$(mc_cgroup_name partial)"; fi
  fi
}

# cgroup v2 weighs a cgroup by cpu.weight, default 100, where v1 has cpu.shares, default 1024; the
# kernel schedules weight W as W * 1024 / 100 shares. So the same share of a container's CPU is
# shares * 100 / 1024, rounded, at least 1: mc-partial 1 (2 shares), mc-shuffle 13 (128 shares).
cg_weight_of_shares() {
  local weight=$((($1 * 100 + 512) / 1024))
  echo $((weight < 1 ? 1 : weight))
}

# Enables the cpu controller for the children of cgroup v2 directory $1, unless it is already.
cg_v2_enable_cpu() {
  grep -qsw cpu "$1/cgroup.subtree_control" || echo +cpu > "$1/cgroup.subtree_control"
}

cg_create_marco() {
  local shuffle partial
  shuffle=$(cg_shuffle_dir)
  partial=$(cg_partial_dir)
  if [[ -z $shuffle ]]; then
    marco_log "no writable cgroup v1 cpu hierarchy at $CG_ROOT/cpu and no cgroup v2 with the cpu controller: MaRCO's reduces rely on nice alone"
    return 0
  fi
  net_record cgroup "$shuffle"
  mkdir -p "$shuffle"
  net_record cgroup "$partial"
  mkdir -p "$partial"
  if [[ -w $CG_ROOT/cpu ]]; then
    echo "$CG_SHUFFLE_SHARES" > "$shuffle/cpu.shares"
    echo "$CG_PARTIAL_SHARES" > "$partial/cpu.shares"
  elif ! cg_v2_setup "$shuffle" "$partial"; then
    marco_log "could not set up MaRCO's cgroup v2 cpu groups $shuffle and $partial: MaRCO's reduces rely on nice alone"
    cg_remove_dir "$partial"
    cg_remove_dir "$shuffle"
  fi
}

# Each step checked: this runs as an `if` condition, where set -e does not stop at a failure.
cg_v2_setup() {
  local shuffle=$1 partial=$2
  cg_v2_enable_cpu "$(dirname "$shuffle")" || return 1
  # The threaded child makes mc-shuffle a threaded domain, which may hold the reduces and the
  # partial threads below it at once.
  echo threaded > "$partial/cgroup.type" || return 1
  cg_v2_enable_cpu "$shuffle" || return 1
  cg_weight_of_shares "$CG_SHUFFLE_SHARES" > "$shuffle/cpu.weight" || return 1
  cg_weight_of_shares "$CG_PARTIAL_SHARES" > "$partial/cpu.weight" || return 1
}

# The mapred-site.xml lines that point MaRCO at its cgroups, if the cluster made them: mc-partial,
# and on cgroup v2 (where mc-partial needs it) mc-shuffle. Why not mc-shuffle on v1: above.
cg_marco_settings() {
  [[ -z ${CPU_PER_WORKER:-} ]] || return 0
  local dir
  dir=$(cg_shuffle_dir)
  if [[ -n $dir && -d $dir && ! -w $CG_ROOT/cpu ]]; then
    echo "mapred-site.xml mapreduce.marco.shuffle.cpu.cgroup=$dir"
  fi
  dir=$(cg_partial_dir)
  if [[ -n $dir && -d $dir ]]; then echo "mapred-site.xml mapreduce.marco.partial.cpu.cgroup=$dir"; fi
  return 0
}

# Shell snippet that moves the current shell ($$) into the node's cgroups, for a launch wrapper.
# It must run before `ip netns exec`, whose fresh /sys has no cgroup hierarchies.
cg_join_snippet() {
  local node=$1 controller dir snippet=""
  for controller in cpu memory; do
    dir=$(cg_dir "$controller" "$node")
    [[ -d $dir ]] && snippet+="echo \$\$ > $dir/cgroup.procs; "
  done
  printf '%s' "$snippet"
}

# Shell snippet, for inside `ip netns exec` (which mounts a fresh /sys without them), that mounts
# the machine's cgroup hierarchies at $CG_ROOT again, as a real host has them: MaRCO's reduces
# find mc-shuffle and mc-partial there. A v1 hierarchy mounted again with the same controllers is
# the same hierarchy, and v2 has only one. Failures are not fatal: a reduce that finds no cgroup
# says so and runs on.
cg_mount_snippet() {
  local snippet="" dev path type opts rest link
  while read -r dev path type opts rest; do
    [[ $path == "$CG_ROOT" || $path == "$CG_ROOT"/* ]] || continue
    snippet+="mkdir -p $path && mount -t $type -o $opts $dev $path || :; "
  done < /proc/mounts
  for link in "$CG_ROOT"/*; do  # e.g. cpu -> cpu,cpuacct
    if [[ -L $link ]]; then snippet+="ln -s $(readlink "$link") $link || :; "; fi
  done
  printf '%s' "$snippet"
}

cg_remove_dir() {
  local dir=$1 waited=0
  [[ -d $dir ]] || return 0
  # rmdir fails while a task is still in it; the daemons were killed just before, give the
  # kernel a moment to reap them.
  until rmdir "$dir" 2>/dev/null; do
    ((waited++ < 50)) || { marco_log "warning: could not remove cgroup $dir (tasks: $(tr '\n' ' ' < "$dir/cgroup.procs"))"; return 0; }
    sleep 0.1
  done
}

# Newest first: a cgroup v2 mc-partial lives inside mc-shuffle.
cg_teardown() {
  local node controller
  if [[ -f $STATE/created.list ]]; then
    while read -r kind name; do
      if [[ $kind == cgroup && ($name == $CG_ROOT/$MC_PREFIX-* || $name == $CG_ROOT/*/$MC_PREFIX-*) ]]; then
        cg_remove_dir "$name"
      fi
    done < <(tac "$STATE/created.list")
  fi
  for node in $(mc_all_possible_nodes); do
    for controller in cpu memory; do cg_remove_dir "$(cg_dir "$controller" "$node")"; done
  done
  cg_remove_dir "$(cg_partial_dir)"
  cg_remove_dir "$(cg_shuffle_dir)"
}
