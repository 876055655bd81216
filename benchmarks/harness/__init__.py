# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""marco-bench: runs the paper's MapReductions with the stock shuffle and MaRCO side by side on one
cluster, reads the job history and MaRCO timelines, and writes results, plots and a report."""
