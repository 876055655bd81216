# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""Profiles: JSON files that fix the cluster shape, data sizes, jobs, variants and repetitions of a
benchmark session (benchmarks/profiles/*.json; every key is described in docs/harness.md)."""

import json
from collections.abc import Iterable
from pathlib import Path

from . import catalog
from .datatypes import Profile

PROFILE_DIR = Path(__file__).resolve().parents[1] / "profiles"

CLUSTER_KEYS = {
    "workers",
    "groups",
    "rate_mbit",
    "cpu_per_worker",
    "mem_per_worker",
    "nm_memory_mb",
    "nm_vcores",
    "class_archive",
}
TOP_KEYS = {
    "name",
    "description",
    "cluster",
    "jobs",
    "variants",
    "repetitions",
    "warmup_runs",
    "reduces",
    "seed",
    "data",
    "generate_conf",
    "job_conf",
    "per_job_conf",
    "sweep",
    "faults",
    "calibration",
    "output_checksum",
    "regime",
}
# How a run's output is compared with stock's: "download" copies it and hashes every byte (small
# outputs); "composite-crc" asks HDFS for each file's composite CRC (dfs.checksum.combine.mode=
# COMPOSITE_CRC), which does not depend on block or chunk sizes, and copies nothing (large outputs).
OUTPUT_CHECKSUMS = ("download", "composite-crc")
SWEEP_KEYS = {
    "jobs",
    "variants",
    "repetitions",
    "rates",
    "rate_factors",
    "start_thresholds",
    "stop_fractions",
    "in_main",
}
REGIME_KEYS = {"job", "variants", "repetitions", "reduce_costs", "rates", "conf"}
FAULT_KEYS = {"jobs", "variants", "repetitions", "kill_at", "fail_invocation"}
CALIBRATION_KEYS = {"jobs", "rates", "repetitions", "probe_job"}


class ProfileError(ValueError):
    pass


def available() -> list[str]:
    return sorted(p.stem for p in PROFILE_DIR.glob("*.json"))


def load(name_or_path: str | Path) -> Profile:
    """The profile named NAME (benchmarks/profiles/NAME.json) or the JSON file at a path, with
    what it `extends` under it."""
    path = _path(name_or_path, None)
    data = _read(path, ())
    data.setdefault("name", path.stem)
    return validate(data, str(path))


def _path(name_or_path: str | Path, relative_to: Path | None) -> Path:
    """A name is a file in PROFILE_DIR; a relative path is taken from RELATIVE_TO if given."""
    path = Path(name_or_path)
    if not path.suffix:
        path = PROFILE_DIR / f"{name_or_path}.json"
    elif relative_to is not None and not path.is_absolute():
        path = relative_to / path
    if not path.is_file():
        raise ProfileError(
            f"no profile '{name_or_path}' ({path} does not exist); "
            f"the profiles are: {', '.join(available())}, or give a path to a .json file"
        )
    return path


def _read(path: Path, seen: tuple[Path, ...]) -> Profile:
    """The JSON at PATH over the profile it `extends` (a name, or a path relative to PATH's
    directory), itself read the same way, so a variant of a profile states only what differs."""
    if path.resolve() in seen:
        chain = " -> ".join(str(p) for p in (*seen, path.resolve()))
        raise ProfileError(f"profile {path} extends itself ({chain}); remove one 'extends'")
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise ProfileError(f"profile {path} is not valid JSON: {e}") from e
    if not isinstance(data, dict):
        raise ProfileError(f"profile {path} must be a JSON object")
    base = data.pop("extends", None)
    if base is None:
        return data
    if not isinstance(base, str):
        raise ProfileError(f"profile {path}: 'extends' must name a profile, got {base!r}")
    return _merged(_read(_path(base, path.parent), (*seen, path.resolve())), data)


def _merged(base: dict, over: dict) -> dict:
    """BASE with OVER's keys put in: objects are merged key by key, anything else is replaced."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merged(out[key], value)
        else:
            out[key] = value
    return out


def _unknown(keys: Iterable[str], allowed: set[str], where: str) -> None:
    # Keys starting with "_" are the harness's own notes (e.g. where the profile came from).
    extra = {k for k in keys if not k.startswith("_")} - allowed
    if extra:
        raise ProfileError(
            f"{where}: unknown key(s) {', '.join(sorted(extra))}; "
            f"allowed: {', '.join(sorted(allowed))}"
        )


def validate(p: Profile, where: str = "profile") -> Profile:
    _unknown(p, TOP_KEYS, where)
    p.setdefault("cluster", {})
    _unknown(p["cluster"], CLUSTER_KEYS, f"{where}: cluster")
    p["cluster"] = {"workers": 4, "groups": 2, "rate_mbit": 50, **p["cluster"]}
    p.setdefault("jobs", list(catalog.ALL_JOBS))
    p.setdefault("variants", ["stock", "marco"])
    p.setdefault("repetitions", 3)
    p.setdefault("warmup_runs", 0)
    p.setdefault("reduces", p["cluster"]["workers"])
    p.setdefault("seed", 1)
    p.setdefault("job_conf", {})
    p.setdefault("generate_conf", {})
    p.setdefault("per_job_conf", {})
    p.setdefault("output_checksum", "download")
    if p["output_checksum"] not in OUTPUT_CHECKSUMS:
        raise ProfileError(
            f"{where}: output_checksum must be one of {', '.join(OUTPUT_CHECKSUMS)}, "
            f"got {p['output_checksum']!r}"
        )
    try:
        catalog.check_jobs(p["jobs"])
        catalog.check_variants(p["variants"])
        catalog.check_jobs(list(p["per_job_conf"]))
    except ValueError as e:
        raise ProfileError(f"{where}: {e}") from e
    if not isinstance(p["warmup_runs"], int) or p["warmup_runs"] < 0:
        raise ProfileError(
            f"{where}: warmup_runs must be an integer >= 0, got {p['warmup_runs']!r}"
        )
    if not isinstance(p["repetitions"], int) or p["repetitions"] < 1:
        raise ProfileError(
            f"{where}: repetitions must be an integer >= 1, got {p['repetitions']!r}"
        )
    data = p.get("data")
    if not isinstance(data, dict):
        raise ProfileError(
            f"{where}: 'data' must map each data set "
            f'({", ".join(catalog.GENERATORS)}) to {{"bytes": "64m"}} or '
            f'{{"records": N}}'
        )
    check_data(p, p["jobs"], where)
    if "sweep" in p:
        _unknown(p["sweep"], SWEEP_KEYS, f"{where}: sweep")
        check_rate_factors(p["sweep"], f"{where}: sweep")
    if "faults" in p:
        _unknown(p["faults"], FAULT_KEYS, f"{where}: faults")
    if "regime" in p:
        _unknown(p["regime"], REGIME_KEYS, f"{where}: regime")
        check_data(p, [p["regime"].get("job", "parametric")], where)
    if "calibration" in p:
        _unknown(p["calibration"], CALIBRATION_KEYS, f"{where}: calibration")
        probe = p["calibration"].get("probe_job")
        if probe is not None:
            try:
                catalog.check_jobs([probe])
            except ValueError as e:
                raise ProfileError(f"{where}: calibration.probe_job: {e}") from e
            check_data(p, [probe], where)
    return p


def check_data(p: Profile, jobs: list[str], where: str = "profile") -> None:
    """Every job's data set must have a size in the profile's 'data' section."""
    for job in jobs:
        dataset = catalog.JOB_DATA[job]
        spec = p["data"].get(dataset)
        if not isinstance(spec, dict) or not ({"bytes", "records"} & set(spec)):
            raise ProfileError(
                f"{where}: job {job} reads data set '{dataset}', but data.{dataset} "
                f"is missing or has neither 'bytes' nor 'records'"
            )
        _unknown(spec, {"bytes", "records", "maps", "conf"}, f"{where}: data.{dataset}")


def check_rate_factors(sweep: dict, where: str) -> None:
    factors = sweep.get("rate_factors")
    if factors is None:
        return
    if "rates" in sweep:
        raise ProfileError(f"{where}: give 'rates' (Mbit/s) or 'rate_factors', not both")
    if not factors or not all(
        isinstance(f, (int, float)) and not isinstance(f, bool) and f > 0 for f in factors
    ):
        raise ProfileError(
            f"{where}: rate_factors must be a non-empty list of numbers > 0 (multiples of the "
            f"main rate, e.g. [0.5, 2, 4]), got {factors!r}"
        )


def curve_rates(sweep: dict, base_rate: float, with_base_rate: bool = False) -> list[int | float]:
    """The bandwidth sweep's rates: its 'rates' in Mbit/s, or its 'rate_factors' times the rate
    the other runs use (so the curve follows a rate that main picked for this machine); with
    `with_base_rate`, that rate too, in order."""
    if "rate_factors" in sweep:
        rates = [rounded_rate(f * base_rate) for f in sweep["rate_factors"]]
    else:
        rates = sweep.get("rates", [25, 50, 75])
    if with_base_rate and rounded_rate(base_rate) not in rates:
        return sorted([*rates, rounded_rate(base_rate)])
    return rates


def rounded_rate(rate: float | None) -> int | float | None:
    """A rate as the bandwidth sweep runs it: to 0.01 Mbit/s, 10 as 10 and 7.5 as 7.5 (None, a
    record's rate where none was known, stays None)."""
    return None if rate is None else number(f"{rate:.2f}")


def number(text: str) -> int | float:
    """A rate or fraction given on the command line: 10 stays 10, 7.5 stays 7.5."""
    try:
        value = float(text)
    except ValueError:
        raise ProfileError(f"'{text}' is not a number") from None
    return int(value) if value.is_integer() else value


def dataset_dir(profile: Profile, hdfs_root: str, dataset: str) -> str:
    """HDFS directory of a data set; its name carries size and seed, so a changed profile
    generates fresh data instead of reusing data of another size."""
    spec = profile["data"][dataset]
    size = f"b{spec['bytes']}" if "bytes" in spec else f"r{spec['records']}"
    return f"{hdfs_root}/data/{dataset}-{size}-s{profile['seed']}"
