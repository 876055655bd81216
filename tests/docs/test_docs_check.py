# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""tools/docs_check.py catches each kind of error it exists for, in a tiny doc of its own, and
passes the real docs."""

import sys

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "tools"))

import docs_check  # noqa: E402  (needs the path set above)


@pytest.fixture(scope="module")
def repo():
    return docs_check.Repo.at(REPO)


@pytest.fixture
def doc(tmp_path):
    """Writes a doc next to a linked file and returns a function that checks it."""
    (tmp_path / "other.md").write_text("# Other page\n\n## Set `main` (3.5 Mbit/s)\n")

    def write(text, repo):
        path = tmp_path / "doc.md"
        path.write_text(text)
        return docs_check.check_file(repo, path)

    return write


def test_a_good_doc_passes(doc, repo):
    text = (
        "# Title\n\nSet `mapreduce.marco.stop.fraction=0.9` or any `mapreduce.marco.stagger.*` "
        "key; see [other](other.md#set-main-35-mbits), [above](#title) and [web](https://x.org).\n"
        "\n```bash\n./build.sh test --stage lint\nbenchmarks/marco-bench main --profile paper \\\n"
        "  --rate 3.5 --fresh\ncluster/marco-cluster client hdfs dfs -ls /\n```\n"
    )
    assert doc(text, repo) == []


def test_an_unknown_key_is_named(doc, repo):
    problems = doc("Set `mapreduce.marco.stop.fractoin` to 0.9.\n", repo)
    assert len(problems) == 1
    assert "doc.md:1:" in problems[0] and "mapreduce.marco.stop.fractoin" in problems[0]


def test_a_key_family_that_matches_no_key(doc, repo):
    assert "mapreduce.marco.nothing." in doc("The `mapreduce.marco.nothing.*` keys.\n", repo)[0]


def test_a_link_to_a_missing_file(doc, repo):
    problems = doc("See [there](missing.md).\n", repo)
    assert len(problems) == 1 and "missing.md" in problems[0]


def test_a_link_to_a_missing_anchor(doc, repo):
    problems = doc("See [there](other.md#set-main) and [here](#nowhere).\n\n# Here\n", repo)
    assert [p.split(": ", 1)[1] for p in problems] == [
        "link '#nowhere': doc.md has no heading #nowhere",
        "link 'other.md#set-main': other.md has no heading #set-main",
    ]


def test_headings_and_links_in_code_blocks_do_not_count(doc, repo):
    problems = doc("[x](#twice)\n\n```\n# twice\n[y](gone.md)\n```\n", repo)
    assert len(problems) == 1 and "#twice" in problems[0]


def test_an_unknown_flag(doc, repo):
    problems = doc("Run `benchmarks/marco-bench main --rates 3`.\n", repo)
    assert problems == [
        f"{problems[0].split(':', 1)[0]}:1: 'benchmarks/marco-bench main --rates': "
        "'benchmarks/marco-bench main --help' lists no such flag"
    ]


def test_a_flag_of_another_subcommand(doc, repo):
    # doctor takes only a few of main's flags
    assert doc("`benchmarks/marco-bench doctor --reps 3`\n", repo)


def test_an_unknown_subcommand(doc, repo):
    problems = doc("```\n./build.sh tests --stage lint\nbenchmarks/marco-bench mian\n```\n", repo)
    assert len(problems) == 2
    assert "'build.sh tests': no such subcommand" in problems[0]
    assert "'benchmarks/marco-bench mian': no such subcommand" in problems[1]


def test_flags_after_a_shell_operator_are_not_the_commands(doc, repo):
    assert doc("`./build.sh && benchmarks/marco-bench main --fresh | tee --append x`\n", repo) == []


def test_an_unknown_flag_of_a_script_without_subcommands(doc, repo):
    assert "--file" in doc("`./run-main.sh --file 3`\n", repo)[0]


def test_the_real_docs_pass(repo):
    docs = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    assert [problem for path in docs for problem in docs_check.check_file(repo, path)] == []
