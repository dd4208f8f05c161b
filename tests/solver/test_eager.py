"""The eager search and the resumable search that `solve` interleaves: fast, and never taken for a proof."""

from __future__ import annotations

import itertools
import time

import pytest
from solver_positions import position

from freecell_arena.engine import CELL, FOUNDATION, TABLEAU, Board, Game, card_from_text, variant_by_id
from freecell_arena.engine.solver import Status, certify, solve
from freecell_arena.engine.solver.search import BestFirst, best_first
from freecell_arena.engine.solver.solve import COMPLETE_FIRST
from freecell_arena.engine.solver.state import SolverMove, State, generate_moves, rules_for, state_from_board

FREECELL = variant_by_id("freecell")


def one_place_short() -> Board:
    """Lost (test_solve.py proves it with the complete search): nothing can ever reach the ace of clubs."""
    return position(
        "freecell",
        ["AC 2C 3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC"],
        ["JC", "QC", "KC"],
        [0, 13, 13, 13],
    )


def test_an_eager_search_that_runs_dry_proves_nothing() -> None:
    board = one_place_short()
    rules = rules_for(board.variant)
    start = state_from_board(board, visible_only=False)
    eager = BestFirst(rules, start, atomic=False, eager=True).run(20)
    assert eager.status is Status.UNKNOWN
    assert eager.out_of == "eager"
    assert best_first(rules, start, atomic=False, seconds=20).status is Status.UNSOLVABLE


def test_a_search_run_in_slices_ends_where_one_run_ends() -> None:
    board = Board.deal(FREECELL, 10)
    rules = rules_for(FREECELL)
    start = state_from_board(board, visible_only=False)
    whole = best_first(rules, start, atomic=False, seconds=60)
    sliced = BestFirst(rules, start, atomic=False)
    limit = 0
    result = sliced.run(60, max_nodes=limit)
    while result.status is Status.UNKNOWN:
        limit += 500
        result = sliced.run(60, max_nodes=limit)
    assert result.status is whole.status is Status.SOLVED
    assert result.path == whole.path
    assert result.nodes == whole.nodes


def test_eager_solutions_are_certified_and_replay() -> None:
    # every foundation move the eager search makes is an explicit move of the solution
    board = Board.deal(FREECELL, 1)
    rules = rules_for(FREECELL)
    found = BestFirst(rules, state_from_board(board, visible_only=False), atomic=False, eager=True).run(20)
    assert found.status is Status.SOLVED
    eager = certify(board, found.path)
    assert any(step.to_zone == FOUNDATION for step in found.path)
    assert Game.replay(FREECELL, 1, eager.notation, autoplay=False).board.is_won()


def test_four_deck_is_solved_and_replays() -> None:
    variant = variant_by_id("freecell-four-deck")
    result = solve(Board.deal(variant, 3), budget=60)
    assert result.status is Status.SOLVED, result.detail
    assert Game.replay(variant, 3, result.notation, autoplay=False).board.is_won()


def test_a_node_budget_gives_the_same_answer_on_a_slow_and_a_fast_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The daily challenge certifies its deals with a node budget so that every machine picks the same deal with
    the same par: with one, how fast the clock runs must not change which search runs when, nor the answer."""
    board = Board.deal(FREECELL, 617)  # unsettled within these nodes: every search takes its turns
    answers = []
    for step in (1e-6, 1e-2):  # seconds the clock moves at each reading: a fast machine, then a slow one
        readings = itertools.count()
        monkeypatch.setattr(time, "perf_counter", lambda step=step, readings=readings: next(readings) * step)
        result = solve(board, budget=10, max_nodes=40_000)  # the slow machine's 10 s hold far more than that
        answers.append((result.status, result.notation, result.nodes))
    monkeypatch.undo()
    assert answers[0] == answers[1]
    assert answers[0][2] > 40_000 * COMPLETE_FIRST, "the eager searches took their turns"


def test_keep_runs_leaves_out_only_moves_that_lift_cards_off_a_card_they_build_on() -> None:
    rules = rules_for(FREECELL)
    laid_out = ("5D KS QH JC", "QD", "9S 3H 2C", "4D", "TC", "TC", "TC", "")
    columns = tuple(bytes(card_from_text(word) for word in text.split()) for text in laid_out)
    state = State(columns, b"", (0, 0, 2, 0))
    every = {SolverMove(*move) for move in generate_moves(rules, state, atomic=False)}
    kept = {SolverMove(*move) for move in generate_moves(rules, state, atomic=False, keep_runs=True)}
    assert kept <= every
    # JC or QH-JC off a card they build on (onto QD, into a cell, into the empty column) are left out; the whole
    # run KS-QH-JC (off 5D) is kept, and so is 2C off 3H, since the 3H then goes up
    assert {(move.source, move.to_zone, move.target, move.count) for move in every - kept} == {
        (0, TABLEAU, 1, 1),
        (0, CELL, 0, 1),
        (0, TABLEAU, 7, 1),
        (0, TABLEAU, 7, 2),
    }
    assert SolverMove(TABLEAU, 0, TABLEAU, 7, 3) in kept
    assert SolverMove(TABLEAU, 2, CELL, 0, 1) in kept
    assert SolverMove(TABLEAU, 2, TABLEAU, 7, 1) in kept
    with pytest.raises(ValueError, match="only for an eager search"):
        BestFirst(rules, state, atomic=False, keep_runs=True)
