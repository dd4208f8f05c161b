"""Beside Freecell Solver on the same Microsoft deals: both find them solvable, and our par is shorter."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from freecell_arena.engine import Board, Game, variant_by_id
from freecell_arena.engine.solver import Status, solve

pytestmark = pytest.mark.external

MOVE = re.compile(r"^[1-8a-dh]{2}(v[0-9a-f]+)?$")


def require_freecell_solver() -> None:
    if shutil.which("fc-solve") and shutil.which("make-microsoft-freecell-board"):
        return
    if os.environ.get("CI") == "true":
        pytest.fail("fc-solve is missing (Debian package freecell-solver-bin) and CI must run this test")
    pytest.skip("fc-solve is not installed (Debian package freecell-solver-bin)")


def freecell_solver_moves(deal: int) -> list[str]:
    board = subprocess.run(
        ["make-microsoft-freecell-board", "-t", str(deal)], capture_output=True, text=True, check=True, timeout=30
    ).stdout
    solved = subprocess.run(
        ["fc-solve", "-m", "-sn", "-l", "fg"],
        input=board,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "FREECELL_SOLVER_QUIET": "1"},
    ).stdout
    assert "This game is solveable." in solved
    body = solved.split("-=-=-=-=-=-=-=-=-=-=-=-")[-1]
    return [word for word in body.split() if MOVE.match(word)]


@pytest.mark.parametrize("deal", [1, 2, 5, 10])
def test_par_is_shorter_than_freecell_solvers_atomic_solution(deal: int) -> None:
    require_freecell_solver()
    theirs = freecell_solver_moves(deal)
    variant = variant_by_id("freecell")
    assert Game.replay(variant, deal, theirs, autoplay=False).board.is_won()
    ours = solve(Board.deal(variant, deal), budget=20)
    assert ours.status is Status.SOLVED and ours.solution is not None
    assert ours.solution.player_moves < len(theirs)
