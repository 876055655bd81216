# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Shared pytest set-up: puts tests/lib (test assertions) and demo/ (the pseudo-distributed
cluster the demo and the tests share) on the import path and locates the built distribution."""

import pathlib
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "lib"))
sys.path.insert(0, str(REPO / "demo"))

from distribution import find_dist_home  # noqa: E402  (needs the path set above)


@pytest.fixture(scope="session")
def repo_root():
    return REPO


@pytest.fixture(scope="session")
def dist_home():
    """The assembled dist/hadoop-marco-*/ directory (./build.sh builds it)."""
    return find_dist_home(REPO)
