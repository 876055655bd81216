# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The hadoop-marco authors
"""The machine's CPU while a run goes on, phase by phase.

The netns cluster's nodes share this machine's cores, so /proc/stat, which the harness reads on
the host, sees every node at once. A run's CPU is read as idle (idle and iowait: what work at a
low priority could still have had), busy (everything else) and, within busy, nice (the user time
of threads at a positive nice value: MaRCO's partial threads run at nice 19, Hadoop's own at 0;
their kernel time counts as busy only). Over the phases of the critical path
(breakdown.phase_windows) that tells whether the baseline's exposed shuffle left CPU for partial
work at all, and how much of it MaRCO used."""

import os
import threading
import time
from pathlib import Path
from typing import Any

# /proc/stat's aggregate "cpu" line: user nice system idle iowait irq softirq steal ...; guest
# time is already counted in user and nice.
NICE, IDLE, IOWAIT, STEAL = 1, 3, 4, 7
FIELDS = 8
SAMPLE_INTERVAL_S = 0.25

# time (epoch ms), then cumulative ticks: idle, nice, total
Sample = tuple[int, int, int, int]


def parse_stat(text: str) -> tuple[int, int, int]:
    """(idle, nice, total) ticks from /proc/stat's aggregate line. Steal time (the hypervisor's)
    is left out of the total: it was never the machine's to give."""
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0] == "cpu":
            ticks = [int(x) for x in parts[1 : 1 + FIELDS]]
            ticks += [0] * (FIELDS - len(ticks))
            total = sum(ticks) - ticks[STEAL]
            return ticks[IDLE] + ticks[IOWAIT], ticks[NICE], total
    raise ValueError("no aggregate 'cpu' line in /proc/stat")


class CpuSampler(threading.Thread):
    """Reads /proc/stat every SAMPLE_INTERVAL_S from start() until stop()."""

    def __init__(self, stat_path: Path = Path("/proc/stat")) -> None:
        super().__init__(name="machine-cpu", daemon=True)
        self.stat_path = stat_path
        self.samples: list[Sample] = []
        self.stopping = threading.Event()

    def sample(self) -> None:
        idle, nice, total = parse_stat(self.stat_path.read_text())
        self.samples.append((int(time.time() * 1000), idle, nice, total))

    def start(self) -> None:
        """Takes the first sample before it returns, so the samples span all that follows."""
        self.sample()
        super().start()

    def run(self) -> None:
        while not self.stopping.wait(SAMPLE_INTERVAL_S):
            self.sample()

    def stop(self) -> dict[str, Any]:
        """Stops sampling after one last sample, so the samples span all that came before;
        returns what to keep of the run: the clock's ticks per second and the samples."""
        self.stopping.set()
        self.join()
        self.sample()
        return {"ticks_per_s": os.sysconf("SC_CLK_TCK"), "samples": self.samples}


def ticks_at(samples: list[Sample], t_ms: float, column: int) -> float | None:
    """A cumulative tick count at time t_ms, linear between the samples around it; None outside
    the sampled span."""
    if not samples or t_ms < samples[0][0] or t_ms > samples[-1][0]:
        return None
    for before, after in zip(samples, samples[1:], strict=False):
        if before[0] <= t_ms <= after[0]:
            span = after[0] - before[0]
            share = (t_ms - before[0]) / span if span else 1.0
            return before[column] + share * (after[column] - before[column])
    return float(samples[-1][column])


def by_phase(cpu: dict[str, Any], windows: list[tuple[str, int, int]]) -> dict[str, Any] | None:
    """phase -> core-seconds idle, nice and busy (all but idle), summed over the phase's windows;
    None if a window falls outside the samples."""
    samples = [tuple(s) for s in cpu["samples"]]
    hz = cpu["ticks_per_s"]
    out: dict[str, dict[str, float]] = {}
    for phase, begin, end in windows:
        ticks = []
        for column in (1, 2, 3):
            a, b = ticks_at(samples, begin, column), ticks_at(samples, end, column)
            if a is None or b is None:
                return None
            ticks.append((b - a) / hz)
        idle, nice, total = ticks
        acc = out.setdefault(phase, {"idle": 0.0, "nice": 0.0, "busy": 0.0})
        acc["idle"] += idle
        acc["nice"] += nice
        acc["busy"] += total - idle
    return out
