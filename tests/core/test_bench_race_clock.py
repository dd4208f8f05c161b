"""bench/race_clock.py keeps working: a short real run prints the tick beside its baseline (figures are read by
people, never asserted; the bench itself fails if a race it set up rings)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_race_clock_bench_runs_and_prints_both_ticks() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO / "server")}
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "race_clock.py"), "--races", "500", "--ticks", "20"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "baseline: a tick with no race running" in result.stdout, result.stdout
    assert "a tick with 500 races running (none due)" in result.stdout and "x baseline" in result.stdout
