#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Writes the key tables of docs/configuration.md from the engine's marco-default.xml, the one
source of every mapreduce.marco.* key's default, allowed values and description, so that the two
cannot drift. --check (the lint stage) fails where they differ, or where marco-default.xml and
MarcoConfig do not list the same keys."""

import argparse
import difflib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from marco_keys import DEFAULT_XML, MARCO_CONFIG, Key, config_keys, default_xml  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
DOC = Path("docs/configuration.md")
BEGIN = "<!-- BEGIN generated from marco-default.xml by tools/config_doc.py: edit the XML -->"
END = "<!-- END generated -->"
# Each <tag> of marco-default.xml is one table of the reference, in this order.
SECTIONS = {
    "ENGINE": (
        "Engine keys",
        "Read by each reduce task's shuffle (`MarcoShuffle`, `MarcoMergeManager`).",
    ),
    "STAGGER": (
        "Reduce staggering keys",
        "Read by MaRCO's AppMaster (`MarcoMRAppMaster`); Hadoop's own AppMaster ignores them.",
    ),
    "OUTPUT": (
        "Asynchronous output keys",
        "Read by the `AsyncOutputFormat` wrapper, with either shuffle.",
    ),
    "TEST": (
        "Keys for tests only",
        "Fault injection for the test suite and the benchmark harness. Never set them on a "
        "cluster that runs real jobs.",
    ),
}
MAX_DESCRIPTION = 240


def problems(xml: dict[str, Key], declared: list[str]) -> list[str]:
    """What keeps marco-default.xml from being the reference: keys MarcoConfig lacks or has
    beyond it, and properties without their parts."""
    found = [
        f"{name}: in MarcoConfig, not in {DEFAULT_XML}; add a <property> for it"
        for name in declared
        if name not in xml
    ]
    found += [
        f"{name}: in {DEFAULT_XML}, not in MarcoConfig; add the key constant or drop the property"
        for name in xml
        if name not in declared
    ]
    for key in xml.values():
        if key.tag not in SECTIONS:
            found.append(f"{key.name}: <tag> must be one of {', '.join(SECTIONS)}")
        if not key.allowed:
            found.append(f"{key.name}: no <range> (the values allowed)")
        if not key.rationale.startswith("architecture.md#"):
            found.append(f"{key.name}: <rationale> must name an architecture.md#anchor")
        if not 20 <= len(key.description) <= MAX_DESCRIPTION:
            found.append(
                f"{key.name}: the <description> is one line of 20 to {MAX_DESCRIPTION} "
                f"characters (it has {len(key.description)}); the why goes to architecture.md"
            )
    return found


def cell(text: str) -> str:
    return text.replace("|", "\\|")


def reference(xml: dict[str, Key]) -> str:
    """The generated part of docs/configuration.md."""
    out = [BEGIN, ""]
    for tag, (title, intro) in SECTIONS.items():
        keys = [key for key in xml.values() if key.tag == tag]
        out += [f"## {title}", "", intro, ""]
        out += ["| key | default | allowed | what it does | why |", "|---|---|---|---|---|"]
        for key in keys:
            default = f"`{key.value}`" if key.value else "empty"
            out.append(
                f"| `{key.name}` | {cell(default)} | {cell(key.allowed)} | "
                f"{cell(key.description)} | [why]({key.rationale}) |"
            )
        out.append("")
    out.append(END)
    return "\n".join(out)


def render(doc: str, xml: dict[str, Key]) -> str:
    """DOC with its generated part replaced by the reference of XML."""
    head, begin, rest = doc.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not begin or not end:
        raise ValueError(f"{DOC} needs the two marker lines {BEGIN!r} and {END!r}")
    return head + reference(xml) + tail


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=f"Write the key tables of {DOC} (between its BEGIN and END marker lines) "
        f"from {DEFAULT_XML}, after checking that the XML lists exactly the keys of "
        f"{MARCO_CONFIG.name} with a default, a range, a one-line description and a rationale "
        "link."
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help=f"write nothing; exit 1 if {DOC} differs from what the XML gives (lint stage)",
    )
    parser.add_argument("--repo", type=Path, default=REPO, help="repository root (default: ours)")
    args = parser.parse_args(argv)
    xml = default_xml(args.repo)
    found = problems(xml, config_keys(args.repo))
    for problem in found:
        print(f"error: {problem}", file=sys.stderr)
    if found:
        return 1
    path = args.repo / DOC
    current = path.read_text(encoding="utf-8")
    wanted = render(current, xml)
    if not args.check:
        path.write_text(wanted, encoding="utf-8")
        print(f"wrote {DOC} from {DEFAULT_XML}")
        return 0
    if wanted == current:
        print(f"{DOC} matches {DEFAULT_XML}")
        return 0
    sys.stderr.writelines(
        difflib.unified_diff(
            current.splitlines(keepends=True),
            wanted.splitlines(keepends=True),
            f"{DOC} (as committed)",
            f"{DOC} (from the XML)",
        )
    )
    print(
        f"error: {DOC} differs from {DEFAULT_XML}; edit the XML, then run tools/config_doc.py",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    sys.exit(main())
