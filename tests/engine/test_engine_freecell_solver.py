"""Against the outside world: Freecell Solver's deal generator, its board reader and its solutions.

tests/solver/test_against_freecell_solver.py already replays atomic `-sn -l fg` solutions of deals 1, 2, 5, 10 and
tests/test_cli.py the one of deal 1 through the command line; these take other deals, the `-snx` form, non-atomic
solutions (whose supermoves may exceed FreeCell's limit) and our board text as Freecell Solver's input.
"""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from freecell_arena.engine import Board, Game, ReplayError, card_text, variant_by_id
from freecell_arena.engine.view import board_text

pytestmark = [pytest.mark.external, pytest.mark.usefixtures("freecell_solver")]

FREECELL = variant_by_id("freecell")
STANDARD_MOVE = re.compile(r"^[1-8a-dh][1-8a-dh](v[0-9a-f]+)?$")
SEPARATOR = "-=-=-=-=-=-=-=-=-=-=-=-"
TIMEOUT_S = 60


def microsoft_board(deal: int) -> str:
    return subprocess.run(
        ["make-microsoft-freecell-board", "-t", str(deal)], capture_output=True, text=True, check=True,
        timeout=TIMEOUT_S,
    ).stdout  # fmt: skip


def freecell_solver(board_text: str, *options: str) -> tuple[bool, list[str]]:
    """Whether fc-solve solved the board, and its moves in standard notation."""
    output = subprocess.run(
        ["fc-solve", "-m", *options], input=board_text, capture_output=True, text=True, timeout=TIMEOUT_S,
        env={**os.environ, "FREECELL_SOLVER_QUIET": "1"},
    ).stdout  # fmt: skip
    solved = "This game is solveable." in output
    moves = [word for word in output.split(SEPARATOR)[-1].split() if STANDARD_MOVE.match(word)] if solved else []
    return solved, moves


@pytest.mark.parametrize("deal", [1, 2, 617, 11982, 32000, 1_000_000, 123_456_789, 2**31 - 2, 2**31 - 1])
def test_deals_match_make_microsoft_freecell_board(deal: int) -> None:
    theirs = [line.split() for line in microsoft_board(deal).splitlines() if line.strip()]
    ours = [[card_text(card) for card in column] for column in Board.deal(FREECELL, deal).tableau]
    assert ours == theirs


@pytest.mark.parametrize("notation", ["-sn", "-snx"])
@pytest.mark.parametrize("deal", [3, 1_000_000, 123_456_789, 2**31 - 1])
def test_atomic_solutions_replay_to_a_win(deal: int, notation: str) -> None:
    solved, moves = freecell_solver(microsoft_board(deal), notation, "-l", "fg")
    assert solved and moves
    game = Game.replay(FREECELL, deal, moves)
    assert game.outcome == "won"
    assert game.player_moves == game.single_card_moves == len(moves)


@pytest.mark.parametrize("deal", [1, 4, 7, 11, 12, 19, 23, 26, 40])
def test_non_atomic_solutions_replay_or_their_overlong_supermove_is_refused(deal: int) -> None:
    """fc-solve's supermoves ignore FreeCell's limit now and then: such a move must be refused, naming the run
    length and the limit, and everything before it must have replayed."""
    solved, moves = freecell_solver(microsoft_board(deal), "-snx")
    assert solved
    try:
        game = Game.replay(FREECELL, deal, moves)
    except ReplayError as refused:
        assert refused.code == "run_too_long", refused
        length, limit = map(int, re.findall(r"a run of (\d+) cards is longer than the limit of (\d+)", str(refused))[0])
        assert length > limit
        before = Game.replay(FREECELL, deal, moves[: refused.number - 1])
        assert before.player_moves == refused.number - 1
        return
    assert game.outcome == "won"
    assert game.player_moves == len(moves)
    assert game.single_card_moves >= game.player_moves


def test_the_sample_of_non_atomic_solutions_holds_both_outcomes_and_counted_moves() -> None:
    """Keeps the test above honest: some samples win through multi-card moves (with `v` counts), some do not."""
    outcomes = set()
    counted = False
    for deal in (4, 11, 12, 40):
        _, moves = freecell_solver(microsoft_board(deal), "-snx")
        counted = counted or any("v" in move for move in moves)
        try:
            Game.replay(FREECELL, deal, moves)
            outcomes.add("won")
        except ReplayError as refused:
            outcomes.add(refused.code)
    assert outcomes == {"won", "run_too_long"}
    assert counted


def test_the_sn_and_snx_solutions_differ_only_in_counts_into_empty_columns() -> None:
    """`-sn` omits the count of a multi-card move into an empty column, which standard notation then reads as one
    card (docs/notation.md): only `-snx` spells such moves out. A `-sn` solution without them replays as it is."""
    for deal in (1, 2, 3, 4):
        _, plain = freecell_solver(microsoft_board(deal), "-sn")
        _, extended = freecell_solver(microsoft_board(deal), "-snx")
        assert plain == [move.split("v")[0] for move in extended]
        if plain == extended:
            assert Game.replay(FREECELL, deal, plain).outcome == "won"


def test_freecell_solver_reads_our_board_text_and_its_solution_replays_from_there() -> None:
    """A mid-game position (cards in cells, a foundation at Ten) written by `Board.text`, solved by fc-solve, and
    its solution played on from the same position."""
    game = Game(FREECELL, 5)
    _, opening = freecell_solver(microsoft_board(5), "-sn", "-l", "fg")
    for move in opening:
        game.act(move)
        tens = [height for height in game.board.foundations if height >= 10]
        if tens and 0 < game.board.cells.count(0) < 4:
            break
    text = board_text(game.board)
    assert re.search(r"-[TJQ]\b", text.splitlines()[0]) and "Freecells: -" not in text
    solved, rest = freecell_solver(text, "-snx")
    assert solved
    for move in rest:
        game.act(move)
    assert game.outcome == "won"


def test_deal_11982_is_the_known_unsolvable_one() -> None:
    solved, _ = freecell_solver(board_text(Board.deal(FREECELL, 11982)), "-snx")
    assert not solved
    assert freecell_solver(board_text(Board.deal(FREECELL, 11981)), "-snx")[0]
