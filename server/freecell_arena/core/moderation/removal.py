"""A banned player leaves the live rooms: their running games end as resigned, their seats are given up, and the
rooms go on without them. Done through the verbs the arena hands over (the lobby's leave, play's resign), in one
effect net stores and then has memory adopt like any other, so a ban changes rooms the way a player's own
`leave_room` does: one owner, one order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from freecell_arena.core.effects import Effect


@dataclass(frozen=True, slots=True)
class RemovalVerbs:
    leave_room: Callable[[str], Effect | None]
    """The player leaves the room they sit in (a running game of theirs resigned); None when they sit nowhere."""
    resign_alone: Callable[[str], Effect | None]
    """The player's running game outside any room (a daily) resigned; None without one."""


def remove(verbs: RemovalVerbs, player_id: str) -> Effect:
    """What taking the player out of live play changes (nothing: an empty effect)."""
    left = verbs.leave_room(player_id)
    if left is not None:
        return left
    return verbs.resign_alone(player_id) or Effect()
