#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Set properties in Hadoop *-site.xml files, keeping every other property as it is.

usage: hadoop_conf.py CONF_DIR < SETTINGS

SETTINGS has one "FILE key=value" per line (FILE relative to CONF_DIR, e.g. core-site.xml);
"FILE key+=value" appends value to the property's current value, after a space (JVM options).
Blank lines are skipped. One call writes a whole node's configuration.

The cluster copies the distribution's etc/hadoop for each node and then applies its node-specific
overrides with this tool, so the distribution's own defaults (e.g. the MaRCO shuffle plugin in
mapred-site.xml) stay in force unless the cluster has a reason to change them.
"""
import os
import sys
import xml.etree.ElementTree as ET


def load(path):
    if os.path.exists(path) and os.path.getsize(path) > 0:
        root = ET.parse(path).getroot()
        if root.tag != "configuration":
            sys.exit(f"error: {path} is not a Hadoop configuration file (root element <{root.tag}>)")
        return root
    return ET.Element("configuration")


def set_property(root, name, value, append=False):
    for prop in root.findall("property"):
        if prop.findtext("name") == name:
            old = prop.findtext("value") or ""
            prop.find("value").text = f"{old} {value}".strip() if append else value
            return
    prop = ET.SubElement(root, "property")
    ET.SubElement(prop, "name").text = name
    ET.SubElement(prop, "value").text = value


def main(argv):
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    conf_dir = argv[0]
    files = {}
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        file_name, _, assignment = line.partition(" ")
        name, sep, value = assignment.partition("=")
        append = name.endswith("+")
        name = name.removesuffix("+")
        if not sep or not name:
            sys.exit(f"error: '{line}' is not 'FILE key=value' or 'FILE key+=value'")
        path = os.path.join(conf_dir, file_name)
        if path not in files:
            files[path] = load(path)
        set_property(files[path], name, value, append)
    for path, root in files.items():
        ET.indent(root)
        ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
