"""The state the arena's parts share: who is here, the rooms and the games in memory, and the clock.

`Arena` owns one `SharedState`; the daily challenges (`daily_play.DailyChallenges`) get this object and a narrow
host interface instead of the whole arena, so neither module imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from freecell_arena.core.clock import Clock
from freecell_arena.core.effects import Refusal
from freecell_arena.core.player_game import PlayerGame
from freecell_arena.core.ports import PlayerRecord
from freecell_arena.core.room import Room
from freecell_arena.engine import UnknownVariantError, Variant, variant_by_id
from freecell_arena.protocol.messages import ErrorCode


@dataclass
class PlayerState:
    record: PlayerRecord
    room_code: str | None = None
    game_id: str | None = None
    connections: int = 0


@dataclass
class SharedState:
    clock: Clock
    players: dict[str, PlayerState] = field(default_factory=dict)
    rooms: dict[str, Room] = field(default_factory=dict)
    """Rooms in memory by code."""
    games: dict[str, PlayerGame] = field(default_factory=dict)
    """Games in memory by id."""


def known_variant(variant_id: str) -> Variant:
    """The variant of a request, or the refusal a player sees for an unknown one."""
    try:
        return variant_by_id(variant_id)
    except UnknownVariantError as error:
        raise Refusal(ErrorCode.unknown_variant, str(error)) from None
