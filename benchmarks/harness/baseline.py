# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""The `hadoop` variant: Hadoop exactly as shipped, beside this project's stock variants.

The distribution's mapred-site.xml starts every job's AppMaster as MaRCO's (the class name after
the JVM options in yarn.app.mapreduce.am.command-opts), puts every jar of share/hadoop/mapreduce,
this project's among them, on the AppMaster's and the tasks' classpath, and the netns cluster's
class archive names those jars again in the admin JVM options. A `hadoop` run overrides each of
those settings in its own job configuration: Hadoop's MRAppMaster (the class YARNRunner names
when command-opts names none), Hadoop's Shuffle, and classpaths that list Hadoop's jars only,
without the class archive (it was dumped from a classpath with this project's jars). Settings of
this project (mapreduce.marco.*) from the profile are left out. The benchmark's own job classes
(mapper, reducers, output timing) come with the job's jar, as any user's job does.

After the run, `problems` checks the job's configuration and counters, as the job history keeps
them, for any trace of this project's classes.
"""

import re
from pathlib import Path

from . import catalog
from .breakdown import MARCO_GROUP, STOCK_SHUFFLE_GROUP
from .datatypes import JobConf

# MaRCO's AppMaster, as the distribution names it in yarn.app.mapreduce.am.command-opts.
MARCO_AM_CLASS = "org.apache.hadoop.mapreduce.v2.app.MarcoMRAppMaster"
AM_OPTS = "yarn.app.mapreduce.am.command-opts"
# The options Hadoop puts before a job's own: the netns cluster's class archive goes here.
ADMIN_OPTS = (
    "yarn.app.mapreduce.am.admin-command-opts",
    "mapreduce.admin.map.child.java.opts",
    "mapreduce.admin.reduce.child.java.opts",
)
CLASSPATHS = ("mapreduce.application.classpath", "yarn.application.classpath")
# This project's jars, by file name.
OUR_JAR = re.compile(r"^hadoop-(mapreduce-client-marco|marco-)")
# A class-data sharing archive in JVM options: it only maps with the classpath it was dumped from.
ARCHIVE_OPTION = re.compile(r"^-Xshare:|^-XX:SharedArchiveFile=")
# The home variables a container's launch script expands to the distribution's directory.
HOME_VARIABLE = re.compile(r"\$\{?HADOOP_(MAPRED|COMMON|HDFS|YARN)_HOME\}?|\$\{?HADOOP_HOME\}?")
OUR_PREFIX = "mapreduce.marco."


def _expand(entry: str, dist: Path) -> Path | None:
    """A classpath entry as a path in the distribution, or None where it names none."""
    if not HOME_VARIABLE.match(entry):
        return None
    return dist / HOME_VARIABLE.sub("", entry, count=1).lstrip("/")


def _jars(entry: str, dist: Path) -> list[str]:
    """The jar names one classpath entry puts on the classpath (a `dir/*` entry: every jar in
    dir, which `_expand` finds in the distribution)."""
    if entry.endswith("/*"):
        found = _expand(entry[:-2], dist) if HOME_VARIABLE.match(entry) else Path(entry[:-2])
        return sorted(p.name for p in found.glob("*.jar")) if found and found.is_dir() else []
    return [Path(entry).name]


def hadoop_classpath(value: str, dist: Path, separator: str = ",") -> str:
    """`value` with every entry that would put one of this project's jars on the classpath
    replaced by the other jars it stands for, each named explicitly."""
    out = []
    for entry in filter(None, value.split(separator)):
        jars = _jars(entry, dist)
        if not any(OUR_JAR.match(j) for j in jars):
            out.append(entry)
        elif entry.endswith("/*"):
            out += [f"{entry[:-2]}/{j}" for j in jars if not OUR_JAR.match(j)]
    return separator.join(out)


def hadoop_jvm_options(value: str, dist: Path) -> str:
    """JVM options without a class archive, their -cp without this project's jars."""
    words = value.split()
    out = []
    for i, word in enumerate(words):
        if ARCHIVE_OPTION.match(word):
            continue
        if i > 0 and words[i - 1] in ("-cp", "-classpath"):
            word = hadoop_classpath(word, dist, ":")
        out.append(word)
    return " ".join(out)


def settings(site: dict[str, str], dist: Path) -> JobConf:
    """The job settings that make a run Hadoop as shipped on a cluster whose client
    mapred-site.xml and yarn-site.xml hold `site`; `dist` is the distribution the containers
    run from."""
    out: JobConf = {catalog.PLUGIN_KEY: catalog.HADOOP_PLUGIN}
    if AM_OPTS in site:
        out[AM_OPTS] = " ".join(w for w in site[AM_OPTS].split() if w != MARCO_AM_CLASS)
    for key in ADMIN_OPTS:
        if key in site:
            out[key] = hadoop_jvm_options(site[key], dist)
    for key in CLASSPATHS:
        if key in site:
            out[key] = hadoop_classpath(site[key], dist)
    return out


def without_our_settings(job_settings: JobConf) -> JobConf:
    """The settings less this project's (mapreduce.marco.*)."""
    return {k: v for k, v in job_settings.items() if not k.startswith(OUR_PREFIX)}


def problems(conf: dict[str, str], counters: dict[str, int], dist: Path) -> list[str]:
    """What in a job's configuration (its conf.xml from the job history) and counters shows a
    class of this project on the AppMaster's or the tasks' path; empty for Hadoop as shipped."""
    found = []
    plugin = conf.get(catalog.PLUGIN_KEY, catalog.HADOOP_PLUGIN)
    if plugin != catalog.HADOOP_PLUGIN:
        found.append(f"{catalog.PLUGIN_KEY} is {plugin}, not Hadoop's {catalog.HADOOP_PLUGIN}")
    am = [w for w in conf.get(AM_OPTS, "").split() if not w.startswith("-")]
    if am:
        found.append(f"{AM_OPTS} names a main class ({' '.join(am)}) instead of MRAppMaster")
    for key in CLASSPATHS:
        ours = [
            j for e in conf.get(key, "").split(",") if e for j in _jars(e, dist) if OUR_JAR.match(j)
        ]
        if ours:
            found.append(f"{key} puts {', '.join(ours)} on the classpath")
    for key in ADMIN_OPTS:
        words = conf.get(key, "").split()
        cps = [words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-cp", "-classpath")]
        ours = [
            j for cp in cps for e in cp.split(":") if e for j in _jars(e, dist) if OUR_JAR.match(j)
        ]
        if ours:
            found.append(f"{key} puts {', '.join(ours)} on the classpath")
    groups = {key.rpartition(".")[0] for key in counters}
    for group in (MARCO_GROUP, STOCK_SHUFFLE_GROUP):
        if group in groups:
            found.append(f"the job has counter group {group}")
    return found
