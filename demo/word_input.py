# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Deterministic text input for word-count runs, with the expected counts computed alongside."""

import collections
import random

VOCABULARY = [f"w{i:03d}" for i in range(300)] + ["MaRCO", "hadoop", "shuffle", "x"]


def write_word_files(directory, files, lines_per_file, seed=20261121):
    """Writes FILES text files of Zipf-weighted words (separated by one or two spaces, some empty
    lines) into DIRECTORY; returns a Counter of every word written. No tabs: the benchmarks'
    text jobs read the part of a line before a tab as its document name."""
    rng = random.Random(seed)
    weights = [1.0 / (rank + 1) for rank in range(len(VOCABULARY))]
    expected = collections.Counter()
    for index in range(files):
        lines = []
        for _ in range(lines_per_file):
            words = rng.choices(VOCABULARY, weights, k=rng.randint(0, 12))
            expected.update(words)
            lines.append(("  " if rng.random() < 0.1 else " ").join(words))
        (directory / f"part-{index}.txt").write_text("\n".join(lines) + "\n")
    return expected


def parse_word_counts(text):
    """{word: count} from word-count output lines 'word<TAB>count'; a repeated word is an error."""
    counts = {}
    for line in text.splitlines():
        word, count = line.split("\t")
        if word in counts:
            raise AssertionError(f"{word} appears twice in the word-count output")
        counts[word] = int(count)
    return counts


def counter_group(job_log, group):
    """{counter display name: value} of GROUP in a job client's final counter dump."""
    lines = job_log.splitlines()
    values = {}
    for index, line in enumerate(lines):
        if line.strip() == group and line.startswith("\t"):
            depth = len(line) - len(line.lstrip("\t"))
            for entry in lines[index + 1 :]:
                if len(entry) - len(entry.lstrip("\t")) <= depth or "=" not in entry:
                    break
                name, value = entry.strip().rsplit("=", 1)
                values[name] = int(value)
    return values
