# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""What a results directory was made by, so that a resumed session adds only comparable runs.

A results directory accumulates runs across sessions (an interrupted `main` resumes where it
stopped). Runs are comparable only if the same code ran them, with the same profile, on a cluster
of the same shape. The first session that records runs writes identity.json; every later one
compares its own identity with it and refuses on a difference, naming it and the fix (`--fresh`).
"""

import datetime
import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from .datatypes import Identity, Profile

IDENTITY_FILE = "identity.json"
# What must match for runs to be comparable. Jobs, variants and repetitions may differ: a later
# session may add jobs or repetitions, whose runs have their own keys.
COMPARED = ("git_commit", "profile", "profile_sha256", "cluster")
# Paths that describe the code without changing what runs (git pathspecs). A commit that touches
# only these, such as a result published between `main` and `curve`, keeps the runs comparable.
DOCUMENTATION = (":(exclude)docs", ":(exclude)*.md")


class ResumeError(RuntimeError):
    """The results directory holds runs that the current session cannot be compared with."""


def same_code(repo: Path, revision: str) -> bool:
    """Whether the checkout's tracked files equal `revision`'s, documentation aside."""
    argv = ["git", "-C", str(repo), "diff", "--quiet", revision, "--", ".", *DOCUMENTATION]
    return subprocess.run(argv, capture_output=True).returncode == 0


def git_commit(repo: Path, short: bool = False) -> str:
    """HEAD's hash, with "-dirty" (as `git describe --dirty` marks it) when tracked files other
    than documentation differ from it: the runs then measured code that no commit holds."""
    argv = ["git", "-C", str(repo), "rev-parse", *(["--short"] if short else []), "HEAD"]
    commit = subprocess.run(argv, capture_output=True, text=True).stdout.strip()
    if not commit:
        return "unknown (not a git checkout)"
    return commit + ("" if same_code(repo, "HEAD") else "-dirty")


def profile_sha256(profile: Profile) -> str:
    """Digest of the profile as loaded from its file, before command-line overrides."""
    return hashlib.sha256(json.dumps(profile, sort_keys=True).encode()).hexdigest()


def identity(
    commit: str, profile_name: str, profile_digest: str, cluster: dict[str, Any]
) -> Identity:
    return {
        "git_commit": commit,
        "profile": profile_name,
        "profile_sha256": profile_digest,
        "cluster": cluster,
    }


def has_runs(out: Path) -> bool:
    results = out / "results.jsonl"
    return results.exists() and results.read_text().strip() != ""


def differences(recorded: Identity, current: Identity, repo: Path | None = None) -> list[str]:
    """What differs; with `repo`, a commit that changed only documentation does not count."""
    return [
        f"{key}: {recorded.get(key)!r} there, {current.get(key)!r} now"
        for key in COMPARED
        if recorded.get(key) != current.get(key)
        # A commit recorded with -dirty names no tree to compare the checkout with.
        and not (
            key == "git_commit"
            and repo is not None
            and re.fullmatch(r"[0-9a-f]{40}", str(recorded.get(key)))
            and same_code(repo, str(recorded.get(key)))
        )
    ]


def check(out: Path, current: Identity, repo: Path | None = None) -> None:
    """Raises ResumeError if `out` holds runs of another commit, profile or cluster shape (or of
    unknown origin); otherwise records `current` as the directory's identity if it has none.
    With `repo`, the checkout `current` was taken from, a later commit whose code (all but
    DOCUMENTATION) equals the recorded one's is the same code; identity.json keeps the first."""
    path = out / IDENTITY_FILE
    if path.exists():
        diff = differences(json.loads(path.read_text()), current, repo)
        if diff:
            raise ResumeError(
                f"{out} holds runs that cannot be compared with this session's ("
                + "; ".join(diff)
                + "). Start over with --fresh (the old directory is kept "
                "beside it), or give another --out."
            )
        return
    if has_runs(out):
        raise ResumeError(
            f"{out} holds runs but no {IDENTITY_FILE}, so nothing says which commit, "
            f"profile and cluster made them. Start over with --fresh (the old "
            f"directory is kept beside it), or give another --out."
        )
    out.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(current, indent=1) + "\n")


def set_aside(out: Path) -> Path | None:
    """Moves an existing results directory to OUT.previous-TIMESTAMP; returns where, or None."""
    if not out.exists():
        return None
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    target = out.with_name(f"{out.name}.previous-{stamp}")
    shutil.move(str(out), str(target))
    return target
