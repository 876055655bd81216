# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""The mapreduce.marco.* keys as the engine declares them: the constants of MarcoConfig and the
properties of marco-default.xml, the one source of the configuration reference."""

import re
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path

ENGINE = Path("hadoop-mapreduce-project/hadoop-mapreduce-client-marco")
MARCO_CONFIG = ENGINE / "src/main/java/org/apache/hadoop/mapreduce/marco/MarcoConfig.java"
DEFAULT_XML = ENGINE / "src/main/resources/marco-default.xml"
# A key constant: `String NAME = PREFIX + "suffix";`, possibly across two lines.
KEY_CONSTANT = re.compile(r"String\s+(?!DEFAULT_)([A-Z0-9_]+)\s*=\s*PREFIX\s*\+\s*\"([^\"]+)\"")
PREFIX = "mapreduce.marco."


@dataclass(frozen=True)
class Key:
    """One property of marco-default.xml."""

    name: str
    value: str
    allowed: str
    description: str
    tag: str  # the reference's section, or TEST for keys only tests set
    rationale: str  # where the docs explain why, e.g. architecture.md#anchor


def config_keys(repo: Path) -> list[str]:
    """Every key MarcoConfig declares, in declaration order."""
    source = (repo / MARCO_CONFIG).read_text(encoding="utf-8")
    return [PREFIX + suffix for _, suffix in KEY_CONSTANT.findall(source)]


def _text(prop: ElementTree.Element, tag: str) -> str:
    return " ".join((prop.findtext(tag) or "").split())


def default_xml(repo: Path) -> dict[str, Key]:
    """marco-default.xml's properties by name, in file order."""
    keys: dict[str, Key] = {}
    for prop in ElementTree.parse(repo / DEFAULT_XML).getroot().iter("property"):
        name = _text(prop, "name")
        if name in keys:
            raise ValueError(f"{DEFAULT_XML}: {name} is listed twice; keep one <property>")
        keys[name] = Key(
            name,
            _text(prop, "value"),
            _text(prop, "range"),
            _text(prop, "description"),
            _text(prop, "tag"),
            _text(prop, "rationale"),
        )
    return keys
