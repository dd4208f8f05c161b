"""A bench of bench/ run for real, briefly, as the tests of benches do: its output, or the test fails with its
errors (figures are read by people, never asserted)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BENCH_TIMEOUT_S = 120


def run_bench(script: str, *arguments: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(REPO / "server")}
    result = subprocess.run([sys.executable, str(REPO / "bench" / script), *arguments], cwd=REPO, env=env,
                            capture_output=True, text=True, timeout=BENCH_TIMEOUT_S)  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result.stdout
