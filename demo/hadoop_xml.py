# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Reads and writes Hadoop *-site.xml configuration files."""

import pathlib
import xml.etree.ElementTree as ET


def read_properties(path):
    """Returns {name: value} of a Hadoop configuration file."""
    root = ET.parse(path).getroot()
    return {p.findtext("name"): p.findtext("value") for p in root.iter("property")}


def set_properties(path, properties):
    """Sets (adds or replaces) properties in a Hadoop configuration file, keeping the others."""
    path = pathlib.Path(path)
    tree = ET.parse(path)
    root = tree.getroot()
    existing = {p.findtext("name"): p for p in root.iter("property")}
    for name, value in properties.items():
        prop = existing.get(name)
        if prop is None:
            prop = ET.SubElement(root, "property")
            ET.SubElement(prop, "name").text = name
            ET.SubElement(prop, "value")
        prop.find("value").text = str(value)
    tree.write(path, encoding="utf-8", xml_declaration=True)


def remove_properties(path, names):
    """Removes the properties NAMES from a Hadoop configuration file, keeping the others; a name
    the file does not set is an error, so a renamed key cannot pass unnoticed."""
    path = pathlib.Path(path)
    tree = ET.parse(path)
    root = tree.getroot()
    for name in names:
        found = [p for p in root.findall("property") if p.findtext("name") == name]
        if not found:
            raise KeyError(f"{path} sets no property {name}")
        for prop in found:
            root.remove(prop)
    tree.write(path, encoding="utf-8", xml_declaration=True)
