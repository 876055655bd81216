# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# shellcheck shell=bash
# Sourced by every launcher before it starts Java. Set site-wide environment here; see
# docs/distribution.md for every variable. Examples:
# export JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64
# export HADOOP_HEAPSIZE_MAX=2g
# export HADOOP_LOG_DIR=/var/log/hadoop
# export HADOOP_PID_DIR=/var/run/hadoop
# export HDFS_NAMENODE_OPTS="-XX:+UseG1GC"
