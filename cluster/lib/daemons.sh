# Hadoop daemons of the one-machine cluster, run through the distribution's launchers
# (bin/hdfs, bin/yarn, bin/mapred with --daemon start|stop|status). Each node gets its own conf,
# pid, log, tmp, data and local dirs under "$STATE/nodes/<node>", because all nodes share one
# filesystem. Needs topology.sh, common.sh, cgroups.sh; uses DIST and STATE.

HCONF="$(dirname "${BASH_SOURCE[0]}")/hadoop_conf.py"
MASTER_DAEMONS="namenode resourcemanager historyserver"
WORKER_DAEMONS="datanode nodemanager"

# Ports the master serves on; the workers' ports are Hadoop's defaults, free in every namespace.
NN_RPC_PORT=9000
NN_HTTP_PORT=9870
RM_HTTP_PORT=8088
JHS_RPC_PORT=10020
JHS_HTTP_PORT=19888

dm_launcher_of() {
  case $1 in
    namenode|datanode) echo hdfs ;;
    resourcemanager|nodemanager) echo yarn ;;
    historyserver) echo mapred ;;
  esac
}

# Heap per daemon: small, so that 4 workers + master + YARN containers fit in 24 GiB with room.
dm_heap_of() {
  case $1 in
    namenode|resourcemanager) echo 512m ;;
    nodemanager) echo 384m ;;
    datanode|historyserver) echo 256m ;;
  esac
}

dm_node_dir() { echo "$STATE/nodes/$1"; }
dm_daemons_of() { if [[ $1 == master ]]; then echo "$MASTER_DAEMONS"; else echo "$WORKER_DAEMONS"; fi; }

# Environment the launchers read: where this node's conf, pids and logs live.
dm_env() {
  local dir
  dir=$(dm_node_dir "$1")
  printf '%s\n' "HADOOP_CONF_DIR=$dir/conf" "HADOOP_PID_DIR=$dir/pids" "HADOOP_LOG_DIR=$dir/logs" \
    "HADOOP_HEAPSIZE_MAX=$(dm_heap_of "${2:-}")"
}

# Settings every node and the client share.
dm_common_overrides() {
  local conf=$1
  python3 "$HCONF" "$conf/core-site.xml" \
    "fs.defaultFS=hdfs://master:$NN_RPC_PORT"
  python3 "$HCONF" "$conf/hdfs-site.xml" \
    "dfs.replication=$REPLICATION" \
    "dfs.permissions.enabled=false" \
    "dfs.namenode.http-address=0.0.0.0:$NN_HTTP_PORT"
  python3 "$HCONF" "$conf/yarn-site.xml" \
    "yarn.resourcemanager.hostname=master" \
    "yarn.resourcemanager.webapp.address=0.0.0.0:$RM_HTTP_PORT" \
    "yarn.scheduler.minimum-allocation-mb=256" \
    "yarn.scheduler.maximum-allocation-mb=$NM_MEMORY_MB" \
    "yarn.scheduler.maximum-allocation-vcores=$NM_VCORES" \
    "yarn.log-aggregation-enable=false"
  python3 "$HCONF" "$conf/mapred-site.xml" \
    "mapreduce.framework.name=yarn" \
    "mapreduce.jobhistory.address=master:$JHS_RPC_PORT" \
    "mapreduce.jobhistory.webapp.address=0.0.0.0:$JHS_HTTP_PORT"
}

# dm_write_conf NODE: the distribution's etc/hadoop plus this node's dirs and resources.
dm_write_conf() {
  local node=$1 dir conf
  dir=$(dm_node_dir "$node")
  conf=$dir/conf
  mkdir -p "$conf" "$dir/pids" "$dir/logs" "$dir/tmp" "$dir/data" "$dir/local"
  cp -r "$DIST/etc/hadoop/." "$conf/"
  dm_common_overrides "$conf"
  python3 "$HCONF" "$conf/core-site.xml" "hadoop.tmp.dir=$dir/tmp"
  python3 "$HCONF" "$conf/hdfs-site.xml" \
    "dfs.namenode.name.dir=$dir/data/name" \
    "dfs.datanode.data.dir=$dir/data/dn"
  python3 "$HCONF" "$conf/yarn-site.xml" \
    "yarn.nodemanager.local-dirs=$dir/local" \
    "yarn.nodemanager.log-dirs=$dir/logs/userlogs" \
    "yarn.nodemanager.resource.memory-mb=$NM_MEMORY_MB" \
    "yarn.nodemanager.resource.cpu-vcores=$NM_VCORES" \
    "yarn.nodemanager.aux-services=mapreduce_shuffle" \
    "yarn.nodemanager.aux-services.mapreduce_shuffle.class=org.apache.hadoop.mapred.ShuffleHandler" \
    "yarn.nodemanager.vmem-check-enabled=false"
  python3 "$HCONF" "$conf/mapred-site.xml" \
    "mapreduce.jobhistory.intermediate-done-dir=/mr-history/tmp" \
    "mapreduce.jobhistory.done-dir=/mr-history/done"
}

# The client runs in the root network namespace with the master's settings minus server dirs.
dm_write_client_conf() {
  local conf=$STATE/client/conf
  mkdir -p "$conf"
  cp -r "$DIST/etc/hadoop/." "$conf/"
  dm_common_overrides "$conf"
  python3 "$HCONF" "$conf/core-site.xml" "hadoop.tmp.dir=$STATE/client/tmp"
  python3 "$HCONF" "$conf/mapred-site.xml" \
    "mapreduce.jobhistory.intermediate-done-dir=/mr-history/tmp" \
    "mapreduce.jobhistory.done-dir=/mr-history/done"
}

# dm_in_node NODE COMMAND...: run COMMAND inside NODE's namespace, with NODE as hostname (its own
# UTS namespace: `ip netns exec` keeps the root's hostname and Java would then resolve itself
# wrongly), inside the node's cgroups. Processes it forks stay in all three.
dm_in_node() {
  local node=$1; shift
  ip netns exec "$(mc_node_ns "$node")" unshare --uts \
    sh -c "$(cg_join_snippet "$node")hostname $node && exec \"\$@\"" sh "$@"
}

# dm_launch NODE DAEMON ARGS...: the daemon's launcher with the node's environment, inside the node.
dm_launch() {
  local node=$1 daemon=$2; shift 2
  (
    export $(dm_env "$node" "$daemon")
    dm_in_node "$node" "$DIST/bin/$(dm_launcher_of "$daemon")" "$@"
  )
}

# Stop and status only read pid files and /proc, so they run from the root namespace.
dm_launcher() {
  local node=$1 daemon=$2 action=$3
  (
    export $(dm_env "$node" "$daemon")
    "$DIST/bin/$(dm_launcher_of "$daemon")" --daemon "$action" "$daemon"
  )
}

dm_format_namenode() {
  local log
  log=$(dm_node_dir master)/logs/namenode-format.out
  dm_launch master namenode namenode -format -force -nonInteractive > "$log" 2>&1 ||
    { tail -n 20 "$log" >&2; mc_die "formatting the NameNode failed (log: $log)"; }
}

dm_start() {
  local node=$1 daemon=$2 out
  out=$(dm_launch "$node" "$daemon" --daemon start "$daemon" 2>&1) ||
    mc_die "$daemon on $node did not start: $out" "read the logs in $(dm_node_dir "$node")/logs"
  mc_log "$node: $out"
}

dm_stop() { dm_launcher "$1" "$2" stop >/dev/null 2>&1 || true; }

# "running (pid N)" or "stopped" for one daemon.
dm_status() {
  local out
  if out=$(dm_launcher "$1" "$2" status 2>/dev/null); then
    echo "running (pid ${out##* })"
  else
    echo "stopped"
  fi
}

dm_pid_files() { ls "$STATE"/nodes/*/pids/*.pid 2>/dev/null || true; }
