"""Move notation: Freecell Solver's standard notation for `freecell`, a generic form for every variant, and JSON.

Standard notation (what `fc-solve -sn` / `-snx` print): columns `1`-`8`, cells `a`-`d`, foundation `h`; `38`
moves as many cards from column 3 as it takes to land on column 8's top card; into an empty column one card
unless a `v<hex count>` suffix says more (`82v3`).

Generic notation (every variant, and the one the non-classic variants write): `t<n>` a column, `c<n>` a cell,
`f` or `f<n>` a foundation, 1-based, joined by `-`, with `x<count>` for runs: `t3-c1`, `t11-t2x3`, `c5-f`.
The count is always explicit: `t4-t7` moves one card.

JSON (the wire's structured form): `{"from": "tableau", "from_index": 2, "to": "cell", "to_index": 0,
"count": 1}`, 0-based indices; `to_index` may be null for a cell or a foundation ("the first that accepts").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from freecell_arena.engine.errors import NotationError
from freecell_arena.engine.moves import CELL, FOUNDATION, TABLEAU, Move, Zone
from freecell_arena.engine.variants import Variant

if TYPE_CHECKING:
    from freecell_arena.engine.board import Board

UNDO = "undo"
_GENERIC = re.compile(r"^([tc])(\d{1,3})-(?:([tc])(\d{1,3})?|(f)(\d{1,3})?)(?:x(\d{1,3}))?$")
_STANDARD = re.compile(r"^([1-9a-z])([1-9a-z])(?:v([0-9a-f]{1,2}))?$")
_ZONE_NAMES = {"tableau": TABLEAU, "cell": CELL, "foundation": FOUNDATION}
_ZONE_WORDS = {TABLEAU: "tableau", CELL: "cell", FOUNDATION: "foundation"}
_PLACE_WORDS = {TABLEAU: "column", CELL: "cell", FOUNDATION: "foundation"}
_CELL_LETTERS = "abcdefghijklmnop"


def parse_move(variant: Variant, text: object, board: Board | None = None) -> Move:
    """Read one move. With a board, a standard-notation column move gets the count its target implies."""
    if not isinstance(text, str):
        raise NotationError(f"a move in text notation is a string, not {type(text).__name__}")
    spelled = text.strip().lower()
    key = (variant.notation, variant.columns, variant.cells, len(variant.foundation_suits), spelled)
    parsed = _PARSED.get(key)
    if parsed is None:
        parsed = _parse(variant, text, spelled)
        if len(_PARSED) < _PARSED_LIMIT:
            _PARSED[key] = parsed
    move, implied = parsed
    if implied and board is not None:
        count = _implied_count(board, move.from_index, move.to_index)  # a new Move: namedtuple's _replace is
        return Move(move.from_zone, move.from_index, move.to_zone, move.to_index, count)  # interpreted code
    return move


_PARSED: dict[tuple[str, int, int, int, str], tuple[Move, bool]] = {}
"""What each spelling read as, keyed by all a reading depends on (the notation, how many columns, cells and
foundations): (the move, whether its count is the board's to imply). Players send the same few dozen spellings
all game, and the server reads one per move; only readable ones are kept, and only so many."""
_PARSED_LIMIT = 10_000


def _parse(variant: Variant, text: str, spelled: str) -> tuple[Move, bool]:
    if not spelled:
        raise NotationError("an empty string is not a move")
    generic = _GENERIC.match(spelled)
    if generic:
        return _from_generic(variant, generic), False
    if variant.notation == "standard":
        standard = _STANDARD.match(spelled)
        if standard:
            return _from_standard(variant, standard)
        raise NotationError(
            f"{text!r} is not a move: write it as Freecell Solver does (3a, a3, 38, 3h, 82v3) "
            "or in the generic form (t3-c1, t4-t7x2, c1-f)"
        )
    raise NotationError(f"{text!r} is not a move: write it as t3-c1, t11-t2x3, c5-f (t column, c cell, f foundation)")


def _from_generic(variant: Variant, match: re.Match[str]) -> Move:
    source_kind, source_number, target_kind, target_number, foundation, foundation_number, count = match.groups()
    from_zone = TABLEAU if source_kind == "t" else CELL
    from_index = _index(variant, from_zone, source_number)
    if foundation:
        to_zone = FOUNDATION
        to_index = _index(variant, FOUNDATION, foundation_number) if foundation_number else None
    else:
        to_zone = TABLEAU if target_kind == "t" else CELL
        if target_number is None and to_zone == TABLEAU:
            raise NotationError("a move to the tableau names its column, e.g. t3-t7")
        to_index = _index(variant, to_zone, target_number) if target_number else None
    cards = int(count) if count else 1
    if cards < 1:
        raise NotationError("a move carries at least one card (x0 is not a count)")
    return Move(from_zone, from_index, to_zone, to_index, cards)


def _index(variant: Variant, zone: Zone, number: str) -> int:
    value = int(number)
    available = {TABLEAU: variant.columns, CELL: variant.cells, FOUNDATION: len(variant.foundation_suits)}[zone]
    if not 1 <= value <= available:
        raise NotationError(f"there is no {_PLACE_WORDS[zone]} {value}; this variant has {available} (1-{available})")
    return value - 1


def _standard_place(variant: Variant, char: str) -> tuple[Zone, int | None]:
    if char.isdigit():
        number = int(char)
        if not 1 <= number <= variant.columns:
            raise NotationError(f"there is no column {number}; this variant has {variant.columns}")
        return TABLEAU, number - 1
    if char == "h":
        return FOUNDATION, None
    position = _CELL_LETTERS.find(char)
    if 0 <= position < variant.cells:
        return CELL, position
    raise NotationError(
        f"{char!r} names nothing: columns are 1-{variant.columns}, cells a-{_CELL_LETTERS[variant.cells - 1]}, "
        "the foundations h"
    )


def _from_standard(variant: Variant, match: re.Match[str]) -> tuple[Move, bool]:
    """The move, and whether its count is implied by the board (a column to a column, no `v` count given)."""
    source, target, hex_count = match.groups()
    from_zone, from_index = _standard_place(variant, source)
    to_zone, to_index = _standard_place(variant, target)
    if from_zone == FOUNDATION:
        raise NotationError("h is a target only: a card on a foundation never leaves it")
    assert from_index is not None
    count = int(hex_count, 16) if hex_count else 1
    if hex_count and count < 1:
        raise NotationError("a move carries at least one card (v0 is not a count)")
    implied = from_zone == TABLEAU and to_zone == TABLEAU and not hex_count
    return Move(from_zone, from_index, to_zone, to_index, count), implied


def _implied_count(board: Board, source: int, target: int | None) -> int:
    """Standard notation names no count: it is the depth at which the source's run meets the target's top card."""
    assert target is not None
    column = board.tableau[source]
    destination = board.tableau[target]
    if not destination or not column:
        return 1
    onto = destination[-1]
    builds_on = board.variant.builds_on
    lowest = board.hidden[source]
    depth = 1
    while depth <= len(column) - lowest:
        if builds_on[column[-depth]][onto]:
            return depth
        if depth == len(column) or not builds_on[column[-depth]][column[-depth - 1]]:
            break
        depth += 1
    return 1  # nothing fits: one card, so the refusal names the top card


def format_move(variant: Variant, move: Move) -> str:
    """Write a move in the variant's own notation (standard for `freecell`, generic for the others)."""
    from_zone, from_index, to_zone, to_index, count = move
    if variant.notation == "standard":
        return _standard_char(from_zone, from_index) + _standard_char(to_zone, to_index) + (
            f"v{count:x}" if count > 1 else ""
        )
    return format_generic(move)


def format_generic(move: Move) -> str:
    from_zone, from_index, to_zone, to_index, count = move
    source = f"{'t' if from_zone == TABLEAU else 'c'}{from_index + 1}"
    if to_zone == FOUNDATION:
        target = "f" if to_index is None else f"f{to_index + 1}"
    else:
        target = f"{'t' if to_zone == TABLEAU else 'c'}{'' if to_index is None else to_index + 1}"
    return f"{source}-{target}" + (f"x{count}" if count > 1 else "")


def _standard_char(zone: Zone, index: int | None) -> str:
    if zone == FOUNDATION:
        return "h"
    if zone == CELL:
        return _CELL_LETTERS[index if index is not None else 0]
    return str(index + 1) if index is not None else "?"


def move_to_json(move: Move) -> dict[str, Any]:
    from_zone, from_index, to_zone, to_index, count = move
    return {
        "from": _ZONE_WORDS[from_zone],
        "from_index": from_index,
        "to": _ZONE_WORDS[to_zone],
        "to_index": to_index,
        "count": count,
    }


def move_from_json(data: Mapping[str, Any]) -> Move:
    """Read the structured form; every problem is a NotationError naming the field."""
    if not isinstance(data, Mapping):
        raise NotationError("a structured move is an object with from, from_index, to, to_index, count")
    unknown = set(data) - {"from", "from_index", "to", "to_index", "count"}
    if unknown:
        raise NotationError(f"unknown field(s) in move: {', '.join(sorted(unknown))}")
    return move_from_fields(
        data.get("from"), data.get("from_index"), data.get("to"), data.get("to_index"), data.get("count")
    )


def move_from_fields(from_: object, from_index: object, to: object, to_index: object, count: object) -> Move:
    """The structured form's fields (None: absent), checked as `move_from_json` checks them. For a move request
    the protocol has already read as fields: dumping them into a dict again cost ~0.9 us a move."""
    from_zone = _zone_field("from", from_)
    to_zone = _zone_field("to", to)
    source = _int_field("from_index", from_index, required=True)
    target = _int_field("to_index", to_index, required=to_zone == TABLEAU)
    cards = _int_field("count", count, required=False)
    if from_zone == FOUNDATION:
        raise NotationError("from: a card on a foundation never leaves it")
    return Move(from_zone, source, to_zone, target, 1 if cards is None else cards)  # type: ignore[arg-type]  # zones were checked above as Zone values; the parser reads them as ints


def _zone_field(name: str, value: object) -> Zone:
    if not isinstance(value, str) or value not in _ZONE_NAMES:
        raise NotationError(f"{name}: expected one of tableau, cell, foundation, not {value!r}")
    return _ZONE_NAMES[value]


def _int_field(name: str, value: object, *, required: bool) -> int | None:
    if value is None:
        if required:
            raise NotationError(f"{name}: required (a 0-based index)")
        return None
    if type(value) is not int or value < 0:
        raise NotationError(f"{name}: expected a whole number from 0, not {value!r}")
    return value
