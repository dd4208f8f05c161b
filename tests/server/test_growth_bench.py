"""bench/growth.py keeps working: a short real run (its figures are printed, never asserted: people read them)."""

from __future__ import annotations

import re
import subprocess
import sys

from serverprocess import REPO, server_env


def test_a_short_run_measures_every_growing_table_and_what_prune_gives_back() -> None:
    result = subprocess.run([sys.executable, str(REPO / "bench" / "growth.py"), "--races", "4", "--moves", "5"],
                            cwd=REPO, env=server_env(), capture_output=True, text=True, timeout=180)  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    measured = {line.split()[0] for line in lines[2:] if re.match(r"[a-z_]+ +[\d,]+ +[\d.]+ MiB", line)}
    assert {"moves", "games", "rooms", "players", "ratings", "rating_changes", "room_members"} <= measured, lines
    assert any(line.startswith("the whole database") for line in lines), lines
    prune = next(line for line in lines if line.startswith("prune a year on"))
    assert re.search(r"per 1,000 races [\d,]+ players, 1,000 games, [\d,]+ moves, 1,000 rooms go", prune), prune
