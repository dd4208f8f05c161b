"""The player view of a `Board` (what the server sends: `player_view`, and after a move only `view_changes`), and
a `Board` rebuilt from such a view, for clients and bots, and the board as text (`board_text`: what Freecell
Solver reads and the command line prints). Rendering lives here, not on `Board`.

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
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from freecell_arena.engine.board import Board
from freecell_arena.engine.cards import CARD_LIMIT, SUIT_LETTERS, card_from_text, card_text
from freecell_arena.engine.errors import EngineError, NotationError
from freecell_arena.engine.game import Game
from freecell_arena.engine.moves import CELL, TABLEAU, Move
from freecell_arena.engine.variants import Variant

UNKNOWN_CARD = 0
"""A face-down card: builds on nothing, nothing builds on it, no foundation takes it."""

UNKNOWN_SEED = -1
"""The seed of a board rebuilt from a view when the view's owner does not say it (Cell Eleven keeps it secret)."""


_CARD_TEXTS: tuple[str | None, ...] = tuple(card_text(card) if card >> 2 else None for card in range(CARD_LIMIT))
"""`card_text` of every card int, computed once: the player view is built after every move (0 = no card: None)."""


def player_view(board: Board) -> dict[str, Any]:
    """What the player may see: face-down cards are null, so their identity never leaves the server."""
    return {
        "variant": board.variant.id,
        "tableau": [_column_view(board, index) for index in range(len(board.tableau))],
        "cells": [_CARD_TEXTS[card] for card in board.cells],
        "foundations": _foundations_view(board),
        "cards_on_foundations": sum(board.foundations),
    }


def view_changes(board: Board, moves: Iterable[Move]) -> dict[str, Any]:
    """The parts of `player_view` that `moves` (just played, or just taken back) changed, as they are now.

    A move touches only its source and target, so after each move the server renders two or three columns
    instead of the whole board, and the reply carries them alone (`apply_view_changes` puts them into the
    previous view). `tableau` maps each changed column's index (as a string: JSON keys are strings) to the whole
    column; `cells` and `foundations` are the whole row when a move touched it and absent otherwise;
    `cards_on_foundations` is always there. A card turned face up is in its column, which was the source of the
    move that uncovered it.
    """
    columns: set[int] = set()
    cells = foundations = False
    for move in moves:
        for zone, index in ((move.from_zone, move.from_index), (move.to_zone, move.to_index)):
            if zone == TABLEAU:
                columns.add(index)  # type: ignore[arg-type]  # a column index is never None
            elif zone == CELL:
                cells = True
            else:
                foundations = True
    changes: dict[str, Any] = {"tableau": {str(index): _column_view(board, index) for index in sorted(columns)}}
    if cells:
        changes["cells"] = [_CARD_TEXTS[card] for card in board.cells]
    if foundations:
        changes["foundations"] = _foundations_view(board)
    changes["cards_on_foundations"] = sum(board.foundations)
    return changes


def _column_view(board: Board, index: int) -> list[str | None]:
    texts = _CARD_TEXTS
    column = board.tableau[index]
    face_down = board.hidden[index]
    if face_down:
        return [None] * min(face_down, len(column)) + [texts[card] for card in column[face_down:]]
    return [texts[card] for card in column]


def _foundations_view(board: Board) -> list[dict[str, Any]]:
    texts = _CARD_TEXTS
    foundations = board.foundations
    return [
        {
            "suit": SUIT_LETTERS[suit],
            "cards": foundations[slot],
            "top": texts[((foundations[slot] - 1) % 13 + 1) << 2 | suit] if foundations[slot] else None,
        }
        for slot, suit in enumerate(board.variant.foundation_suits)
    ]


class ViewError(EngineError):
    """A player view that does not describe a position of its variant (wrong shape, unknown card, too many copies)."""


def board_from_view(variant: Variant, view: Mapping[str, Any], *, seed: int = UNKNOWN_SEED) -> Board:
    """The position a player view shows, as a `Board` with an empty history (nothing to `pop`).

    `view` is the dict `player_view` builds: `tableau` (columns, deepest card first, face-down cards
    `None`), `cells` (`None` = empty), `foundations` (`cards` per slot, in the variant's slot order).
    """
    named = view.get("variant", variant.id)
    if named != variant.id:
        raise ViewError(f"the view is of variant {named!r}, not {variant.id!r}")
    tableau, hidden = _tableau(variant, view.get("tableau"))
    cells = _cells(variant, view.get("cells"))
    foundations = _foundations(variant, view.get("foundations"))
    board = Board.from_position(variant, seed, tableau, hidden, cells, foundations)
    _check_copies(board)
    return board


def apply_view_changes(view: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """The view after `changes` (`view_changes`, the `changes` of a `move_accepted`): a new dict, `view`
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
    per action, what it changed in the view (`view_changes`, the `changes` its `move_accepted` carried).
    Putting the first n steps into the opening view gives the board after n actions, so a viewer steps back
    by keeping the views it built, without any rules of its own. Undo is allowed in the replay: the stored
    log holds only actions the game accepted."""
    game = Game(variant, seed, autoplay=autoplay, undo_allowed=True)
    start = player_view(game.board)
    steps = [view_changes(game.board, game.act(action).moves) for action in actions]
    return start, steps


def board_text(board: Board, *, hide_face_down: bool = True) -> str:
    """Board text: foundations line, cells line, then one column per line, deepest card first.

    For `freecell` this is the layout Freecell Solver reads. Face-down cards print as `??` (or, when a local
    tool asks for the whole deal, in parentheses).
    """
    laps = board.variant.foundation_laps
    tokens = []
    for slot, suit in enumerate(board.variant.foundation_suits):
        on = board.foundations[slot]
        token = f"{SUIT_LETTERS[suit]}-{card_text(board.foundation_top(slot))[0] if on else '0'}"
        tokens.append(f"{token}:{on}" if laps > 1 else token)
    lines = ["Foundations: " + " ".join(tokens)]
    lines.append("Freecells: " + " ".join(card_text(card) if card else "-" for card in board.cells))
    for index, column in enumerate(board.tableau):
        words = []
        for depth, card in enumerate(column):
            if depth < board.hidden[index]:
                words.append("??" if hide_face_down else f"({card_text(card)})")
            else:
                words.append(card_text(card))
        lines.append(": " + " ".join(words) if words else ":")
    return "\n".join(lines) + "\n"
