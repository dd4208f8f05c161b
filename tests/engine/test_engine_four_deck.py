"""FreeCell Four Deck (freecell-four-deck.txt, RULINGS.md): 208 cards in 14 columns (12 of 15, 2 of 14), 14 cells,
16 foundations; any Ace of a suit may start any empty foundation of that suit."""

from __future__ import annotations

from collections import Counter

import pytest
from engine_layouts import layout

from freecell_arena.engine import CELL, FOUNDATION, TABLEAU, Board, IllegalMoveError, Move, variant_by_id
from freecell_arena.engine.cards import CLUBS, DIAMONDS

FOUR_DECK = variant_by_id("freecell-four-deck")
CLUB_SLOTS = [slot for slot, suit in enumerate(FOUR_DECK.foundation_suits) if suit == CLUBS]


def test_the_deal_is_four_decks_in_fourteen_columns_with_fourteen_cells_and_sixteen_foundations() -> None:
    board = Board.deal(FOUR_DECK, 3)
    assert [len(column) for column in board.tableau] == [15] * 12 + [14] * 2
    dealt = Counter(card for column in board.tableau for card in column)
    assert len(dealt) == 52 and set(dealt.values()) == {4}
    assert board.cells == [0] * 14
    assert board.foundations == [0] * 16
    assert Counter(FOUR_DECK.foundation_suits) == {suit: 4 for suit in range(4)}


@pytest.mark.parametrize("slot", CLUB_SLOTS)
def test_any_ace_starts_any_empty_foundation_of_its_suit(slot: int) -> None:
    board = layout("freecell-four-deck", ["AC"], cells=["AC"])
    assert board.play(Move(TABLEAU, 0, FOUNDATION, slot, 1)) == Move(TABLEAU, 0, FOUNDATION, slot, 1)
    with pytest.raises(IllegalMoveError) as refused:
        board.check(Move(CELL, 0, FOUNDATION, slot, 1))  # that one is taken now: the next Ace goes elsewhere
    assert "the clubs foundation is at Ace" in refused.value.message
    elsewhere = board.play(Move(CELL, 0, FOUNDATION, None, 1))
    assert elsewhere.to_index == min(set(CLUB_SLOTS) - {slot})


def test_an_ace_does_not_start_another_suits_foundation() -> None:
    board = layout("freecell-four-deck", ["AC"])
    diamond_slot = FOUR_DECK.foundation_suits.index(DIAMONDS)
    with pytest.raises(IllegalMoveError, match="the diamonds foundation is empty"):
        board.check(Move(TABLEAU, 0, FOUNDATION, diamond_slot, 1))


def test_the_first_foundation_that_accepts_is_the_lowest_numbered_one() -> None:
    board = layout("freecell-four-deck", ["2C"], foundations=[0, 3, 1, 1] + [0] * 12)
    assert board.play(Move(TABLEAU, 0, FOUNDATION, None, 1)).to_index == 2


def test_sixteen_foundations_and_fourteen_cells_are_addressable() -> None:
    board = layout("freecell-four-deck", ["KS"], cells=["-"] * 13 + ["QH"], foundations=[13] * 15 + [12])
    assert board.play(Move(CELL, 13, TABLEAU, 0, 1)) == Move(CELL, 13, TABLEAU, 0, 1)
    board.pop()
    assert board.play(Move(TABLEAU, 0, FOUNDATION, 15, 1)) == Move(TABLEAU, 0, FOUNDATION, 15, 1)
    with pytest.raises(IllegalMoveError) as refused:
        board.check(Move(CELL, 13, FOUNDATION, 16, 1))
    assert refused.value.code == "no_such_foundation"
    assert refused.value.message == "there is no foundation 17; this variant has 16 (foundation 1-16)"


def test_the_game_is_won_at_208_cards() -> None:
    board = layout("freecell-four-deck", ["KH"], foundations=[13] * 8 + [12] + [13] * 7)
    board.play(Move(TABLEAU, 0, FOUNDATION, None, 1))
    assert board.cards_on_foundations == 208
    assert board.outcome() == "won"
