"""`freecell-arena solve` as a user runs it, and its output fed to `freecell-arena replay`."""

from __future__ import annotations

import subprocess
import sys


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "freecell_arena", *args], capture_output=True, text=True, timeout=120)


def test_solve_output_replays_to_a_win() -> None:
    solved = run_cli("solve", "freecell", "1", "--budget", "30")
    assert solved.returncode == 0, solved.stderr
    lines = solved.stdout.splitlines()
    assert lines[-1].startswith("solved: par ")
    moves = " ".join(lines[:-1]).split()
    replayed = run_cli("replay", "freecell", "1", *moves)
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout.splitlines()[-1] == f"won in {len(moves)} moves"


def test_solve_generic_notation_replays_for_chinese_freecell() -> None:
    solved = run_cli("solve", "chinese-freecell", "2", "--atomic", "--budget", "30")
    assert solved.returncode == 0, solved.stderr
    moves = " ".join(solved.stdout.splitlines()[:-1]).split()
    assert all("x" not in move for move in moves)  # atomic: no run counts
    replayed = run_cli("replay", "chinese-freecell", "2", *moves)
    assert replayed.stdout.splitlines()[-1] == f"won in {len(moves)} moves"


def test_deal_11982_prints_unknown_within_a_small_budget() -> None:
    result = run_cli("solve", "freecell", "11982", "--budget", "1")
    assert result.returncode == 0
    assert result.stdout.strip() in ("unknown", "unsolvable")


def test_bad_input_is_one_line_and_exit_2() -> None:
    for args in (["solve", "freecell", "0"], ["solve", "freecell", "1", "--budget", "-3"], ["solve", "nope", "1"]):
        result = run_cli(*args)
        assert result.returncode == 2
        assert "Traceback" not in result.stderr
        assert result.stderr.strip()
