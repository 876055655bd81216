# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# shellcheck shell=bash
# The helpers every script of the project shares: build.sh, cluster/, bandwidth-shaping/ and the
# distribution's launchers (which carry this file as libexec/marco-common.sh). One way to fail:
#
#   marco_die MESSAGE [FIX]   the command line or its input is wrong; exit 2
#   marco_fail MESSAGE [FIX]  the work itself failed (a missing tool, a daemon that died); exit 1
#
# Both print "error: MESSAGE" and, when given, "fix:   FIX" on stderr.

marco_log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

marco_error() {
  printf 'error: %s\n' "$1" >&2
  if [[ $# -ge 2 ]]; then printf 'fix:   %s\n' "$2" >&2; fi
}

marco_die() {
  marco_error "$@"
  exit 2
}

marco_fail() {
  marco_error "$@"
  exit 1
}

marco_require_root() {
  [[ $(id -u) -eq 0 ]] || marco_die "this needs root (network namespaces, tc, cgroups)" "run it as root, e.g. with sudo"
}

marco_require_cmd() {
  local cmd
  for cmd in "$@"; do
    command -v "$cmd" >/dev/null 2>&1 || marco_die "required command '$cmd' not found" \
      "install it (Debian: apt-get install $(marco_package_of "$cmd"))"
  done
}

marco_package_of() {
  case $1 in
    ip|tc) echo iproute2 ;;
    unshare|nsenter) echo util-linux ;;
    iperf3) echo iperf3 ;;
    java) echo openjdk-17-jre-headless ;;
    *) echo "$1" ;;
  esac
}

# marco_is_uint VALUE: true when VALUE is a non-negative decimal integer.
marco_is_uint() { [[ $1 =~ ^[0-9]+$ ]]; }
# marco_is_number VALUE: true for 12, 12.5, .5
marco_is_number() { [[ $1 =~ ^([0-9]+(\.[0-9]*)?|\.[0-9]+)$ ]]; }

# Value of an option that needs one, or a clear error.
marco_optarg() {
  local opt=$1; shift
  [[ $# -ge 1 && -n $1 && $1 != --* ]] || marco_die "option $opt needs a value" "see --help"
  printf '%s' "$1"
}

# marco_kill_pids GRACE PID...: kill processes by exact pid: TERM to all, wait up to GRACE seconds
# for them to go, then KILL the rest.
marco_kill_pids() {
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
