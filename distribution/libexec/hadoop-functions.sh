# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# shellcheck shell=bash
# The one library behind bin/hadoop, bin/hdfs, bin/yarn, bin/mapred and sbin/*.sh: it resolves the
# environment, builds the classpath and JVM options, and runs a Java main class either in the
# foreground or as a background daemon with a pid file and log files. Sourced, never executed.
#
# Apache Hadoop's own shell scripts are not published to Maven Central, so hadoop-marco ships these
# instead. They honour the environment variables a Hadoop 3 user knows (docs/distribution.md).

# Java 17 closes the JDK internals that Hadoop reflects into; build.sh fills in the list from the
# root pom.xml (property marco.test.jvm.opens), the same list the tests and the containers use.
HM_JAVA_OPENS="@JAVA_OPENS@"
HM_HADOOP_VERSION="@HADOOP_VERSION@"
HM_MARCO_VERSION="@MARCO_VERSION@"

# marco_die (bad input, exit 2) and marco_fail (failed work, exit 1): the project's one way to fail,
# the same as in its cluster and build scripts.
# shellcheck source=../../lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/marco-common.sh"

# Resolves HADOOP_HOME, HADOOP_CONF_DIR, JAVA_HOME and the log/pid directories, and exports what
# YARN containers inherit from the NodeManager (its env-whitelist in yarn-site.xml).
hm_init_environment() {
  local libexec_dir
  libexec_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
  export HADOOP_HOME=${HADOOP_HOME:-$(dirname "$libexec_dir")}
  [[ -d $HADOOP_HOME/share/hadoop/common ]] ||
    marco_fail "HADOOP_HOME=$HADOOP_HOME holds no share/hadoop/common" \
      "unset HADOOP_HOME or point it at the hadoop-marco distribution"
  export HADOOP_CONF_DIR=${HADOOP_CONF_DIR:-$HADOOP_HOME/etc/hadoop}
  [[ -d $HADOOP_CONF_DIR ]] ||
    marco_fail "configuration directory HADOOP_CONF_DIR=$HADOOP_CONF_DIR does not exist" \
      "create it (copy $HADOOP_HOME/etc/hadoop) or fix the path"
  if [[ -f $HADOOP_CONF_DIR/hadoop-env.sh ]]; then
    # shellcheck source=/dev/null
    source "$HADOOP_CONF_DIR/hadoop-env.sh"
  fi
  hm_resolve_java
  export HADOOP_COMMON_HOME=${HADOOP_COMMON_HOME:-$HADOOP_HOME}
  export HADOOP_HDFS_HOME=${HADOOP_HDFS_HOME:-$HADOOP_HOME}
  export HADOOP_YARN_HOME=${HADOOP_YARN_HOME:-$HADOOP_HOME}
  export HADOOP_MAPRED_HOME=${HADOOP_MAPRED_HOME:-$HADOOP_HOME}
  export HADOOP_LOG_DIR=${HADOOP_LOG_DIR:-$HADOOP_HOME/logs}
  export HADOOP_PID_DIR=${HADOOP_PID_DIR:-$HADOOP_HOME/pids}
  export HADOOP_IDENT_STRING=${HADOOP_IDENT_STRING:-${USER:-$(id -un)}}
  HADOOP_STOP_TIMEOUT=${HADOOP_STOP_TIMEOUT:-10}
}

# Containers run $JAVA_HOME/bin/java, so JAVA_HOME must be set even when java merely is on PATH.
hm_resolve_java() {
  if [[ -z ${JAVA_HOME:-} ]]; then
    local java_on_path
    java_on_path=$(command -v java) ||
      marco_fail "no java found" "install a JDK 17 (Debian: apt-get install openjdk-17-jdk-headless) or set JAVA_HOME"
    JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$java_on_path")")")
  fi
  export JAVA_HOME
  [[ -x $JAVA_HOME/bin/java ]] || marco_fail "JAVA_HOME=$JAVA_HOME has no bin/java" "set JAVA_HOME to a JDK 17"
  HM_JAVA=$JAVA_HOME/bin/java
}

# Hadoop's layout: configuration first, then each component's jars; third-party jars are shared.
# share/hadoop/hdfs itself is on the classpath for its webapps/ (NameNode and DataNode web UIs).
hm_classpath() {
  local share=$HADOOP_HOME/share/hadoop
  local cp="$HADOOP_CONF_DIR:$share/common/*:$share/common/lib/*:$share/hdfs:$share/hdfs/*:$share/yarn/*:$share/mapreduce/*"
  if [[ -n ${HADOOP_CLASSPATH:-} ]]; then
    if [[ -n ${HADOOP_USER_CLASSPATH_FIRST:-} ]]; then
      cp="$HADOOP_CLASSPATH:$cp"
    else
      cp="$cp:$HADOOP_CLASSPATH"
    fi
  fi
  printf '%s\n' "$cp"
}

# Heap: HADOOP_HEAPSIZE_MAX (Hadoop 3) or HADOOP_HEAPSIZE (Hadoop 2); a bare number means MB.
hm_heap_option() {
  local heap=${HADOOP_HEAPSIZE_MAX:-${HADOOP_HEAPSIZE:-}}
  [[ -z $heap ]] && return 0
  [[ $heap =~ ^[0-9]+$ ]] && heap="${heap}m"
  [[ $heap =~ ^[0-9]+[kKmMgG]$ ]] ||
    marco_die "HADOOP_HEAPSIZE_MAX=$heap is not a heap size" "use a number of MB (1024) or a size like 2g"
  printf '%s\n' "-Xmx$heap"
}

# Fills HM_JVM_ARGS for process NAME (its log file name) with ROOT_LOGGER (level,appender), and the
# words of the per-role options variable named by OPTS_VAR (e.g. HDFS_NAMENODE_OPTS).
hm_build_jvm_args() {
  local name=$1 root_logger=$2 opts_var=$3
  local log_file
  log_file="hadoop-$HADOOP_IDENT_STRING-$name-$(hostname).log"
  local heap_option
  heap_option=$(hm_heap_option) || exit
  local -a opens heap user_opts role_opts
  read -ra opens <<<"$HM_JAVA_OPENS"
  read -ra heap <<<"$heap_option"
  read -ra user_opts <<<"${HADOOP_OPTS:-}"
  read -ra role_opts <<<"${!opts_var:-}"
  HM_JVM_ARGS=("-Dproc_$name" "${heap[@]}" -Djava.net.preferIPv4Stack=true "${opens[@]}"
    "-Dhadoop.log.dir=$HADOOP_LOG_DIR" "-Dhadoop.log.file=$log_file"
    "-Dyarn.log.dir=$HADOOP_LOG_DIR" "-Dyarn.log.file=$log_file"
    "-Dhadoop.home.dir=$HADOOP_HOME" "-Dyarn.home.dir=$HADOOP_HOME"
    "-Dhadoop.id.str=$HADOOP_IDENT_STRING"
    "-Dhadoop.root.logger=$root_logger" "-Dyarn.root.logger=$root_logger"
    "-Dhadoop.policy.file=hadoop-policy.xml"
    "${user_opts[@]}" "${role_opts[@]}")
}

# Runs CLASS in the foreground, replacing the shell. Clients log to stderr.
hm_exec_class() {
  local name=$1 opts_var=$2 class=$3
  shift 3
  hm_build_jvm_args "$name" "${HADOOP_ROOT_LOGGER:-INFO,console}" "$opts_var"
  exec "$HM_JAVA" "${HM_JVM_ARGS[@]}" -cp "$(hm_classpath)" "$class" "$@"
}

hm_pid_file() {
  printf '%s\n' "$HADOOP_PID_DIR/hadoop-$HADOOP_IDENT_STRING-$1.pid"
}

# True while PID is a live (not zombie) process started as daemon NAME (its command line carries
# -Dproc_NAME). Pids are reused quickly (pid_max may be 32768), so a bare kill -0 is not enough.
hm_pid_is_daemon() {
  local pid=$1 name=$2 cmdline state
  state=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$pid/status" 2>/dev/null) || return 1
  [[ -n $state && $state != Z ]] || return 1
  cmdline=$(tr '\0' '\n' 2>/dev/null <"/proc/$pid/cmdline") || return 1
  [[ $'\n'$cmdline$'\n' == *$'\n'-Dproc_$name$'\n'* ]]
}

# Prints the pid of daemon NAME if its pid file names a live process started as that daemon; a
# stale pid file (dead process, or a pid the kernel reused for something else) counts as not running.
hm_running_pid() {
  local pid_file pid
  pid_file=$(hm_pid_file "$1")
  [[ -f $pid_file ]] || return 1
  pid=$(<"$pid_file")
  [[ $pid =~ ^[0-9]+$ ]] && hm_pid_is_daemon "$pid" "$1" || return 1
  printf '%s\n' "$pid"
}

# hm_daemon ACTION NAME OPTS_VAR CLASS [ARGS...]: start|stop|status one background daemon.
hm_daemon() {
  local action=$1
  shift
  case $action in
    start) hm_daemon_start "$@" ;;
    stop) hm_daemon_stop "$1" ;;
    status) hm_daemon_status "$1" ;;
    *) marco_die "--daemon takes start, stop or status, not '$action'" ;;
  esac
}

hm_daemon_status() {
  local pid
  if pid=$(hm_running_pid "$1"); then
    echo "$1 is running as process $pid"
  else
    echo "$1 is not running"
    return 1
  fi
}

hm_daemon_start() {
  local name=$1 opts_var=$2 class=$3
  shift 3
  local pid pid_file out_file
  mkdir -p "$HADOOP_PID_DIR" "$HADOOP_LOG_DIR"
  pid_file=$(hm_pid_file "$name")
  # Two concurrent starts of one daemon must not both launch it.
  exec 9>"$pid_file.lock"
  flock -n 9 || marco_fail "another start of $name is in progress (lock $pid_file.lock)"
  if pid=$(hm_running_pid "$name"); then
    echo "$name is already running as process $pid; not starting a second one."
    return 0
  fi
  out_file="$HADOOP_LOG_DIR/hadoop-$HADOOP_IDENT_STRING-$name-$(hostname).out"
  hm_build_jvm_args "$name" "${HADOOP_DAEMON_ROOT_LOGGER:-INFO,RFA}" "$opts_var"
  nohup "$HM_JAVA" "${HM_JVM_ARGS[@]}" -cp "$(hm_classpath)" "$class" "$@" \
    >"$out_file" 2>&1 </dev/null 9>&- &
  pid=$!
  echo "$pid" >"$pid_file"
  # A daemon with a bad configuration usually dies within a second; report that here, not later.
  sleep 1
  if ! hm_pid_is_daemon "$pid" "$name"; then
    rm -f "$pid_file"
    marco_error "$name exited right after starting; last lines of $out_file:"
    tail -n 20 "$out_file" >&2
    return 1
  fi
  echo "started $name as process $pid (log: $HADOOP_LOG_DIR/hadoop-$HADOOP_IDENT_STRING-$name-$(hostname).log)"
}

# SIGTERM the exact pid from the pid file, wait HADOOP_STOP_TIMEOUT seconds, then SIGKILL that pid.
hm_daemon_stop() {
  local name=$1 pid pid_file waited=0
  pid_file=$(hm_pid_file "$name")
  if ! pid=$(hm_running_pid "$name"); then
    rm -f "$pid_file"
    echo "no $name to stop"
    return 0
  fi
  echo "stopping $name (process $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  while hm_pid_is_daemon "$pid" "$name" && ((waited < HADOOP_STOP_TIMEOUT * 10)); do
    sleep 0.1
    waited=$((waited + 1))
  done
  if hm_pid_is_daemon "$pid" "$name"; then
    echo "$name did not stop within ${HADOOP_STOP_TIMEOUT}s; sending SIGKILL to process $pid"
    kill -KILL "$pid" 2>/dev/null || true
    while hm_pid_is_daemon "$pid" "$name"; do sleep 0.1; done
  fi
  rm -f "$pid_file"
}

# Parses the options every launcher shares, then dispatches SUBCOMMAND via the launcher's
# hm_resolve_subcommand, which sets HM_CLASS, HM_OPTS_VAR and HM_IS_DAEMON (and may prepend to
# HM_CLASS_ARGS). Usage goes to stderr with a non-zero exit for anything unknown.
hm_main() {
  local daemon_action=""
  while (($#)); do
    case $1 in
      --config)
        (($# >= 2)) || hm_usage_error "--config needs a directory"
        export HADOOP_CONF_DIR=$2
        shift 2
        ;;
      --daemon)
        (($# >= 2)) || hm_usage_error "--daemon needs start, stop or status"
        daemon_action=$2
        shift 2
        ;;
      --loglevel)
        (($# >= 2)) || hm_usage_error "--loglevel needs a level such as DEBUG"
        HADOOP_ROOT_LOGGER="$2,console"
        HADOOP_DAEMON_ROOT_LOGGER="$2,RFA"
        shift 2
        ;;
      -h | --help | help)
        hm_usage
        exit 0
        ;;
      --*) hm_usage_error "unknown option '$1'" ;;
      *) break ;;
    esac
  done
  (($#)) || hm_usage_error "no subcommand given"
  local subcommand=$1
  shift
  hm_init_environment
  HM_CLASS="" HM_OPTS_VAR=HADOOP_CLIENT_OPTS HM_IS_DAEMON=no HM_CLASS_ARGS=()
  case $subcommand in
    classpath)
      if (($#)); then HM_CLASS=org.apache.hadoop.util.Classpath; else hm_classpath; exit 0; fi
      ;;
    # Hadoop's own lines first (tools read "Hadoop X" from the first), then hadoop-marco's.
    version) HM_CLASS=org.apache.hadoop.mapreduce.marco.MarcoVersion ;;
    jar) HM_CLASS=org.apache.hadoop.util.RunJar ;;
    envvars) hm_print_envvars; exit 0 ;;
    *) hm_resolve_subcommand "$subcommand" "$@" || hm_usage_error "unknown subcommand '$subcommand'" ;;
  esac
  if [[ -n $daemon_action ]]; then
    [[ $HM_IS_DAEMON == yes ]] ||
      hm_usage_error "'$subcommand' is not a daemon; --daemon works with the daemons listed below"
    hm_daemon "$daemon_action" "$subcommand" "$HM_OPTS_VAR" "$HM_CLASS" "${HM_CLASS_ARGS[@]}" "$@"
  else
    hm_exec_class "$subcommand" "$HM_OPTS_VAR" "$HM_CLASS" "${HM_CLASS_ARGS[@]}" "$@"
  fi
}

hm_usage_error() {
  hm_usage >&2
  marco_die "$*" "see the usage above"
}

hm_print_envvars() {
  local var
  for var in JAVA_HOME HADOOP_HOME HADOOP_CONF_DIR HADOOP_LOG_DIR HADOOP_PID_DIR HADOOP_IDENT_STRING \
    HADOOP_COMMON_HOME HADOOP_HDFS_HOME HADOOP_YARN_HOME HADOOP_MAPRED_HOME; do
    echo "$var='${!var}'"
  done
}

# The lines every launcher's usage shares.
hm_common_usage() {
  cat <<EOF
Options:
  --config DIR                configuration directory (default: \$HADOOP_CONF_DIR or HADOOP_HOME/etc/hadoop)
  --daemon start|stop|status  run a daemon subcommand in the background with pid and log files
  --loglevel LEVEL            log level for this command (DEBUG, INFO, WARN, ...)
  --help                      this text

Subcommands of every launcher:
  classpath [--glob|--jar F]  print the classpath
  envvars                     print the environment the launcher resolved
  jar JAR [MAINCLASS] ARGS    run a jar
  version                     print the Hadoop version ($HM_HADOOP_VERSION) and hadoop-marco's ($HM_MARCO_VERSION)
EOF
}
