"""Properties of random play in every variant (Hypothesis): no card is ever lost or duplicated, push/pop and replay
rebuild positions exactly, `legal_moves` lists only legal moves and a representative of every legal move, and
`is_legal` agrees with an independent reading of the rules (tests/engine/rules_oracle.py) on every well-formed move of
random positions and on random moves of any shape, most of them illegal."""

from __future__ import annotations

import json
import random
from collections import Counter

import rules_oracle
from engine_layouts import all_cards, foundation_cards
from hypothesis import given
from hypothesis import strategies as st

from freecell_arena.engine import (
    CELL,
    FOUNDATION,
    TABLEAU,
    UNDO,
    VARIANTS,
    Board,
    Game,
    IllegalMoveError,
    Move,
    card_text,
    format_move,
    variant_by_id,
)
from freecell_arena.engine.view import player_view

VARIANT_IDS = sorted(VARIANTS)


def seeds(variant_id: str) -> st.SearchStrategy[int]:
    low, high = variant_by_id(variant_id).seed_range
    return st.one_of(st.integers(low, low + 10_000), st.just(high))


def choose(data: st.DataObject, board: Board, moves: list[Move], prefer_progress: bool) -> Move:
    """A random legal move; a game that prefers progress picks foundation and building moves when it can, so
    games reach empty columns, long runs and full foundations instead of shuffling cards between cells."""
    if prefer_progress:
        building = [move for move in moves if move.to_zone == FOUNDATION or
                    (move.to_zone == TABLEAU and board.tableau[move.to_index])]  # fmt: skip
        moves = building or moves
    return moves[data.draw(st.integers(0, len(moves) - 1), label="move")]


def play_randomly(data: st.DataObject, variant_id: str, most: int = 60) -> Board:
    board = Board.deal(variant_by_id(variant_id), data.draw(seeds(variant_id), label="seed"))
    prefer_progress = data.draw(st.booleans(), label="prefer progress")
    for _ in range(data.draw(st.integers(0, most), label="moves")):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(choose(data, board, moves, prefer_progress))
    return board


@st.composite
def laid_out_positions(draw: st.DrawFn, variant_id: str) -> Board:
    """A random position that holds exactly the deck, laid out directly rather than reached by play: foundations
    at random heights, random cells filled, some columns empty, columns that grow runs, random face-down counts.
    Random play from a deal seldom reaches empty columns, full cells and long runs; these positions do at once."""
    variant = variant_by_id(variant_id)
    board = Board.deal(variant, variant.seed_range[0])
    rng = random.Random(draw(st.integers(0, 2**32 - 1), label="layout"))
    full = 13 * variant.foundation_laps
    board.foundations = [rng.choice([0, full, rng.randint(0, full)]) for _ in variant.foundation_suits]
    remaining = Counter(variant.deck()) - Counter(foundation_cards(board))
    pool = list(remaining.elements())
    rng.shuffle(pool)
    cell_share = rng.choice([0.0, 0.5, 0.9, 1.0])
    board.cells = [pool.pop() if pool and rng.random() < cell_share else 0 for _ in range(variant.cells)]
    empty_share = rng.choice([0.0, 0.2, 0.5])
    filled = [index for index in range(variant.columns) if rng.random() >= empty_share] or [0]
    board.tableau = [[] for _ in range(variant.columns)]
    run_bias = rng.choice([0.0, rng.random(), 1.0])
    while pool:
        column = board.tableau[rng.choice(filled)]
        builders = [i for i, card in enumerate(pool) if column and variant.builds_on[card][column[-1]]]
        column.append(pool.pop(rng.choice(builders)) if builders and rng.random() < run_bias else pool.pop())
    board.hidden = [rng.randint(0, len(column) - 1) if variant.face_down and column else 0 for column in board.tableau]
    return board


def positions(data: st.DataObject, variant_id: str) -> Board:
    if data.draw(st.booleans(), label="laid out"):
        return data.draw(laid_out_positions(variant_id))
    return play_randomly(data, variant_id, most=40)


def secret_cards(board: Board) -> list[str]:
    return [card_text(card) for index, column in enumerate(board.tableau) for card in column[: board.hidden[index]]]


@given(variant_id=st.sampled_from(VARIANT_IDS), data=st.data())
def test_random_play_never_loses_or_duplicates_a_card(variant_id: str, data: st.DataObject) -> None:
    board = Board.deal(variant_by_id(variant_id), data.draw(seeds(variant_id)))
    deck = Counter(board.variant.deck())
    prefer_progress = data.draw(st.booleans())
    for _ in range(data.draw(st.integers(1, 80))):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(choose(data, board, moves, prefer_progress))
        assert all_cards(board) == deck
        assert all(hidden == 0 if not column else hidden < len(column)
                   for hidden, column in zip(board.hidden, board.tableau, strict=True))  # fmt: skip
        shown = json.dumps(player_view(board))
        assert not [card for card in secret_cards(board) if card in shown]


@given(variant_id=st.sampled_from(VARIANT_IDS), data=st.data())
def test_push_then_pop_restores_the_position(variant_id: str, data: st.DataObject) -> None:
    board = play_randomly(data, variant_id)
    dealt = Board.deal(board.variant, board.seed).key()
    for move in list(board.legal_moves)[:25]:
        before, history = board.key(), list(board.move_stack)
        board.push(move)
        assert board.pop() == move
        assert board.key() == before and board.move_stack == history
    while board.move_stack:
        board.pop()
    assert board.key() == dealt


@given(variant_id=st.sampled_from(VARIANT_IDS), autoplay=st.booleans(), data=st.data())
def test_replaying_the_actions_rebuilds_live_play(variant_id: str, autoplay: bool, data: st.DataObject) -> None:
    variant = variant_by_id(variant_id)
    game = Game(variant, data.draw(seeds(variant_id)), autoplay=autoplay, undo_allowed=True)
    for _ in range(data.draw(st.integers(0, 50))):
        moves = list(game.board.legal_moves)
        if game.outcome is not None or not moves:
            break
        if game.player_moves and data.draw(st.integers(0, 5)) == 0:
            try:
                game.act(UNDO)
            except IllegalMoveError as refused:
                assert refused.code in ("irreversible", "nothing_to_undo")
            continue
        game.act(format_move(variant, choose(data, game.board, moves, data.draw(st.booleans()))))
    replayed = Game.replay(variant, game.seed, game.actions, autoplay=autoplay, undo_allowed=True)
    assert replayed.board.key() == game.board.key()
    assert replayed.board.move_stack == game.board.move_stack
    assert (replayed.player_moves, replayed.single_card_moves) == (game.player_moves, game.single_card_moves)
    assert replayed.actions == game.actions
    assert replayed.player_moves == len(game.actions)


@given(variant_id=st.sampled_from(VARIANT_IDS), data=st.data())
def test_legal_moves_and_is_legal_agree_with_the_rules_on_every_candidate_move(
    variant_id: str, data: st.DataObject
) -> None:
    board = positions(data, variant_id)
    listed = list(board.legal_moves)
    assert len(set(listed)) == len(listed)
    for move in listed:
        assert board.check(move) == move
        assert rules_oracle.is_legal(board, move)
    legal = []
    for move in rules_oracle.every_candidate_move(board):
        allowed = rules_oracle.is_legal(board, move)
        assert board.is_legal(move) == allowed, move
        if allowed:
            legal.append(move)
    representatives = {rules_oracle.representative(board, move) for move in legal} - {None}
    assert representatives == set(listed)
    assert bool(board.legal_moves) == bool(listed)
    assert board.outcome() == ("won" if board.is_won() else None if legal else "stuck")


ZONES = st.sampled_from([TABLEAU, TABLEAU, TABLEAU, CELL, CELL, FOUNDATION, 0, 3, "tableau", None])


def random_moves(board: Board) -> st.SearchStrategy[tuple]:
    """Mostly well-aimed but mostly illegal moves, with bad zones, indices and counts of every type mixed in."""
    variant = board.variant
    places = max(variant.columns, variant.cells, len(variant.foundation_suits))
    index = st.one_of(st.integers(0, places - 1), st.integers(-2, places + 1), st.sampled_from([None, True, "1", 2.0]))
    count = st.one_of(st.integers(1, 3), st.integers(-1, 14), st.sampled_from([True, None, 1.0, "2"]))
    return st.tuples(ZONES, index, ZONES, index, count)


@given(variant_id=st.sampled_from(VARIANT_IDS), data=st.data())
def test_random_moves_of_any_shape_are_judged_as_the_rules_say_and_a_refusal_changes_nothing(
    variant_id: str, data: st.DataObject
) -> None:
    board = positions(data, variant_id)
    before = board.key()
    secrets = secret_cards(board)
    for _ in range(15):
        move = data.draw(random_moves(board), label="candidate")
        expected = rules_oracle.is_legal(board, move)
        assert board.is_legal(move) == expected, move
        try:
            concrete = board.play(move)  # type: ignore[arg-type]
        except IllegalMoveError as refused:
            assert not expected
            assert refused.code and refused.message
            assert not [card for card in secrets if card in refused.message]
            assert board.key() == before
            continue
        assert expected
        assert board.pop() == concrete
        assert board.key() == before


def _plain_player_view(board: Board) -> dict[str, object]:
    """The player view spelled out card by card (what `engine.view.player_view` computes from cached card texts)."""
    return {
        "variant": board.variant.id,
        "tableau": [
            [None if depth < board.hidden[index] else card_text(card) for depth, card in enumerate(column)]
            for index, column in enumerate(board.tableau)
        ],
        "cells": [card_text(card) if card else None for card in board.cells],
        "foundations": [
            {
                "suit": "CDHS"[suit],
                "cards": board.foundations[slot],
                "top": card_text(board.foundation_top(slot)) if board.foundations[slot] else None,
            }
            for slot, suit in enumerate(board.variant.foundation_suits)
        ],
        "cards_on_foundations": board.cards_on_foundations,
    }


@given(st.data(), st.sampled_from(VARIANT_IDS))
def test_the_fast_paths_agree_with_the_plain_definitions(data: st.DataObject, variant_id: str) -> None:
    """`has_legal_move` (asked after every move) is `any(legal_moves)`, `has_foundation_move` is any foundation move
    among them; the player view is the card-by-card one."""
    board = play_randomly(data, variant_id, most=120)
    assert board.has_legal_move() == any(True for _ in board.generate_legal_moves())
    assert bool(board.legal_moves) == board.has_legal_move()
    assert board.has_foundation_move() == any(move.to_zone == FOUNDATION for move in board.generate_legal_moves())
    assert player_view(board) == _plain_player_view(board)
    assert json.dumps(player_view(board)) == json.dumps(_plain_player_view(board))
