# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# shellcheck shell=bash
# HTB shaping of one network device: a fast default class for traffic within the node's group,
# a shaped class for traffic to/from the other groups, pure ACKs always in the fast class.
# Layout measured on this kind of machine (docs/bandwidth-shaping.md): HTB holds its rate with
# no drops where TBF drops thousands; ACKs queued behind shaped data starve a node that sends and
# receives across groups at once (29.8 instead of 47.8 Mbit/s).

# Our qdisc handle, "MC" in hex, so `clear` on a real host only ever removes our own root qdisc.
HTB_HANDLE=4d43
HTB_FAST_CLASS=$HTB_HANDLE:10
HTB_SHAPED_CLASS=$HTB_HANDLE:20
# HTB counts whole Ethernet frames; a full TCP segment (timestamps on) carries 1448 payload bytes
# in a 1514-byte frame. Rates in our interface are payload rates, so tc gets R * 1514 / 1448.
HTB_FRAME_BYTES=1514
HTB_PAYLOAD_BYTES=1448
# An explicit burst is needed: without one a 10gbit class showed "burst 0b" and capped at 7 Gbit/s.
HTB_FAST_OPTS=(rate 100gbit burst 4m cburst 4m quantum 200000)
HTB_SHAPED_BURST=15k

# Payload Mbit/s -> tc kbit/s, rounded up.
htb_tc_kbit() {
  awk -v r="$1" -v f="$HTB_FRAME_BYTES" -v p="$HTB_PAYLOAD_BYTES" \
    'BEGIN { k = r * 1000 * f / p; printf "%d", (k == int(k)) ? k : int(k) + 1 }'
}

# 1: the commands that would change the network are printed, not run (shape --dry-run).
HTB_DRY_RUN=${HTB_DRY_RUN:-0}

# htb_run COMMAND...: runs a command that changes the network, or with HTB_DRY_RUN=1 prints it,
# shell-quoted, instead. Commands that only read (show) run in either case.
htb_run() {
  if ((HTB_DRY_RUN)); then
    local line
    line=$(printf '%q ' "$@")
    echo "${line% }"
  else
    "$@"
  fi
}

# htb_tc_argv NETNS ARGS...: the tc command line for a namespace ("" = the current one).
htb_tc_argv() {
  local ns=$1; shift
  if [[ -n $ns ]]; then printf '%s\n' tc -n "$ns" "$@"; else printf '%s\n' tc "$@"; fi
}

# htb_tc NETNS ARGS...: tc that reads, in a namespace ("" = the current one).
htb_tc() {
  local -a argv
  mapfile -t argv < <(htb_tc_argv "$@")
  "${argv[@]}"
}

# htb_tc_change NETNS ARGS...: tc that changes a device (printed instead under HTB_DRY_RUN=1).
htb_tc_change() {
  local -a argv
  mapfile -t argv < <(htb_tc_argv "$@")
  htb_run "${argv[@]}"
}

htb_has_our_root() {
  htb_tc "$1" qdisc show dev "$2" root 2>/dev/null | grep -q "^qdisc htb $HTB_HANDLE: "
}

htb_clear_device() {
  local ns=$1 dev=$2
  if htb_has_our_root "$ns" "$dev"; then htb_tc_change "$ns" qdisc del dev "$dev" root; fi
}

# htb_shape_device NETNS DEV dst|src TC_KBIT CIDR...: traffic whose DIRECTION address lies in one
# of the CIDRs goes through the shaped class; everything else, and every pure ACK, is fast.
htb_shape_device() {
  local ns=$1 dev=$2 direction=$3 kbit=$4; shift 4
  local cidr
  htb_clear_device "$ns" "$dev"
  htb_tc_change "$ns" qdisc add dev "$dev" root handle "$HTB_HANDLE:" htb default 10
  htb_tc_change "$ns" class add dev "$dev" parent "$HTB_HANDLE:" classid "$HTB_FAST_CLASS" htb "${HTB_FAST_OPTS[@]}"
  htb_tc_change "$ns" class add dev "$dev" parent "$HTB_HANDLE:" classid "$HTB_SHAPED_CLASS" htb \
    rate "${kbit}kbit" burst "$HTB_SHAPED_BURST" cburst "$HTB_SHAPED_BURST" quantum "$HTB_FRAME_BYTES"
  # Pure ACKs: TCP with an IP total length below 128 bytes (top 9 bits of the length are zero).
  htb_tc_change "$ns" filter add dev "$dev" parent "$HTB_HANDLE:" protocol ip prio 1 u32 \
    match ip protocol 6 0xff match u16 0x0000 0xff80 at 2 flowid "$HTB_FAST_CLASS"
  for cidr in "$@"; do
    htb_tc_change "$ns" filter add dev "$dev" parent "$HTB_HANDLE:" protocol ip prio 2 u32 \
      match ip "$direction" "$cidr" flowid "$HTB_SHAPED_CLASS"
  done
}

htb_show_device() {
  local ns=$1 dev=$2 label=$3
  echo "== $label: $dev${ns:+ (netns $ns)}"
  if ! htb_has_our_root "$ns" "$dev"; then
    echo "   not shaped"
    return 0
  fi
  htb_tc "$ns" -s class show dev "$dev" | sed 's/^/   /'
  htb_tc "$ns" filter show dev "$dev" | grep -E 'match|flowid' | sed 's/^/   /'
}
