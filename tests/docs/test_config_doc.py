# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""docs/configuration.md's key tables are marco-default.xml's, and tools/config_doc.py refuses a
marco-default.xml that is not a complete reference of MarcoConfig's keys."""

import dataclasses
import shutil
import sys

from conftest import REPO

sys.path.insert(0, str(REPO / "tools"))

import config_doc  # noqa: E402  (needs the path set above)
import marco_keys  # noqa: E402


def test_the_committed_reference_is_the_xmls():
    assert config_doc.main(["--check"]) == 0


def test_the_xml_lists_exactly_marco_configs_keys():
    xml = marco_keys.default_xml(REPO)
    assert config_doc.problems(xml, marco_keys.config_keys(REPO)) == []
    assert len(xml) > 30


def copy_of_repo(tmp_path):
    """The three files the generator reads, in a repository of their own."""
    for part in (marco_keys.DEFAULT_XML, marco_keys.MARCO_CONFIG, config_doc.DOC):
        (tmp_path / part).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / part, tmp_path / part)
    return tmp_path


def test_a_changed_default_makes_the_check_fail_until_regenerated(tmp_path, capsys):
    repo = copy_of_repo(tmp_path)
    xml = repo / marco_keys.DEFAULT_XML
    xml.write_text(xml.read_text().replace("<value>0.85</value>", "<value>0.9</value>"))
    assert config_doc.main(["--check", "--repo", str(repo)]) == 1
    assert "differs from" in capsys.readouterr().err
    assert config_doc.main(["--repo", str(repo)]) == 0
    assert config_doc.main(["--check", "--repo", str(repo)]) == 0
    assert "| `0.9` |" in (repo / config_doc.DOC).read_text()


def test_a_hand_edited_table_makes_the_check_fail(tmp_path):
    repo = copy_of_repo(tmp_path)
    doc = repo / config_doc.DOC
    doc.write_text(doc.read_text().replace("| `19` |", "| `10` |"))
    assert config_doc.main(["--check", "--repo", str(repo)]) == 1


def test_a_key_missing_on_either_side_is_named():
    xml = marco_keys.default_xml(REPO)
    declared = marco_keys.config_keys(REPO)
    gone = declared[3]
    extra = dict(xml)
    del extra[gone]
    assert any(gone in p and "not in" in p for p in config_doc.problems(extra, declared))
    found = config_doc.problems(xml, [*declared[:3], *declared[4:]])
    assert any(gone in p and "not in MarcoConfig" in p for p in found)


def test_a_property_without_its_parts_is_refused():
    xml = marco_keys.default_xml(REPO)
    name = "mapreduce.marco.stop.fraction"
    bare = dict(xml)
    bare[name] = dataclasses.replace(xml[name], allowed="", tag="MISC", rationale="")
    bare[name] = dataclasses.replace(bare[name], description="x" * 300)
    found = " ".join(config_doc.problems(bare, marco_keys.config_keys(REPO)))
    for part in ("<range>", "<tag>", "<rationale>", "<description>"):
        assert part in found
