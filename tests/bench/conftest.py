# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""The harness package lives in benchmarks/harness; make it importable for the tests. Also the
set-up shared by the tests that start a netns cluster of their own."""

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))

from harness.cluster import netns_namespaces  # noqa: E402


def own_cluster_dir(tmp_path_factory, name):
    """For a test that starts its own cluster: fails while another one is up (the names are
    fixed); returns a fresh base dir and an environment that keeps the cluster's state in it."""
    if netns_namespaces():
        pytest.fail(
            f"a marco-cluster is already up ({', '.join(netns_namespaces())}); this test "
            f"starts its own: stop the other one with cluster/marco-cluster stop"
        )
    base = tmp_path_factory.mktemp(name)
    return base, dict(os.environ, MARCO_CLUSTER_STATE_DIR=str(base / "cluster"))
