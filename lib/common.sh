# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# shellcheck shell=bash
# Small helpers shared by cluster/ and bandwidth-shaping/ scripts.

mc_log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

# Fail with a message that says what is wrong and what to do about it.
mc_die() {
  printf 'error: %s\n' "$1" >&2
  [[ $# -ge 2 ]] && printf 'fix:   %s\n' "$2" >&2
  exit 2
}

mc_require_root() {
  [[ $(id -u) -eq 0 ]] || mc_die "this needs root (network namespaces, tc, cgroups)" "run it as root, e.g. with sudo"
}

mc_require_cmd() {
  local cmd
  for cmd in "$@"; do
    command -v "$cmd" >/dev/null 2>&1 || mc_die "required command '$cmd' not found" \
      "install it (Debian: apt-get install $(mc_package_of "$cmd"))"
  done
}

mc_package_of() {
  case $1 in
    ip|tc) echo iproute2 ;;
    unshare|nsenter) echo util-linux ;;
    iperf3) echo iperf3 ;;
    java) echo openjdk-17-jre-headless ;;
    *) echo "$1" ;;
  esac
}

# mc_is_uint VALUE: true when VALUE is a non-negative decimal integer.
mc_is_uint() { [[ $1 =~ ^[0-9]+$ ]]; }
# mc_is_number VALUE: true for 12, 12.5, .5
mc_is_number() { [[ $1 =~ ^([0-9]+(\.[0-9]*)?|\.[0-9]+)$ ]]; }

# Value of an option that needs one, or a clear error.
mc_optarg() {
  local opt=$1; shift
  [[ $# -ge 1 && -n $1 && $1 != --* ]] || mc_die "option $opt needs a value" "see --help"
  printf '%s' "$1"
}

# mc_kill_pids GRACE PID...: kill processes by exact pid: TERM to all, wait up to GRACE seconds
# for them to go, then KILL the rest.
mc_kill_pids() {
  local grace=$1 waited=0 pid alive; shift
  (($#)) || return 0
  kill -TERM "$@" 2>/dev/null || true
  while ((waited < grace * 10)); do
    alive=0
    for pid in "$@"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    ((alive)) || return 0
    sleep 0.1; waited=$((waited + 1))
  done
  kill -KILL "$@" 2>/dev/null || true
}
