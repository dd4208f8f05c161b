"""Chinese FreeCell (chinese-freecell.txt, RULINGS.md): 78 cards in three suits, King-only empty columns,
building down by any other suit, and two foundations per suit."""

from __future__ import annotations

from collections import Counter

import pytest
from engine_layouts import all_cards, layout

from freecell_arena.engine import CELL, FOUNDATION, TABLEAU, Board, IllegalMoveError, Move, variant_by_id
from freecell_arena.engine.cards import DIAMONDS, HEARTS, SPADES, suit_of

CHINESE = variant_by_id("chinese-freecell")
FULL = [13] * 6


def test_the_deal_is_78_cards_of_three_suits_twice_over_in_eleven_columns() -> None:
    board = Board.deal(CHINESE, 12345)
    assert [len(column) for column in board.tableau] == [7] * 10 + [8]
    dealt = Counter(card for column in board.tableau for card in column)
    assert sum(dealt.values()) == 78
    assert {suit_of(card) for card in dealt} == {DIAMONDS, HEARTS, SPADES}
    assert set(dealt.values()) == {2}
    assert len(board.cells) == 4 and board.cells == [0] * 4
    assert len(board.foundations) == 6
    assert board.hidden == [0] * 11


def test_the_eighth_card_of_column_eleven_is_the_last_card_dealt() -> None:
    order = CHINESE.deal_order(12345)
    board = Board.deal(CHINESE, 12345)
    assert board.tableau[10][-1] == order[-1]
    assert [column[0] for column in board.tableau] == order[:11]


@pytest.mark.parametrize("source", ["column", "cell"])
def test_only_a_king_fills_an_empty_column(source: str) -> None:
    queen_and_king = layout("chinese-freecell", ["2D QH", "2D KH", ""], cells=["QS", "KS"])
    if source == "column":
        queen, king = Move(TABLEAU, 0, TABLEAU, 2, 1), Move(TABLEAU, 1, TABLEAU, 2, 1)
    else:
        queen, king = Move(CELL, 0, TABLEAU, 2, 1), Move(CELL, 1, TABLEAU, 2, 1)
    with pytest.raises(IllegalMoveError) as refused:
        queen_and_king.check(queen)
    assert refused.value.code == "target_refuses"
    assert "only a King (or a run headed by a King) may fill it, not Q" in refused.value.message
    assert queen_and_king.check(king) == king


def test_a_run_headed_by_a_king_fills_an_empty_column_and_one_headed_by_a_queen_does_not() -> None:
    board = layout("chinese-freecell", ["2D KH QS JD", "2D QH JS TD", ""])
    assert board.is_legal(Move(TABLEAU, 0, TABLEAU, 2, 3))
    assert not board.is_legal(Move(TABLEAU, 0, TABLEAU, 2, 2))  # headed by the Queen
    with pytest.raises(IllegalMoveError, match="not QH"):
        board.check(Move(TABLEAU, 1, TABLEAU, 2, 3))
    assert Move(TABLEAU, 0, TABLEAU, 2, 3) in set(board.legal_moves)
    assert not any(move.from_index == 1 and move.to_index == 2 for move in board.legal_moves)


@pytest.mark.parametrize(("onto", "needed"), [("2C", "an Ace"), ("9C", "an Eight"), ("TC", "a Nine"), ("3C", "a Two")])
def test_a_refusal_names_the_rank_a_card_needs_with_its_article(onto: str, needed: str) -> None:
    """Read aloud, "it needs a Eight" stumbles: an Ace and an Eight take "an"."""
    board = layout("chinese-freecell", [onto, "KH"])
    with pytest.raises(IllegalMoveError) as refused:
        board.check(Move(TABLEAU, 1, TABLEAU, 0, 1))
    assert refused.value.message.endswith(f": it needs {needed}"), refused.value.message


def test_a_card_never_builds_on_its_own_suit() -> None:
    board = layout("chinese-freecell", ["TS", "9S", "9H", "9D"])
    with pytest.raises(IllegalMoveError) as refused:
        board.check(Move(TABLEAU, 1, TABLEAU, 0, 1))
    assert refused.value.code == "target_refuses"
    assert refused.value.message == "9S cannot go on TS in column 1: a card may not go on its own suit (spades)"
    assert board.is_legal(Move(TABLEAU, 2, TABLEAU, 0, 1))
    assert board.is_legal(Move(TABLEAU, 3, TABLEAU, 0, 1))


def test_colour_does_not_matter_only_suit() -> None:
    """Red on red is fine here (any other suit), though FreeCell refuses it."""
    board = layout("chinese-freecell", ["TD", "9H"])
    assert board.is_legal(Move(TABLEAU, 1, TABLEAU, 0, 1))
    freecell = layout("freecell", ["TD", "9H"])
    assert not freecell.is_legal(Move(TABLEAU, 1, TABLEAU, 0, 1))


def test_a_run_is_built_by_any_other_suit_and_same_suit_neighbours_break_it() -> None:
    board = layout("chinese-freecell", ["JD TS 9H 8D", "JS TH 9H", "QS"], cells=[])
    assert board.is_legal(Move(TABLEAU, 0, TABLEAU, 2, 4))  # D, S, H, D: every neighbour differs in suit
    with pytest.raises(IllegalMoveError) as refused:
        board.check(Move(TABLEAU, 1, TABLEAU, 2, 3))
    assert refused.value.code == "not_a_run"
    assert "9H does not build on TH" in refused.value.message


def test_either_ace_starts_either_foundation_of_its_suit() -> None:
    board = layout("chinese-freecell", ["AD", "AD", "2D", "2D"])
    diamonds = [slot for slot, suit in enumerate(CHINESE.foundation_suits) if suit == DIAMONDS]
    assert diamonds == [0, 1]
    assert board.check(Move(TABLEAU, 0, FOUNDATION, 1, 1)) == Move(TABLEAU, 0, FOUNDATION, 1, 1)
    assert board.play(Move(TABLEAU, 0, FOUNDATION, None, 1)) == Move(TABLEAU, 0, FOUNDATION, 0, 1)
    assert board.play(Move(TABLEAU, 1, FOUNDATION, None, 1)) == Move(TABLEAU, 1, FOUNDATION, 1, 1)
    assert board.foundations[:2] == [1, 1]
    board.play(Move(TABLEAU, 2, FOUNDATION, 1, 1))
    assert board.play(Move(TABLEAU, 3, FOUNDATION, None, 1)) == Move(TABLEAU, 3, FOUNDATION, 0, 1)
    assert board.foundations[:2] == [2, 2]


def test_a_foundation_takes_only_its_own_suit() -> None:
    board = layout("chinese-freecell", ["AH"])
    with pytest.raises(IllegalMoveError) as refused:
        board.check(Move(TABLEAU, 0, FOUNDATION, 0, 1))
    assert refused.value.message == "AH cannot go on foundation 1 (the diamonds foundation is empty)"


def test_the_game_is_won_when_all_78_cards_are_on_six_foundations() -> None:
    board = layout("chinese-freecell", ["KS"], foundations=[13, 13, 13, 13, 13, 12])
    assert board.outcome() is None
    board.play(Move(TABLEAU, 0, FOUNDATION, None, 1))
    assert board.foundations == FULL
    assert board.cards_on_foundations == 78
    assert board.outcome() == "won"


def test_a_real_game_keeps_the_78_cards() -> None:
    board = Board.deal(CHINESE, 4)
    for _ in range(30):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.play(moves[-1])
    assert all_cards(board) == Counter(CHINESE.deck())
