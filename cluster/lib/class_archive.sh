# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# shellcheck shell=bash
# Class-data sharing (AppCDS) for the cluster's ApplicationMaster and task JVMs.
#
# A small job's task spends most of its CPU loading Hadoop's classes: looking each one up across
# ~190 jars, parsing and verifying it. On a few cores that start-up cost, paid by every task JVM,
# is most of a job's run time. With --class-archive, start dumps the classes those JVMs load
# (cluster/jvm-classes.lst) into one archive that every AM and task JVM maps instead.
#
# The JVM uses an archive only while the classpath starts with the jars it was dumped from.
# YARN puts the container's own directory first, so the options name the jars explicitly and
# append the container's classpath after them ($CLASSPATH, expanded by the container's launch
# script): the jars come before the container directory, as they do after it in stock YARN. If
# the archive cannot be mapped (another JDK, a jar rebuilt since), the JVM loads classes as usual.
# Needs common.sh; uses DIST, STATE and REPO.

CA_CLASS_LIST=$REPO/cluster/jvm-classes.lst

ca_archive() { echo "$STATE/class-archive/hadoop.jsa"; }

# The distribution's jars in the order of YARN's and MapReduce's default application classpath.
ca_framework_classpath() {
  local dir jar cp=""
  for dir in common common/lib hdfs hdfs/lib yarn yarn/lib mapreduce mapreduce/lib; do
    for jar in "$DIST/share/hadoop/$dir"/*.jar; do
      [[ -f $jar ]] && cp+="${cp:+:}$jar"
    done
  done
  printf '%s' "$cp"
}

# ca_build: dump the archive (about 25 s of CPU); dies naming the log when the JVM refuses.
ca_build() {
  local archive log
  archive=$(ca_archive)
  log=$STATE/class-archive/dump.log
  mkdir -p "$(dirname "$archive")"
  rm -f "$archive"
  marco_log "class archive: dumping the classes of $CA_CLASS_LIST into $archive"
  java -Xshare:dump -XX:SharedClassListFile="$CA_CLASS_LIST" -XX:SharedArchiveFile="$archive" \
    -cp "$(ca_framework_classpath)" > "$log" 2>&1 ||
    marco_fail "dumping the class archive failed" "read $log, or start without --class-archive"
  [[ -s $archive ]] || marco_fail "the JVM wrote no class archive" "read $log, or start without --class-archive"
}

# Settings for hadoop_conf.py that make the AM and task JVMs map the archive.
ca_settings() {
  local opts
  opts="-Xshare:auto -XX:SharedArchiveFile=$(ca_archive) -cp $(ca_framework_classpath):\$CLASSPATH"
  cat <<EOF
mapred-site.xml yarn.app.mapreduce.am.admin-command-opts+=$opts
mapred-site.xml mapreduce.admin.map.child.java.opts+=$opts
mapred-site.xml mapreduce.admin.reduce.child.java.opts+=$opts
EOF
}

ca_remove() { rm -rf -- "$STATE/class-archive"; }
