#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# Starts the five daemons of a single-node hadoop-marco cluster on this machine, in dependency order:
# NameNode, DataNode, ResourceManager, NodeManager, JobHistoryServer. Daemons that already run are
# left alone, so running it twice is harmless. Multi-node clusters: see cluster/ in the repository.
set -euo pipefail
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../libexec/cluster-functions.sh"
hm_cluster_main start all "$@"
