#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# Stops the HDFS daemons that start-dfs.sh starts, DataNode first; stopping a stopped daemon is a
# no-op, so running it twice is harmless.
set -euo pipefail
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../libexec/cluster-functions.sh"
hm_cluster_main stop dfs "$@"
