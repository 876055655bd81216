#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# Starts HDFS on this machine, as Hadoop's start-dfs.sh does on a single node: NameNode, then
# DataNode. Daemons that already run are left alone, so running it twice is harmless.
set -euo pipefail
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../libexec/cluster-functions.sh"
hm_cluster_main start dfs "$@"
