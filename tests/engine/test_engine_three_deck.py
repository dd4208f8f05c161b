"""FreeCell Three Deck (freecell-three-deck.txt, RULINGS.md): 156 cards in 12 columns of 13, six cells, and four
foundations that each build A..K three times over, an Ace of the same suit following a King."""

from __future__ import annotations

from collections import Counter

import pytest
from engine_layouts import cards, foundation_cards, layout

from freecell_arena.engine import FOUNDATION, TABLEAU, Board, Game, IllegalMoveError, Move, variant_by_id
from freecell_arena.engine.view import board_text

THREE_DECK = variant_by_id("freecell-three-deck")
CLUBS_SLOT = 0


def test_the_deal_is_three_decks_in_twelve_columns_of_thirteen_with_six_cells() -> None:
    board = Board.deal(THREE_DECK, 99)
    assert [len(column) for column in board.tableau] == [13] * 12
    dealt = Counter(card for column in board.tableau for card in column)
    assert len(dealt) == 52 and set(dealt.values()) == {3}
    assert board.cells == [0] * 6
    assert board.foundations == [0] * 4


@pytest.mark.parametrize(
    ("height", "accepts", "refuses"),
    [
        (0, "AC", "2C"),
        (12, "KC", "AC"),
        (13, "AC", "2C"),  # after the first King: an Ace of the same suit starts the second lap
        (14, "2C", "AC"),
        (25, "KC", "AC"),
        (26, "AC", "KC"),  # third lap
        (38, "KC", "AC"),
    ],
)
def test_a_foundation_wraps_from_king_to_ace_three_times(height: int, accepts: str, refuses: str) -> None:
    board = layout("freecell-three-deck", [accepts, refuses], foundations=[height, 0, 0, 0])
    with pytest.raises(IllegalMoveError) as refused:
        board.check(Move(TABLEAU, 1, FOUNDATION, CLUBS_SLOT, 1))
    assert refused.value.code == "target_refuses"
    board.play(Move(TABLEAU, 0, FOUNDATION, None, 1))
    assert board.foundations[CLUBS_SLOT] == height + 1


def test_a_full_foundation_of_39_takes_nothing_more() -> None:
    board = layout("freecell-three-deck", ["AC"], foundations=[39, 0, 0, 0])
    with pytest.raises(IllegalMoveError) as refused:
        board.check(Move(TABLEAU, 0, FOUNDATION, None, 1))
    assert "the clubs foundation is complete" in refused.value.message


def test_an_ace_of_another_suit_does_not_continue_after_a_king() -> None:
    board = layout("freecell-three-deck", ["AD"], foundations=[13, 5, 0, 0])
    with pytest.raises(IllegalMoveError):
        board.check(Move(TABLEAU, 0, FOUNDATION, CLUBS_SLOT, 1))


def test_foundation_cards_and_undo_follow_the_laps() -> None:
    board = layout("freecell-three-deck", ["AC KC"], foundations=[12, 0, 0, 0])
    board.play(Move(TABLEAU, 0, FOUNDATION, None, 1))  # KC closes the first lap
    board.play(Move(TABLEAU, 0, FOUNDATION, None, 1))  # AC opens the second
    assert board.foundations[CLUBS_SLOT] == 14
    assert board.foundation_top(CLUBS_SLOT) == cards("AC")[0]
    assert foundation_cards(board)[-2:] == cards("KC AC")
    assert board_text(board).splitlines()[0] == "Foundations: C-A:14 D-0:0 H-0:0 S-0:0"
    board.pop()
    assert board.tableau[0] == cards("AC") and board.foundations[CLUBS_SLOT] == 13
    board.pop()
    assert board.tableau[0] == cards("AC KC") and board.foundations[CLUBS_SLOT] == 12


def test_the_game_is_won_at_four_foundations_of_39() -> None:
    board = layout("freecell-three-deck", ["KS"], foundations=[39, 39, 39, 38])
    board.play(Move(TABLEAU, 0, FOUNDATION, None, 1))
    assert board.cards_on_foundations == 156
    assert board.outcome() == "won"


def test_undo_is_off_by_default_and_can_be_switched_on() -> None:
    """The document: "No Redeal or Undo" (digital versions may allow it), so a room must ask for it."""
    game = Game(THREE_DECK, 5)
    game.play(next(iter(game.board.legal_moves)))
    with pytest.raises(IllegalMoveError) as refused:
        game.undo()
    assert refused.value.code == "undo_disabled"
    permissive = Game(THREE_DECK, 5, undo_allowed=True)
    permissive.play(next(iter(permissive.board.legal_moves)))
    permissive.undo()
    assert permissive.board.key() == Board.deal(THREE_DECK, 5).key()
