#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Checks what a machine can check in the Markdown docs: every mapreduce.marco.* key they name
exists, every relative link (file or #anchor) resolves, and every command of ours they show
(marco-bench, build.sh, run-main.sh, the cluster and shaping scripts) uses a subcommand and flags
its --help lists. Run by the lint stage of ./build.sh test."""

import argparse
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from marco_keys import config_keys, default_xml  # noqa: E402  (needs the path set above)

REPO = Path(__file__).resolve().parent.parent
KEY = re.compile(r"(?<![\w.])mapreduce\.marco\.[A-Za-z0-9_.*-]*")
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ID = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
FLAG = re.compile(r"--[a-z0-9][a-z0-9-]*")
WORD = re.compile(r"[a-z][a-z0-9-]*")
PREFIXES = {"$", "sudo", "do", "then", "else", "time", "exec", "env", "nohup"}
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
SHELL_BREAK = re.compile(r"&&|\|\||[;|()]|\$\(|\s#")


@dataclass(frozen=True)
class Command:
    """One of our entry points as the docs name it."""

    path: str  # relative to the repository
    subcommands: bool = False  # its first positional argument is a subcommand
    help_per_subcommand: bool = False  # `CMD SUB --help` lists SUB's flags (argparse)
    passthrough: tuple[str, ...] = ()  # subcommands whose arguments belong to another program


MARCO_BENCH = Command("benchmarks/marco-bench", subcommands=True, help_per_subcommand=True)
MARCO_CLUSTER = Command("cluster/marco-cluster", subcommands=True, passthrough=("client",))
COMMANDS = {
    "benchmarks/marco-bench": MARCO_BENCH,
    "marco-bench": MARCO_BENCH,
    "./build.sh": Command("build.sh", subcommands=True),
    "./run-main.sh": Command("run-main.sh"),
    "cluster/marco-cluster": MARCO_CLUSTER,
    "marco-cluster": MARCO_CLUSTER,
    "bandwidth-shaping/shape": Command("bandwidth-shaping/shape", subcommands=True),
    "bandwidth-shaping/verify": Command("bandwidth-shaping/verify"),
}


@dataclass
class Repo:
    """What the docs are checked against: the keys and our commands' --help texts."""

    root: Path
    keys: frozenset[str]
    helps: dict[tuple[str, str], str] = field(default_factory=dict)

    @classmethod
    def at(cls, root: Path) -> "Repo":
        return cls(root, frozenset(config_keys(root)) & frozenset(default_xml(root)))

    def help(self, command: Command, sub: str = "") -> str:
        """The --help output of COMMAND (of its subcommand SUB for argparse commands)."""
        if (command.path, sub) not in self.helps:
            argv = [str(self.root / command.path), *([sub] if sub else []), "--help"]
            done = subprocess.run(
                argv, cwd=self.root, capture_output=True, text=True, timeout=120, check=False
            )
            self.helps[(command.path, sub)] = done.stdout + done.stderr
        return self.helps[(command.path, sub)]


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: its text, lower case, without punctuation."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").replace("*", "").lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def prose_and_code(lines: list[str]) -> Iterator[tuple[int, str, bool]]:
    """Each line with its number and whether it is inside a fenced code block."""
    fenced = False
    for number, line in enumerate(lines, 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        yield number, line, fenced


def anchors(path: Path) -> set[str]:
    """Every #anchor a Markdown file offers: its headings, GitHub-style, and HTML ids."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, line, fenced in prose_and_code(path.read_text(encoding="utf-8").splitlines()):
        if fenced:
            continue
        found.update(HTML_ID.findall(line))
        heading = HEADING.match(line)
        if heading:
            anchor = github_anchor(heading.group(2))
            count = seen.get(anchor, 0)
            seen[anchor] = count + 1
            found.add(anchor if count == 0 else f"{anchor}-{count}")
    return found


def shell_snippets(lines: list[str]) -> Iterator[tuple[int, str]]:
    """The shell text of a doc: code blocks (continued lines joined) and inline code spans."""
    pending, start = "", 0
    for number, line, fenced in prose_and_code(lines):
        if fenced:
            if not pending:
                start = number
            if line.rstrip().endswith("\\"):
                pending += line.rstrip()[:-1] + " "
                continue
            yield start, pending + line
            pending = ""
        else:
            for span in CODE_SPAN.finditer(line):
                yield number, span.group(2)


def check_command(repo: Repo, command: Command, words: list[str]) -> list[str]:
    """Problems with one invocation: WORDS are what follows the command's name."""
    sub = ""
    if command.subcommands and words and not words[0].startswith("-"):
        if not WORD.fullmatch(words[0]):
            return []  # a placeholder such as SUBCOMMAND or <sub>
        sub = words[0]
        name = re.escape(Path(command.path).name)
        # Listed: first on a help line (after "(none), " and the like), or after the name.
        listed = rf"(?m)(^\s*(\S+,\s*)*|\b{name}\s+){re.escape(sub)}(?![\w-])"
        if not re.search(listed, repo.help(command)):
            return [f"'{command.path} {sub}': no such subcommand in '{command.path} --help'"]
        if sub in command.passthrough:
            return []
    helped = repo.help(command, sub if command.help_per_subcommand else "")
    problems = []
    for word in words:
        flag = FLAG.match(word)
        if flag and not re.search(rf"(?<![\w-]){re.escape(flag.group())}(?![\w-])", helped):
            shown = f"{command.path} {sub}".strip()
            problems.append(f"'{shown} {flag.group()}': '{shown} --help' lists no such flag")
    return problems


def check_commands(repo: Repo, lines: list[str]) -> Iterator[tuple[int, str]]:
    for number, snippet in shell_snippets(lines):
        for segment in SHELL_BREAK.split(snippet):
            words = segment.split()
            # A command starts the segment, after prefixes such as sudo or VAR=value; elsewhere
            # its name is a word in a message.
            while words and (words[0] in PREFIXES or ASSIGNMENT.match(words[0])):
                words = words[1:]
            command = COMMANDS.get(words[0].strip("\"'")) if words else None
            if command:
                for problem in check_command(repo, command, words[1:]):
                    yield number, problem


def check_keys(repo: Repo, lines: list[str]) -> Iterator[tuple[int, str]]:
    for number, line, _ in prose_and_code(lines):
        for match in KEY.finditer(line):
            key = match.group().rstrip(".")
            if key.endswith("*") or key == "mapreduce.marco":
                prefix = key.rstrip("*")
                if not any(k.startswith(prefix) for k in repo.keys):
                    yield number, f"no key starts with '{prefix}'"
            elif key not in repo.keys:
                yield (
                    number,
                    (
                        f"unknown key '{key}': not in marco-default.xml and MarcoConfig "
                        "(see docs/configuration.md for the keys)"
                    ),
                )


def check_links(path: Path, lines: list[str]) -> Iterator[tuple[int, str]]:
    cache: dict[Path, set[str]] = {}
    for number, line, fenced in prose_and_code(lines):
        if fenced:
            continue
        for match in LINK.finditer(CODE_SPAN.sub("", line)):
            target = match.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue  # http:, https:, mailto: and the like
            file_part, _, anchor = target.partition("#")
            linked = (path.parent / file_part).resolve() if file_part else path.resolve()
            if not linked.exists():
                yield number, f"link '{target}': no file {file_part}"
            elif anchor and linked.suffix == ".md":
                if linked not in cache:
                    cache[linked] = anchors(linked)
                if anchor not in cache[linked]:
                    yield number, f"link '{target}': {linked.name} has no heading #{anchor}"


def check_file(repo: Repo, path: Path) -> list[str]:
    """Every problem of one Markdown file, as PATH:LINE: PROBLEM."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found = [*check_keys(repo, lines), *check_links(path, lines), *check_commands(repo, lines)]
    try:
        shown = path.resolve().relative_to(repo.root)
    except ValueError:
        shown = path
    return [f"{shown}:{number}: {problem}" for number, problem in sorted(found)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Check the docs: every mapreduce.marco.* key they name exists (in "
        "marco-default.xml and MarcoConfig), every relative link and #anchor resolves, and every "
        "command of ours they show (marco-bench, build.sh, run-main.sh, marco-cluster, shape, "
        "verify) uses a subcommand and flags its --help lists. Exit 1 on any problem.",
    )
    parser.add_argument(
        "files", nargs="*", type=Path, help="Markdown files (default: README.md and docs/*.md)"
    )
    args = parser.parse_args(argv)
    repo = Repo.at(REPO)
    files = args.files or [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    problems = [problem for path in files for problem in check_file(repo, path)]
    for problem in problems:
        print(problem)
    if problems:
        print(f"docs check: {len(problems)} problem(s); fix the docs (or the command's --help)")
        return 1
    print(f"docs check: {len(files)} files, keys, links and commands all resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main())
