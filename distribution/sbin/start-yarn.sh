#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# Starts YARN on this machine, as Hadoop's start-yarn.sh does on a single node: ResourceManager,
# then NodeManager (the history server: mapred --daemon start historyserver). Daemons that
# already run are left alone, so running it twice is harmless.
set -euo pipefail
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../libexec/cluster-functions.sh"
hm_cluster_main start yarn "$@"
