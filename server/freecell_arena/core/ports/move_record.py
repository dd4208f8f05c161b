"""A move's record: one accepted player action, on its way to the store. A module of its own so that the
compiled build compiles it (`build.COMPILED`): one is made every move, and a frozen dataclass's generated
`__init__` is interpreted Python (an `object.__setattr__` a field). The other records (core/ports/records.py,
which re-exports this one) are made a few times a race and stay interpreted."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One accepted player action: a move in the variant's notation, or `undo`.

    `index` counts player actions from 0; autoplay moves are not stored (replay recomputes them).
    """

    game_id: str
    index: int
    notation: str
    at: datetime

    def __init__(self, game_id: str, index: int, notation: str, at: datetime) -> None:
        """Spelled out, so a compiled build compiles it (as `protocol.trusted.Encoded`): mypyc's own would not
        assign a frozen dataclass's fields."""
        object.__setattr__(self, "game_id", game_id)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "notation", notation)
        object.__setattr__(self, "at", at)
