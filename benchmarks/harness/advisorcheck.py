# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""The advisor check (docs/advisor.md): `mapred marco-advise` on the job histories that the
baseline's own runs left (each run directory keeps its job's .jhist), beside the speedup then
measured. The model check predicts from the harness's breakdown; this predicts from the history
alone, as an operator would before deploying MaRCO, so it checks the advisor end to end."""

import json
import subprocess
from pathlib import Path
from typing import Any

from .datatypes import Record
from .runner import run_dir_name

ADVISE_TIMEOUT_S = 600


def baseline_histories(out: Path, records: list[Record], check: dict[str, Any]) -> list[Path]:
    """The .jhist of each fault-free run of CHECK's baseline that ran exactly one job."""
    found = []
    for r in records:
        if (
            r["status"] == "ok"
            and not r.get("fault")
            and (r["set"], r["rate_mbit"], r["job"], r["config"])
            == (check["set"], check["rate_mbit"], check["job"], check["baseline"])
            and len(r.get("job_ids") or []) == 1
        ):
            run_dir = out / "runs" / run_dir_name(r["key"])
            found += sorted(run_dir.glob(f"{r['job_ids'][0]}-*.jhist"))
    return found


def advise(mapred: Path, histories: list[Path]) -> dict[str, dict[str, Any]]:
    """The advisor's answer per job id, from one `mapred marco-advise --json` over HISTORIES."""
    done = subprocess.run(
        [str(mapred), "marco-advise", "--json", *map(str, histories)],
        capture_output=True,
        text=True,
        timeout=ADVISE_TIMEOUT_S,
    )
    # A history it cannot read is listed under "errors", and the others are still advised.
    try:
        jobs = json.loads(done.stdout)["jobs"]
    except (json.JSONDecodeError, KeyError) as e:
        raise RuntimeError(
            f"{mapred} marco-advise exited {done.returncode} without its JSON ({e}): "
            f"{done.stderr.strip()[-2000:]}"
        ) from e
    return {job["id"]: job for job in jobs}


def annotate(out: Path, records: list[Record], checks: list[dict[str, Any]], mapred: Path) -> None:
    """Adds to every model-check row the advisor's mean predicted speedup over the baseline's
    histories ("advisor_speedup", None without one) and whether the measured speedup lies within
    the row's tolerance of it ("advisor_within")."""
    per_check = [baseline_histories(out, records, c) for c in checks]
    everything = sorted({h for hs in per_check for h in hs})
    answers = advise(mapred, everything) if everything else {}
    for check, histories in zip(checks, per_check, strict=True):
        speedups = [
            answers[job_id]["predicted"]["speedup"]
            for job_id in (h.name.split("-", 1)[0] for h in histories)
            if job_id in answers and answers[job_id]["predicted"].get("speedup") is not None
        ]
        mean = sum(speedups) / len(speedups) if speedups else None
        check["advisor_speedup"] = mean
        check["advisor_histories"] = len(speedups)
        check["advisor_within"] = (
            mean is not None and abs(check["measured_speedup"] - mean) <= check["tolerance"]
        )
