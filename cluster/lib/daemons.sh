# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# shellcheck shell=bash
# Hadoop daemons of the one-machine cluster, run through the distribution's launchers
# (bin/hdfs, bin/yarn, bin/mapred with --daemon start|stop|status). Each node gets its own conf,
# pid, log, tmp, data and local dirs under "$STATE/nodes/<node>", because all nodes share one
# filesystem. Needs topology.sh, common.sh, cgroups.sh; uses DIST and STATE.

HCONF="$(dirname "${BASH_SOURCE[0]}")/hadoop_conf.py"
MASTER_DAEMONS="namenode resourcemanager historyserver nodemanager"
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

# JVM options of the daemons: eleven JVMs share a few cores here, so they start with the C1
# compiler only and the serial collector (fewer compiler and GC threads, faster start-up).
DM_DAEMON_JVM_OPTS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
# The distribution's AppMaster hook (etc/hadoop/mapred-site.xml), named again where this cluster
# sets the AppMaster's command-opts.
DM_AM_CLASS=org.apache.hadoop.mapreduce.v2.app.MarcoMRAppMaster

# Environment the launchers read: where this node's conf, pids and logs live, heap and JVM options.
dm_export_env() {
  local dir
  dir=$(dm_node_dir "$1")
  export HADOOP_CONF_DIR=$dir/conf HADOOP_PID_DIR=$dir/pids HADOOP_LOG_DIR=$dir/logs
  HADOOP_HEAPSIZE_MAX=$(dm_heap_of "${2:-}")
  export HADOOP_HEAPSIZE_MAX HADOOP_OPTS=$DM_DAEMON_JVM_OPTS
}

# The master's NodeManager runs the jobs' ApplicationMasters and nothing else: it is the one node
# of an exclusive node-label partition, which every job's AM asks for and no task does. As the
# MaRCO paper's JobTracker ran on its master, every worker then offers the same room to maps and
# reduces. With the AM on a worker, that worker ran a map less at a time than the others, its
# group sent the other group fewer map outputs than it received, and the reduces across the
# throttled link waited on the busier group; the task-to-AM calls of the other group crossed
# that link too. The partition holds three AMs (512 MB each).
DM_AM_LABEL=appmaster
DM_AM_NODE_MEMORY_MB=1536

# Settings every node and the client share, as "FILE key=value" lines for hadoop_conf.py.
dm_common_settings() {
  cat <<EOF
core-site.xml fs.defaultFS=hdfs://master:$NN_RPC_PORT
hdfs-site.xml dfs.replication=$REPLICATION
hdfs-site.xml dfs.permissions.enabled=false
hdfs-site.xml dfs.namenode.http-address=0.0.0.0:$NN_HTTP_PORT
yarn-site.xml yarn.resourcemanager.hostname=master
yarn-site.xml yarn.resourcemanager.webapp.address=0.0.0.0:$RM_HTTP_PORT
yarn-site.xml yarn.scheduler.minimum-allocation-mb=256
yarn-site.xml yarn.scheduler.maximum-allocation-mb=$NM_MEMORY_MB
yarn-site.xml yarn.scheduler.maximum-allocation-vcores=$NM_VCORES
yarn-site.xml yarn.log-aggregation-enable=false
yarn-site.xml yarn.log.server.url=http://master:$JHS_HTTP_PORT/jobhistory/logs
mapred-site.xml mapreduce.framework.name=yarn
mapred-site.xml mapreduce.jobhistory.address=master:$JHS_RPC_PORT
mapred-site.xml mapreduce.jobhistory.webapp.address=0.0.0.0:$JHS_HTTP_PORT
mapred-site.xml mapreduce.jobhistory.intermediate-done-dir=/mr-history/tmp
mapred-site.xml mapreduce.jobhistory.done-dir=/mr-history/done
yarn-site.xml yarn.node-labels.enabled=true
yarn-site.xml yarn.node-labels.fs-store.root-dir=file://$(dm_node_dir master)/tmp/node-labels
capacity-scheduler.xml yarn.scheduler.capacity.root.accessible-node-labels=$DM_AM_LABEL
capacity-scheduler.xml yarn.scheduler.capacity.root.accessible-node-labels.$DM_AM_LABEL.capacity=100
capacity-scheduler.xml yarn.scheduler.capacity.root.default.accessible-node-labels=$DM_AM_LABEL
capacity-scheduler.xml yarn.scheduler.capacity.root.default.accessible-node-labels.$DM_AM_LABEL.capacity=100
capacity-scheduler.xml yarn.scheduler.capacity.root.default.accessible-node-labels.$DM_AM_LABEL.maximum-am-resource-percent=1.0
mapred-site.xml mapreduce.job.am.node-label-expression=$DM_AM_LABEL
mapred-site.xml mapreduce.marco.stagger.non.task.nodes=1
EOF
  # An HDFS client that closes a file before the DataNode has reported the last block to the
  # NameNode asks again after a back-off, 400 ms by default (then doubling). On this machine
  # almost every close asks too early, so each file a job writes cost 0 or 400 ms at random,
  # in every variant: each reduce's output and the AppMaster's two history copies, which the
  # client waits for before it returns. A 50 ms first back-off keeps the retries and takes most of
  # that noise out of the job times.
  cat <<EOF
hdfs-site.xml dfs.client.block.write.locateFollowingBlock.initial.delay.ms=50
EOF
  # Task containers smaller than the distribution's single-node defaults, so that each worker
  # runs several at once (the heap follows from memory.mb via mapreduce.job.heap.memory-mb.ratio).
  # The ApplicationMaster too: at the distribution's 1024 MB, its node had no room for a reduce
  # next to a map, so one reduce of every job started only when the maps ended, on whichever
  # node had room. At 512 MB every worker holds a reduce and a map at once. Its command-opts keep
  # MaRCO's AM hook, the class name after the JVM options.
  cat <<EOF
mapred-site.xml mapreduce.map.memory.mb=512
mapred-site.xml mapreduce.reduce.memory.mb=768
mapred-site.xml yarn.app.mapreduce.am.resource.mb=512
mapred-site.xml yarn.app.mapreduce.am.command-opts=-Xmx384m $DM_AM_CLASS
EOF
  # The AM is one more JVM on the same few cores: C1 and the serial collector, as the daemons.
  # Appended to the distribution's admin options, so a job's own command-opts stay its own.
  echo "mapred-site.xml yarn.app.mapreduce.am.admin-command-opts+=$DM_DAEMON_JVM_OPTS"
  if ((${CLASS_ARCHIVE:-0})); then ca_settings; fi
  cg_marco_settings
}

# The settings of one node: its own dirs, and the NodeManager's resources and shuffle service.
# The ResourceManager's node-attribute store defaults to /tmp/hadoop-yarn-USER, not hadoop.tmp.dir.
dm_node_settings() {
  local dir=$1 memory_mb=$NM_MEMORY_MB
  [[ $dir == "$(dm_node_dir master)" ]] && memory_mb=$DM_AM_NODE_MEMORY_MB
  cat <<EOF
core-site.xml hadoop.tmp.dir=$dir/tmp
yarn-site.xml yarn.node-attribute.fs-store.root-dir=file://$dir/tmp/node-attribute
hdfs-site.xml dfs.namenode.name.dir=$dir/data/name
hdfs-site.xml dfs.datanode.data.dir=$dir/data/dn
yarn-site.xml yarn.nodemanager.local-dirs=$dir/local
yarn-site.xml yarn.nodemanager.log-dirs=$dir/logs/userlogs
yarn-site.xml yarn.nodemanager.resource.memory-mb=$memory_mb
yarn-site.xml yarn.nodemanager.resource.cpu-vcores=$NM_VCORES
yarn-site.xml yarn.nodemanager.aux-services=mapreduce_shuffle
yarn-site.xml yarn.nodemanager.aux-services.mapreduce_shuffle.class=org.apache.hadoop.mapred.ShuffleHandler
yarn-site.xml yarn.nodemanager.vmem-check-enabled=false
EOF
}

# dm_write_conf NODE: the distribution's etc/hadoop plus this node's settings.
dm_write_conf() {
  local dir
  dir=$(dm_node_dir "$1")
  mkdir -p "$dir/conf" "$dir/pids" "$dir/logs" "$dir/tmp" "$dir/data" "$dir/local"
  cp -r "$DIST/etc/hadoop/." "$dir/conf/"
  { dm_common_settings; dm_node_settings "$dir"; } | python3 "$HCONF" "$dir/conf"
}

# The client runs in the root network namespace with the shared settings and a tmp dir of its own.
dm_write_client_conf() {
  local conf=$STATE/client/conf
  mkdir -p "$conf"
  cp -r "$DIST/etc/hadoop/." "$conf/"
  # The local job runner (data generation in the client JVM) stages under
  # /tmp/hadoop/mapred/staging unless told otherwise.
  { dm_common_settings
    echo "core-site.xml hadoop.tmp.dir=$STATE/client/tmp"
    echo "mapred-site.xml mapreduce.jobtracker.staging.root.dir=$STATE/client/tmp/mapred/staging"
  } | python3 "$HCONF" "$conf"
}

# dm_in_node NODE COMMAND...: run COMMAND inside NODE's namespace, with NODE as hostname (its own
# UTS namespace: `ip netns exec` keeps the root's hostname and Java would then resolve itself
# wrongly), inside the node's cgroups (joined before `ip netns exec` hides them), with the cgroup
# hierarchies mounted again at /sys/fs/cgroup. Processes it forks stay in all of them.
dm_in_node() {
  local node=$1; shift
  sh -c "$(cg_join_snippet "$node")exec \"\$@\"" sh \
    ip netns exec "$(mc_node_ns "$node")" unshare --uts \
    sh -c "$(cg_mount_snippet)hostname $node && exec \"\$@\"" sh "$@"
}

# dm_launch NODE DAEMON ARGS...: the daemon's launcher with the node's environment, inside the node.
dm_launch() {
  local node=$1 daemon=$2; shift 2
  (
    dm_export_env "$node" "$daemon"
    dm_in_node "$node" "$DIST/bin/$(dm_launcher_of "$daemon")" "$@"
  )
}

# Stop and status only read pid files and /proc, so they run from the root namespace.
dm_launcher() {
  local node=$1 daemon=$2 action=$3
  (
    dm_export_env "$node" "$daemon"
    "$DIST/bin/$(dm_launcher_of "$daemon")" --daemon "$action" "$daemon"
  )
}

dm_format_namenode() {
  local log
  log=$(dm_node_dir master)/logs/namenode-format.out
  dm_launch master namenode namenode -format -force -nonInteractive > "$log" 2>&1 ||
    { tail -n 20 "$log" >&2; marco_fail "formatting the NameNode failed (log: $log)"; }
}

dm_start() {
  local node=$1 daemon=$2 out
  out=$(dm_launch "$node" "$daemon" --daemon start "$daemon" 2>&1) ||
    marco_fail "$daemon on $node did not start: $out" "read the logs in $(dm_node_dir "$node")/logs"
  marco_log "$node: $out"
}

dm_stop() { dm_launcher "$1" "$2" stop >/dev/null 2>&1 || true; }

# dm_start_all NODE:DAEMON...: start them all at once (each launcher waits a second to see its JVM
# survive; JVM start-up is the slow part). HDFS and YARN daemons retry their master on their own.
dm_start_all() {
  local item pids=() failed=0 i=0
  for item in "$@"; do
    dm_start "${item%%:*}" "${item#*:}" &
    pids+=($!)
  done
  for item in "$@"; do
    wait "${pids[i]}" || failed=1
    i=$((i + 1))
  done
  ((failed == 0)) || marco_fail "a daemon did not start (see above)" "read the logs: marco-cluster logs"
}

# dm_stop_all NODE:DAEMON...: stop them all at once; each launcher waits for its own pid.
dm_stop_all() {
  local item
  for item in "$@"; do dm_stop "${item%%:*}" "${item#*:}" & done
  wait
}

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
