"""Multi-card limits, edge by edge: every count of empty cells and other empty columns, into an empty and into a
non-empty column, for each variant's own formula as its rule document and RULINGS.md state it.

The formulas below are written here from the rule text, not read from the engine, so a wrong formula in
`variants.py` fails these tests.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from engine_layouts import cards, layout

from freecell_arena.engine import TABLEAU, IllegalMoveError, Move, variant_by_id

# (empty cells, empty columns other than the destination) -> the most cards one move may carry
FORMULAS: dict[str, Callable[[int, int], int]] = {
    # freecell.txt: (1 + cells) x (1 + empty columns) onto a card; (1 + cells) x empty columns, destination
    # counted, into an empty one: both are (1 + cells) x (1 + other empty columns).
    "freecell": lambda cells, others: (1 + cells) * (1 + others),
    # freecell-three-deck.txt: (N + 1) x 2^M, RULINGS: the empty destination is not one of the M.
    "freecell-three-deck": lambda cells, others: (cells + 1) * 2**others,
    # chinese-freecell.txt and freecell-four-deck.txt: empty cells plus one; empty columns do not add.
    "chinese-freecell": lambda cells, others: cells + 1,
    "freecell-four-deck": lambda cells, others: cells + 1,
    # cell-eleven.txt: one card at a time.
    "cell-eleven": lambda cells, others: 1,
}

RED_BLACK = ("H", "S")  # hearts and spades alternate colours and differ in suit: a run under every build rule
RANKS = "A23456789TJQK"


def run_text(top_rank: int, length: int) -> str:
    """`length` cards from `top_rank` down, hearts and spades alternating: a run in every variant."""
    return " ".join(RANKS[top_rank - 1 - step] + RED_BLACK[step % 2] for step in range(length))


def limit_position(variant_id: str, empty_cells: int, other_empty: int, length: int, into_empty: bool):
    """Column 1: a filler under a run of `length`; column 2: the destination; then `other_empty` empty columns;
    every other column and every cell beyond `empty_cells` holds a filler card that plays no part."""
    variant = variant_by_id(variant_id)
    top_rank = 13 if into_empty else 12  # a King-headed run may go anywhere empty; a Queen-headed one onto KS
    columns = ["2D " + run_text(top_rank, length), "" if into_empty else "KS"]
    columns += [""] * other_empty
    columns += ["2C"] * (variant.columns - len(columns))
    cells = ["2H"] * (variant.cells - empty_cells)
    return layout(variant_id, columns, cells=cells)


@pytest.mark.parametrize("variant_id", list(FORMULAS))
def test_limit_table_matches_the_rule_text(variant_id: str) -> None:
    variant = variant_by_id(variant_id)
    for cells in range(variant.cells + 1):
        for others in range(variant.columns):
            assert variant.max_run(cells, others) == FORMULAS[variant_id](cells, others), (cells, others)


@pytest.mark.parametrize("into_empty", [False, True], ids=["onto-a-card", "into-an-empty-column"])
@pytest.mark.parametrize("variant_id", list(FORMULAS))
def test_runs_up_to_the_limit_move_and_one_more_is_refused_naming_both_numbers(
    variant_id: str, into_empty: bool
) -> None:
    variant = variant_by_id(variant_id)
    longest_run = 13 if into_empty else 12
    checked_refusals = 0
    for empty_cells in range(variant.cells + 1):
        for other_empty in range(variant.columns - 1):
            limit = FORMULAS[variant_id](empty_cells, other_empty)
            for length in sorted({1, 2, limit, limit + 1}):
                if length > longest_run:
                    continue
                board = limit_position(variant_id, empty_cells, other_empty, length, into_empty)
                move = Move(TABLEAU, 0, TABLEAU, 1, length)
                where = f"{empty_cells} empty cells, {other_empty} other empty columns, run of {length}"
                listed = move in set(board.legal_moves)
                if length <= limit:
                    assert board.check(move) == move, where
                    assert listed, where
                    continue
                with pytest.raises(IllegalMoveError) as refused:
                    board.check(move)
                assert refused.value.code == "run_too_long", where
                assert f"a run of {length} cards is longer than the limit of {limit}" in refused.value.message
                assert not listed, where
                checked_refusals += 1
    assert checked_refusals > 0


@pytest.mark.parametrize(
    ("variant_id", "empty_cells", "other_empty", "into_empty", "explanation"),
    [
        ("freecell", 4, 0, False, "a run of 6 cards is longer than the limit of 5 here: "
         "(1 + 4 empty cells) x (1 + 0 other empty columns)"),
        ("freecell", 1, 2, True, "a run of 7 cards is longer than the limit of 6 here: "
         "(1 + 1 empty cells) x (1 + 2 other empty columns)"),
        ("freecell-three-deck", 1, 1, False, "a run of 5 cards is longer than the limit of 4 here: "
         "(1 + 1 empty cells) x 2^(1 other empty columns)"),
        ("freecell-three-deck", 0, 3, True, "a run of 9 cards is longer than the limit of 8 here: "
         "(1 + 0 empty cells) x 2^(3 other empty columns)"),
        ("chinese-freecell", 3, 5, True, "a run of 5 cards is longer than the limit of 4 here: 1 + 3 empty cells"),
        ("freecell-four-deck", 0, 9, False, "a run of 2 cards is longer than the limit of 1 here: 1 + 0 empty cells"),
        ("cell-eleven", 11, 5, False, "a run of 2 cards is longer than the limit of 1 here: "
         "one card at a time in this variant"),
    ],
)  # fmt: skip
def test_refusal_explains_the_limit(
    variant_id: str, empty_cells: int, other_empty: int, into_empty: bool, explanation: str
) -> None:
    length = int(explanation.split()[3])
    board = limit_position(variant_id, empty_cells, other_empty, length, into_empty)
    with pytest.raises(IllegalMoveError) as refused:
        board.play(Move(TABLEAU, 0, TABLEAU, 1, length))
    assert str(refused.value) == explanation


@pytest.mark.parametrize("variant_id", list(FORMULAS))
def test_a_single_card_moves_with_every_cell_full_and_no_empty_column(variant_id: str) -> None:
    board = limit_position(variant_id, 0, 0, 1, into_empty=False)
    board.play(Move(TABLEAU, 0, TABLEAU, 1, 1))
    assert board.tableau[:2] == [cards("2D"), cards("KS QH")]


@pytest.mark.parametrize("variant_id", list(FORMULAS))
def test_a_refused_run_changes_nothing(variant_id: str) -> None:
    board = limit_position(variant_id, 0, 0, 3, into_empty=False)
    before = board.key()
    with pytest.raises(IllegalMoveError):
        board.play(Move(TABLEAU, 0, TABLEAU, 1, 3))
    assert board.key() == before
    assert board.move_stack == []
