"""A `Board` rebuilt from a player view (`Board.player_view()`, what the server sends), for clients and bots.

A client never sees the seed's deal in Cell Eleven, only the player view: face-down cards are `None`. This module
turns that view back into an engine `Board` so a bot can ask it for `legal_moves`, try moves with `push`/`pop`,
or hand it to the solver's `hint`. A face-down card becomes the placeholder `UNKNOWN_CARD` (0, the solver's
`UNKNOWN`): it is counted in the column's `hidden` depth, so the engine never lets it move, and nothing about its
identity is invented.

A placeholder is only face down while the board mirrors the server. A move pushed locally that would turn one up
leaves an unknown card on top of that column (only the server knows what it is): a bot that looks ahead past such
a move is guessing, and the next view from the server tells the truth.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from freecell_arena.engine.board import Board
from freecell_arena.engine.cards import SUIT_LETTERS, card_from_text, card_text
from freecell_arena.engine.errors import EngineError, NotationError
from freecell_arena.engine.game import Game
from freecell_arena.engine.variants import Variant

UNKNOWN_CARD = 0
"""A face-down card: builds on nothing, nothing builds on it, no foundation takes it."""

UNKNOWN_SEED = -1
"""The seed of a board rebuilt from a view when the view's owner does not say it (Cell Eleven keeps it secret)."""


class ViewError(EngineError):
    """A player view that does not describe a position of its variant (wrong shape, unknown card, too many copies)."""


def board_from_view(variant: Variant, view: Mapping[str, Any], *, seed: int = UNKNOWN_SEED) -> Board:
    """The position a player view shows, as a `Board` with an empty history (nothing to `pop`).

    `view` is the dict `Board.player_view()` builds: `tableau` (columns, deepest card first, face-down cards
    `None`), `cells` (`None` = empty), `foundations` (`cards` per slot, in the variant's slot order).
    """
    named = view.get("variant", variant.id)
    if named != variant.id:
        raise ViewError(f"the view is of variant {named!r}, not {variant.id!r}")
    tableau, hidden = _tableau(variant, view.get("tableau"))
    cells = _cells(variant, view.get("cells"))
    foundations = _foundations(variant, view.get("foundations"))
    board = Board.__new__(Board)
    board.variant = variant
    board.seed = seed
    board.tableau = tableau
    board.hidden = hidden
    board.cells = cells
    board.foundations = foundations
    board.move_stack = []
    board._revealed = []
    _check_copies(board)
    return board


def apply_view_changes(view: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """The view after `changes` (`Board.view_changes`, the `changes` of a `move_accepted`): a new dict, `view`
    untouched. Changes apply in the order the server sent them, each to the view the one before produced; the
    result is checked when it becomes a board (`board_from_view`), so a wrong patch is a `ViewError` there."""
    updated = dict(view)
    tableau = changes.get("tableau", {})
    if tableau:
        if not isinstance(tableau, Mapping):
            raise ViewError(f"changes.tableau must be an object of columns by index, not {type(tableau).__name__}")
        columns = list(_sequence(view.get("tableau"), "tableau"))
        for key, column in tableau.items():
            index = int(key) if isinstance(key, str) and key.isdigit() else -1
            if not 0 <= index < len(columns):
                raise ViewError(f"changes.tableau names column {key!r}; the view has {len(columns)}")
            columns[index] = list(_sequence(column, f"changes.tableau[{key}]"))
        updated["tableau"] = columns
    for part in ("cells", "foundations", "cards_on_foundations"):
        if part in changes:
            updated[part] = changes[part]
    return updated


def _sequence(value: object, what: str, length: int | None = None) -> Sequence[Any]:
    if not isinstance(value, list | tuple):
        raise ViewError(f"{what} must be a list, not {type(value).__name__}")
    if length is not None and len(value) != length:
        raise ViewError(f"{what} must have {length} entries for this variant, not {len(value)}")
    return value


def _card(text: object, where: str) -> int:
    if not isinstance(text, str):
        raise ViewError(f"{where}: a card is text like 'TD', not {text!r}")
    try:
        return card_from_text(text)
    except NotationError as error:
        raise ViewError(f"{where}: {error}") from None


def _tableau(variant: Variant, value: object) -> tuple[list[list[int]], list[int]]:
    columns: list[list[int]] = []
    hidden: list[int] = []
    for number, column in enumerate(_sequence(value, "tableau", variant.columns), start=1):
        cards: list[int] = []
        face_down = 0
        for depth, entry in enumerate(_sequence(column, f"column {number}"), start=1):
            if entry is None:
                if face_down != len(cards):
                    raise ViewError(f"column {number}: a face-down card at depth {depth} lies on a face-up one")
                face_down += 1
                cards.append(UNKNOWN_CARD)
            else:
                cards.append(_card(entry, f"column {number}, card {depth}"))
        if face_down and not variant.face_down:
            raise ViewError(f"column {number}: {variant.name} has no face-down cards")
        if face_down and face_down == len(cards):
            raise ViewError(f"column {number}: its top card would be face down")
        columns.append(cards)
        hidden.append(face_down)
    return columns, hidden


def _cells(variant: Variant, value: object) -> list[int]:
    return [
        0 if entry is None else _card(entry, f"cell {number}")
        for number, entry in enumerate(_sequence(value, "cells", variant.cells), start=1)
    ]


def _foundations(variant: Variant, value: object) -> list[int]:
    slots = _sequence(value, "foundations", len(variant.foundation_suits))
    capacity = 13 * variant.foundation_laps
    heights = []
    for number, (slot, suit) in enumerate(zip(slots, variant.foundation_suits, strict=True), start=1):
        if not isinstance(slot, Mapping):
            raise ViewError(f"foundation {number} must be an object with `cards`")
        cards = slot.get("cards")
        if type(cards) is not int or not 0 <= cards <= capacity:
            raise ViewError(f"foundation {number}: `cards` must be a whole number from 0 to {capacity}, not {cards!r}")
        named = slot.get("suit", SUIT_LETTERS[suit])
        if named != SUIT_LETTERS[suit]:
            raise ViewError(f"foundation {number} holds {SUIT_LETTERS[suit]}, not {named!r}")
        heights.append(cards)
    return heights


def _check_copies(board: Board) -> None:
    """No card may show up more often than the deck holds it (a corrupt or foreign view)."""
    seen = Counter(card for column in board.tableau for card in column if card != UNKNOWN_CARD)
    seen.update(card for card in board.cells if card)
    variant = board.variant
    in_deck = set(variant.deck())
    for card, count in seen.items():
        if card not in in_deck:
            raise ViewError(f"{card_text(card)} is not in the {variant.name} deck")
        total = count + board.copies_on_foundations(card)
        if total > variant.copies:
            raise ViewError(f"{card_text(card)} appears {total} times; the deck holds {variant.copies}")


def replay_steps(
    variant: Variant, seed: int, actions: Sequence[str], *, autoplay: bool
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A finished game as a replay viewer steps through it: the opening view (after the deal's autoplay) and,
    per action, what it changed in the view (`Board.view_changes`, the `changes` its `move_accepted` carried).
    Putting the first n steps into the opening view gives the board after n actions, so a viewer steps back
    by keeping the views it built, without any rules of its own. Undo is allowed in the replay: the stored
    log holds only actions the game accepted."""
    game = Game(variant, seed, autoplay=autoplay, undo_allowed=True)
    start = game.board.player_view()
    steps = [game.board.view_changes(game.act(action).moves) for action in actions]
    return start, steps
