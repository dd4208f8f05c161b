"""`freecell-arena solve` as a user runs it: only moves on standard output, so it pipes into `replay`."""

from __future__ import annotations

import subprocess
import sys

import pytest

from freecell_arena.engine import VARIANTS

CLI = [sys.executable, "-m", "freecell_arena"]


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], input=stdin, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_solve_piped_into_replay_is_won_for_every_variant(variant: str) -> None:
    """The shell pipeline of the docs, for real: `solve V 1 | replay V 1 --file -`."""
    solve = subprocess.Popen([*CLI, "solve", variant, "1", "--budget", "60"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)  # fmt: skip
    replay = subprocess.run([*CLI, "replay", variant, "1", "--file", "-"], stdin=solve.stdout, capture_output=True,
                            text=True, timeout=120)  # fmt: skip
    assert solve.stdout is not None and solve.stderr is not None
    solve.stdout.close()
    summary = solve.stderr.read()
    assert solve.wait(timeout=120) == 0, summary
    assert summary.startswith("solved: par "), summary
    replayed_moves = int(summary.split(", ")[1].split()[0])  # "..., N moves to replay with ..."
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.splitlines()[-1] == f"won in {replayed_moves} moves"


def test_standard_output_holds_only_moves() -> None:
    solved = run_cli("solve", "chinese-freecell", "2", "--atomic", "--budget", "30")
    assert solved.returncode == 0, solved.stderr
    moves = solved.stdout.split()
    assert moves and all("x" not in move for move in moves)  # atomic: no run counts
    assert all(len(line.split()) <= 10 for line in solved.stdout.splitlines())
    assert solved.stderr.startswith("solved: par ")
    replayed = run_cli("replay", "chinese-freecell", "2", *moves)
    assert replayed.stdout.splitlines()[-1] == f"won in {len(moves)} moves"


def test_replay_skips_comment_lines() -> None:
    solved = run_cli("solve", "freecell", "1", "--budget", "30")
    commented = f"# solved by freecell-arena solve\n{solved.stdout}# {solved.stderr}"
    replayed = run_cli("replay", "freecell", "1", "--file", "-", stdin=commented)
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout.splitlines()[-1] == f"won in {len(solved.stdout.split())} moves"


def test_deal_11982_says_unknown_on_standard_error_within_a_small_budget() -> None:
    result = run_cli("solve", "freecell", "11982", "--budget", "1")
    assert result.returncode == 0
    assert result.stdout == ""
    assert result.stderr.strip() in ("unknown", "unsolvable")


def test_bad_input_is_one_line_and_exit_2() -> None:
    for args in (["solve", "freecell", "0"], ["solve", "freecell", "1", "--budget", "-3"], ["solve", "nope", "1"]):
        result = run_cli(*args)
        assert result.returncode == 2
        assert "Traceback" not in result.stderr
        assert result.stderr.strip()
