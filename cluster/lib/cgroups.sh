# Optional per-worker CPU (CFS quota) and memory limits through cgroup v1. A worker's daemons,
# and the YARN containers they fork, join the worker's cgroups, so one machine can stand in for
# several smaller ones. Needs topology.sh, common.sh and net.sh (for net_record).

CG_ROOT=/sys/fs/cgroup
CG_CPU_PERIOD_US=100000

cg_dir() { echo "$CG_ROOT/$1/$(mc_cgroup_name "$2")"; }

cg_check_available() {
  local controller=$1
  [[ -w $CG_ROOT/$controller ]] || mc_die "cgroup v1 controller '$controller' is not mounted writable at $CG_ROOT/$controller" \
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

# The cpu cgroup that MaRCO's partial threads join (mapreduce.marco.partial.cpu.cgroup): one for the
# machine, at the lowest share, so partial work gets only CPU that no container wants. YARN's
# default executor starts each container in a session of its own; with
# kernel.sched_autogroup_enabled=1 each session is a scheduling group of its own, and nice ranks
# threads only within their group. Not with --cpu-per-worker: there a worker's containers share
# the worker's cgroup (nice works inside it), and a machine-wide cgroup would escape the quotas.
cg_partial_dir() { cg_dir cpu partial; }

cg_create_partial() {
  local dir
  dir=$(cg_partial_dir)
  if [[ ! -w $CG_ROOT/cpu ]]; then
    mc_log "no writable cgroup v1 cpu hierarchy at $CG_ROOT/cpu: MaRCO's partial threads rely on nice alone"
    return 0
  fi
  net_record cgroup "$dir"
  mkdir -p "$dir"
  echo 2 > "$dir/cpu.shares"
}

# The mapred-site.xml line that points MaRCO at the partial cgroup, if the cluster made one.
cg_partial_settings() {
  [[ -z ${CPU_PER_WORKER:-} && -d $(cg_partial_dir) ]] && echo "mapred-site.xml mapreduce.marco.partial.cpu.cgroup=$(cg_partial_dir)"
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
# the machine's cgroup hierarchies at $CG_ROOT again, as a real host has them: MaRCO's partial
# threads find mc-partial there. A v1 hierarchy mounted again with the same controllers is the
# same hierarchy. Failures are not fatal: a partial thread that finds no cgroup says so and runs on.
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
    ((waited++ < 50)) || { mc_log "warning: could not remove cgroup $dir (tasks: $(tr '\n' ' ' < "$dir/cgroup.procs"))"; return 0; }
    sleep 0.1
  done
}

cg_teardown() {
  local node controller
  if [[ -f $STATE/created.list ]]; then
    while read -r kind name; do
      if [[ $kind == cgroup && $name == $CG_ROOT/*/$MC_PREFIX-* ]]; then cg_remove_dir "$name"; fi
    done < "$STATE/created.list"
  fi
  for node in $(mc_all_possible_nodes); do
    for controller in cpu memory; do cg_remove_dir "$(cg_dir "$controller" "$node")"; done
  done
  cg_remove_dir "$(cg_partial_dir)"
}
