"""Moves are values: a source, a target and a card count, nothing else.

A `Move` names places, not cards, exactly like a player's drag: "the top 3 cards of column 4 onto column 7".
Indices are 0-based. A target index of None on a cell or foundation means "the first one that accepts";
`Board.resolve` turns it into a concrete index, and the concrete move is what gets pushed and logged.
"""

from __future__ import annotations

from typing import Final, NamedTuple, NewType

Zone = NewType("Zone", int)
"""Where a move's card comes from or goes: one of the three below. A plain int at run time (the solver keeps
zones in packed ints, the notation parser reads them as ints, and compiled code checks an enum's type at every
call), a type of its own for mypy."""

TABLEAU: Final = Zone(0)
CELL: Final = Zone(1)
FOUNDATION: Final = Zone(2)
# Final: compiled code reads them from C statics, not the module's dict

AnyMove = tuple[object, ...]
"""What the validating entry points take (`Board.check`, `play`, `is_legal`, `resolve`): a Move, or any tuple a
caller built, whose wrong fields `check` names as an IllegalMoveError. Compiled, a `Move` parameter would refuse a
field of the wrong type with a TypeError before `check` could name it."""


class Move(NamedTuple):
    from_zone: Zone
    from_index: int
    to_zone: Zone
    to_index: int | None
    count: int = 1  # type: ignore[assignment]  # a field named like tuple.count: the notation's "run of N" count

    @classmethod
    def tableau_to_tableau(cls, source: int, target: int, count: int = 1) -> Move:
        return cls(TABLEAU, source, TABLEAU, target, count)

    @classmethod
    def to_foundation(cls, zone: Zone, source: int) -> Move:
        return cls(zone, source, FOUNDATION, None, 1)

    @classmethod
    def to_cell(cls, zone: Zone, source: int, cell: int | None = None) -> Move:
        return cls(zone, source, CELL, cell, 1)

    @classmethod
    def from_cell(cls, cell: int, target: int) -> Move:
        return cls(CELL, cell, TABLEAU, target, 1)
