"""Notation: Freecell Solver's standard notation for `freecell`, the generic form for every variant, and JSON."""

from __future__ import annotations

import json

import pytest
from engine_layouts import layout

from freecell_arena.engine import (
    CELL,
    FOUNDATION,
    TABLEAU,
    VARIANTS,
    Board,
    Move,
    NotationError,
    format_generic,
    format_move,
    move_from_json,
    move_to_json,
    parse_move,
    variant_by_id,
)

FREECELL = variant_by_id("freecell")


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("3a", Move(TABLEAU, 2, CELL, 0, 1)),
        ("8d", Move(TABLEAU, 7, CELL, 3, 1)),
        ("a3", Move(CELL, 0, TABLEAU, 2, 1)),
        ("3h", Move(TABLEAU, 2, FOUNDATION, None, 1)),
        ("bh", Move(CELL, 1, FOUNDATION, None, 1)),
        ("82v3", Move(TABLEAU, 7, TABLEAU, 1, 3)),
        ("82va", Move(TABLEAU, 7, TABLEAU, 1, 10)),
        (" 3A ", Move(TABLEAU, 2, CELL, 0, 1)),
    ],
)
def test_standard_notation_reads_as_freecell_solver_writes_it(text: str, move: Move) -> None:
    assert parse_move(FREECELL, text) == move


def test_a_column_move_takes_the_count_its_target_implies() -> None:
    board = layout("freecell", ["2D 9H 8S 7D", "TS", "9C", "", "8H"])
    assert parse_move(FREECELL, "12", board) == Move(TABLEAU, 0, TABLEAU, 1, 3)  # 9H 8S 7D onto TS
    assert parse_move(FREECELL, "15", board) == Move(TABLEAU, 0, TABLEAU, 4, 1)  # 7D is red like 8H: the top card
    assert parse_move(FREECELL, "14", board) == Move(TABLEAU, 0, TABLEAU, 3, 1)  # empty: one card
    assert parse_move(FREECELL, "14v3", board) == Move(TABLEAU, 0, TABLEAU, 3, 3)
    assert parse_move(FREECELL, "13", board) == Move(TABLEAU, 0, TABLEAU, 2, 1)  # nothing fits: the top card
    assert parse_move(FREECELL, "12v2", board) == Move(TABLEAU, 0, TABLEAU, 1, 2)  # an explicit count wins


@pytest.mark.parametrize(
    ("variant_id", "text", "move"),
    [
        ("freecell", "t3-c1", Move(TABLEAU, 2, CELL, 0, 1)),
        ("freecell", "t3-c", Move(TABLEAU, 2, CELL, None, 1)),
        ("freecell", "c4-t8", Move(CELL, 3, TABLEAU, 7, 1)),
        ("freecell", "t8-t2x3", Move(TABLEAU, 7, TABLEAU, 1, 3)),
        ("freecell", "t1-f", Move(TABLEAU, 0, FOUNDATION, None, 1)),
        ("freecell", "t1-f4", Move(TABLEAU, 0, FOUNDATION, 3, 1)),
        ("chinese-freecell", "t11-t2x3", Move(TABLEAU, 10, TABLEAU, 1, 3)),
        ("chinese-freecell", "c4-f6", Move(CELL, 3, FOUNDATION, 5, 1)),
        ("freecell-four-deck", "t14-c14", Move(TABLEAU, 13, CELL, 13, 1)),
        ("freecell-four-deck", "c11-f16", Move(CELL, 10, FOUNDATION, 15, 1)),
        ("freecell-four-deck", "t10-t12x5", Move(TABLEAU, 9, TABLEAU, 11, 5)),
        ("cell-eleven", "t7-c11", Move(TABLEAU, 6, CELL, 10, 1)),
        ("cell-eleven", "c11-t1", Move(CELL, 10, TABLEAU, 0, 1)),
        ("freecell-three-deck", "t12-t10x24", Move(TABLEAU, 11, TABLEAU, 9, 24)),
        ("freecell-three-deck", "c6-f", Move(CELL, 5, FOUNDATION, None, 1)),
        ("freecell-three-deck", "T12-C6", Move(TABLEAU, 11, CELL, 5, 1)),
    ],
)
def test_generic_notation_in_every_variant(variant_id: str, text: str, move: Move) -> None:
    variant = variant_by_id(variant_id)
    assert parse_move(variant, text) == move
    assert parse_move(variant, format_generic(move)) == move


@pytest.mark.parametrize(
    ("variant_id", "text", "message"),
    [
        ("freecell", "", "an empty string is not a move"),
        ("freecell", "zz", "'z' names nothing: columns are 1-8, cells a-d, the foundations h"),
        ("freecell", "93", "there is no column 9; this variant has 8"),
        ("freecell", "3e", "'e' names nothing"),
        ("freecell", "h3", "h is a target only: a card on a foundation never leaves it"),
        ("freecell", "38v0", "v0 is not a count"),
        ("freecell", "3", "'3' is not a move: write it as Freecell Solver does"),
        ("freecell", "3abc", "is not a move"),
        ("freecell", "t9-c1", "there is no column 9; this variant has 8 (1-8)"),
        ("freecell", "t1-c5", "there is no cell 5; this variant has 4 (1-4)"),
        ("freecell", "t1-f5", "there is no foundation 5; this variant has 4 (1-4)"),
        ("freecell", "t0-c1", "there is no column 0"),
        ("freecell", "t3-t", "a move to the tableau names its column, e.g. t3-t7"),
        ("freecell", "t3-c1x0", "x0 is not a count"),
        ("freecell-four-deck", "t15-c1", "there is no column 15; this variant has 14 (1-14)"),
        ("freecell-four-deck", "f1-t1", "'f1-t1' is not a move: write it as t3-c1"),
        ("chinese-freecell", "3a", "'3a' is not a move: write it as t3-c1, t11-t2x3, c5-f"),
        ("cell-eleven", "t1-c12", "there is no cell 12; this variant has 11 (1-11)"),
        ("freecell-three-deck", "t1 - c1", "is not a move"),
    ],
)
def test_garbage_is_a_notation_error_that_says_why(variant_id: str, text: str, message: str) -> None:
    with pytest.raises(NotationError) as refused:
        parse_move(variant_by_id(variant_id), text)
    assert message in str(refused.value)


@pytest.mark.parametrize("text", [None, 38, b"3a", ["3a"]])
def test_a_move_that_is_not_text_is_a_notation_error(text: object) -> None:
    with pytest.raises(NotationError, match="a move in text notation is a string"):
        parse_move(FREECELL, text)  # type: ignore[arg-type]


def test_freecell_writes_standard_notation_and_the_others_write_the_generic_form() -> None:
    assert format_move(FREECELL, Move(TABLEAU, 2, CELL, 0, 1)) == "3a"
    assert format_move(FREECELL, Move(CELL, 3, TABLEAU, 7, 1)) == "d8"
    assert format_move(FREECELL, Move(TABLEAU, 0, FOUNDATION, 2, 1)) == "1h"
    assert format_move(FREECELL, Move(TABLEAU, 7, TABLEAU, 1, 1)) == "82"
    assert format_move(FREECELL, Move(TABLEAU, 7, TABLEAU, 1, 12)) == "82vc"
    four_deck = variant_by_id("freecell-four-deck")
    assert format_move(four_deck, Move(TABLEAU, 13, TABLEAU, 9, 2)) == "t14-t10x2"
    assert format_move(four_deck, Move(CELL, 10, FOUNDATION, 15, 1)) == "c11-f16"
    assert format_move(four_deck, Move(TABLEAU, 0, CELL, None, 1)) == "t1-c"
    assert format_move(four_deck, Move(TABLEAU, 0, FOUNDATION, None, 1)) == "t1-f"


def test_the_json_form() -> None:
    move = Move(TABLEAU, 10, TABLEAU, 1, 3)
    data = move_to_json(move)
    assert data == {"from": "tableau", "from_index": 10, "to": "tableau", "to_index": 1, "count": 3}
    assert move_from_json(json.loads(json.dumps(data))) == move
    assert move_from_json({"from": "cell", "from_index": 0, "to": "foundation"}) == Move(CELL, 0, FOUNDATION, None)
    assert move_from_json({"from": "tableau", "from_index": 4, "to": "cell", "to_index": None}) == Move(
        TABLEAU, 4, CELL, None, 1
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("t3-c1", "a structured move is an object"),
        ({"from": "tableau", "from_index": 0, "to": "cell", "colour": "red"}, "unknown field(s) in move: colour"),
        ({"from": "stock", "from_index": 0, "to": "cell"}, "from: expected one of tableau, cell, foundation"),
        ({"from": "tableau", "from_index": 0, "to": ["cell"]}, "to: expected one of tableau, cell, foundation"),
        ({"from": {"a": 1}, "from_index": 0, "to": "cell"}, "from: expected one of tableau, cell, foundation"),
        ({"from": "tableau", "to": "cell"}, "from_index: required"),
        ({"from": "tableau", "from_index": 0, "to": "tableau"}, "to_index: required"),
        ({"from": "tableau", "from_index": -1, "to": "cell"}, "from_index: expected a whole number from 0"),
        ({"from": "tableau", "from_index": True, "to": "cell"}, "from_index: expected a whole number from 0"),
        ({"from": "tableau", "from_index": 1.0, "to": "cell"}, "from_index: expected a whole number from 0"),
        ({"from": "tableau", "from_index": 0, "to": "cell", "count": "2"}, "count: expected a whole number"),
        ({"from": "foundation", "from_index": 0, "to": "cell"}, "a card on a foundation never leaves it"),
    ],
)
def test_bad_json_moves_name_the_field(data: object, message: str) -> None:
    with pytest.raises(NotationError) as refused:
        move_from_json(data)  # type: ignore[arg-type]
    assert message in str(refused.value)


def positions(variant_id: str, seeds: range, depth: int):
    """Positions along games that always take the last listed move (so runs and empty columns turn up)."""
    variant = variant_by_id(variant_id)
    for seed in seeds:
        board = Board.deal(variant, variant.seed_range[0] + seed)
        for _ in range(depth):
            moves = list(board.legal_moves)
            if not moves:
                break
            yield board, moves
            board.push(moves[(seed * 7 + len(board.move_stack)) % len(moves)])


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_every_legal_move_round_trips_through_every_notation(variant_id: str) -> None:
    variant = variant_by_id(variant_id)
    checked = 0
    for board, moves in positions(variant_id, range(3), 60):
        for move in moves:
            written = format_move(variant, move)
            assert board.check(parse_move(variant, written, board)) == move, written
            assert parse_move(variant, format_generic(move), board) == move
            assert move_from_json(json.loads(json.dumps(move_to_json(move)))) == move
            checked += 1
    assert checked > 300
