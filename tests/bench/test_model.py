# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""The speedup model (benchmarks/harness/model.py, docs/model.md): its arithmetic and regimes on
the cases it shares with the advisor's Java SpeedupModel, and its use in the report's ideal."""

import json
import math
from pathlib import Path

import pytest
from harness import advisorcheck, aggregate, breakdown, model, modelcheck, report, runner

CASES = json.loads((Path(__file__).parent / "data" / "model-cases.json").read_text())


def run(inputs):
    return model.predict(
        inputs["wall_s"],
        inputs["exposed_shuffle_s"],
        inputs["final_merge_s"],
        inputs["final_reduce_s"],
        inputs.get("idle_cpu_s"),
        inputs.get("final_cpu_s"),
    )


@pytest.mark.parametrize("case", CASES["cases"], ids=[c["name"] for c in CASES["cases"]])
def test_the_shared_cases(case):
    p = run(case["inputs"])
    expect = case["expect"]
    assert p.bound == expect["bound"]
    assert math.isclose(p.saving_s, expect["saving_s"], abs_tol=CASES["tolerance"])
    if expect["speedup"] is None:
        assert p.speedup is None
    else:
        assert math.isclose(p.speedup, expect["speedup"], abs_tol=CASES["tolerance"])


@pytest.mark.parametrize("case", CASES["errors"], ids=[c["name"] for c in CASES["errors"]])
def test_bad_inputs_are_named(case):
    with pytest.raises(ValueError, match=case["error"]):
        run(case["inputs"])


def test_every_regime_has_a_case():
    assert {c["expect"]["bound"] for c in CASES["cases"]} == set(model.BOUNDS)


def test_the_output_write_and_the_map_phase_do_not_enter_the_saving():
    b = {"exposed_shuffle": 5.0, "final_merge": 1.0, "final_reduce": 2.0, "output_write": 4.0}
    assert model.predict_stock(20.0, {**b, "map": 9.0}).saving_s == 3.0
    assert model.predict_stock(20.0, {**b, "exposed_shuffle": 0.5}).saving_s == 0.5


def test_the_cpu_term_comes_from_the_machine_cpu_of_the_exposed_shuffle_and_final_phases():
    b = {"exposed_shuffle": 40.0, "final_merge": 5.0, "final_reduce": 25.0}
    cpu = {
        "exposed_shuffle": {"idle": 20.0, "nice": 0.0, "busy": 60.0},
        "final_merge": {"idle": 0.0, "nice": 0.0, "busy": 10.0},
        "final_reduce": {"idle": 3.0, "nice": 0.0, "busy": 50.0},
    }
    p = model.predict_stock(100.0, b, cpu)
    assert (p.saving_s, p.bound) == (10.0, model.CPU)
    assert model.predict_stock(100.0, b).bound == model.FINAL_WORK


def test_the_reports_ideal_is_the_model_without_its_cpu_term():
    def summary(config, variant, wall, breakdown):
        return {
            "set": "main",
            "rate_mbit": 3.5,
            "job": "adjacency-list",
            "config": config,
            "variant": variant,
            "wall_s": {"mean": wall, "min": wall, "max": wall},
            "breakdown": breakdown,
            "output_sha256": ["x"],
        }

    stock = {p: 1.0 for p in breakdown.PHASES}
    stock.update(map=40.0, exposed_shuffle=50.0, final_reduce=29.0)
    rows = [
        summary("stock-early", "stock-early", 140.0, stock),
        summary("marco", "marco", 115.0, {**stock, "final_reduce": 2.0}),
    ]
    aggregate.compare(rows)
    assert rows[1]["ideal_saving_s"] == 30.0
    assert rows[1]["ideal_speedup"] == pytest.approx(140.0 / 110.0)


def check_inputs(band, config="marco"):
    stock = {p: 1.0 for p in breakdown.PHASES}
    stock.update(map=40.0, exposed_shuffle=50.0, final_reduce=29.0)
    key = {"set": "main", "rate_mbit": 3.5, "job": "adjacency-list"}
    summaries = [
        {
            **key,
            "config": "stock-early",
            "variant": "stock-early",
            "wall_s": {"mean": 140.0},
            "breakdown": stock,
            "runs": 3,
            "baseline": "stock-early",
        },
        {**key, "config": config, "variant": "marco", "speedup": 1.20, "runs": 3},
    ]
    summaries[1]["baseline"] = "stock-early"
    bands = {"main": {3.5: {"jobs": {"adjacency-list": band}}}}
    return summaries, bands


def test_the_model_check_holds_a_measured_speedup_to_its_noise_band():
    summaries, bands = check_inputs({"low": 0.9, "high": 1.1})
    [row] = modelcheck.rows([], summaries, bands)
    assert row["predicted_speedup"] == pytest.approx(140.0 / 110.0)
    assert row["bound"] == model.FINAL_WORK and not row["cpu_term"]
    assert row["error"] == pytest.approx(1.20 - 140.0 / 110.0)
    assert row["noise_half_band"] == pytest.approx(0.1)
    assert row["within"]


def test_the_model_check_holds_a_narrow_band_to_the_floor():
    summaries, bands = check_inputs({"low": 0.99, "high": 1.01})
    [row] = modelcheck.rows([], summaries, bands)
    assert row["tolerance"] == modelcheck.TOLERANCE_FLOOR
    assert not row["within"]
    # Another config's band comes from the records; with too few runs there is none.
    summaries, bands = check_inputs(None, config="marco-no-partial-reduce")
    [row] = modelcheck.rows([], summaries, bands)
    assert row["noise_half_band"] is None and row["tolerance"] == modelcheck.TOLERANCE_FLOOR
    table = "\n".join(report.model_check_section([row]))
    assert "| adjacency-list | marco-no-partial-reduce | stock-early (3) | 30.0 | 1.27 |" in table


def advisor_inputs(tmp_path):
    """Two stock-early runs of adjacency-list with their kept histories, one faulty run, and a
    model-check row whose baseline they are."""
    records = []
    for rep, fault in ((1, None), (2, None), (3, "kill-reduce")):
        key = f"main/adjacency-list/stock-early@3.5/{rep}"
        job_id = f"job_1_000{rep}"
        run_dir = tmp_path / "runs" / runner.run_dir_name(key)
        run_dir.mkdir(parents=True)
        (run_dir / f"{job_id}-1-root-adjacency-list.jhist").write_text("{}")
        records.append(
            {
                "key": key,
                "status": "ok",
                "fault": fault,
                "set": "main",
                "rate_mbit": 3.5,
                "job": "adjacency-list",
                "config": "stock-early",
                "job_ids": [job_id],
            }
        )
    summaries, bands = check_inputs({"low": 0.9, "high": 1.1})
    [row] = modelcheck.rows([], summaries, bands)
    return records, row


def test_the_advisor_check_reads_the_baselines_fault_free_histories(tmp_path, monkeypatch):
    records, row = advisor_inputs(tmp_path)
    histories = advisorcheck.baseline_histories(tmp_path, records, row)
    assert [h.name.split("-")[0] for h in histories] == ["job_1_0001", "job_1_0002"]
    asked = []

    def advise(mapred, files):
        asked.append((mapred, files))
        return {
            "job_1_0001": {"predicted": {"speedup": 1.20}},
            "job_1_0002": {"predicted": {"speedup": 1.30}},
        }

    monkeypatch.setattr(advisorcheck, "advise", advise)
    advisorcheck.annotate(tmp_path, records, [row], Path("/opt/marco/bin/mapred"))
    assert asked == [(Path("/opt/marco/bin/mapred"), histories)]
    assert row["advisor_speedup"] == pytest.approx(1.25) and row["advisor_histories"] == 2
    assert row["advisor_within"]  # measured 1.20, tolerance 0.1
    table = "\n".join(report.model_check_section([row]))
    assert "| 1.25 (2) | yes |" in table and "The advisor: 1 of 1 within" in table


def test_the_report_says_why_the_advisor_did_not_run(tmp_path):
    records, row = advisor_inputs(tmp_path)
    note = report.annotate_with_advisor(tmp_path, records, [row], tmp_path / "no" / "mapred")
    assert note.startswith("The advisor was not run: no ") and "advisor_speedup" not in row
    table = "\n".join(report.model_check_section([row], note))
    assert "| – | – |" in table and "The advisor was not run: no " in table
    no_dist = report.annotate_with_advisor(tmp_path, records, [row], None)
    assert no_dist == "The advisor was not run: no distribution was given."
