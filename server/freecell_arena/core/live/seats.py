"""Seats: who sits in which room and plays which game, the one owner of that for every player here.

A player's seat is a value (`Seat`); a request that moves a player computes the next seat in its `Draft`, and the
seat is adopted (one assignment) once the store has the change. The fields a change changed win over what memory
holds by then (the store accepted them last); the others stay as memory has them. A change that moves a player
from one room to another holds their seat while it is in flight (`claim`, as a room's change holds the room): a
second one meanwhile (the player's own request and a tournament pairing them, say) waits for it (`Busy`), so a
player is never seated in two rooms by two changes that each saw the seat free.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Protocol

from freecell_arena.core.live.versioned import InFlight


@dataclass(frozen=True, slots=True)
class Seat:
    room_code: str | None = None
    """The room whose events the player follows (a lobby, a race, or a finished race they have not left)."""
    game_id: str | None = None
    """The player's current game (running, or the last one they played here)."""


EMPTY = Seat()


@dataclass(frozen=True, slots=True)
class SeatChange:
    player_id: str
    before: Seat
    after: Seat


class Seated(Protocol):
    """A player as the seats see it (`shared_state.PlayerState`)."""

    seat: Seat


class Seats:
    def __init__(self, players: Mapping[str, Seated]) -> None:
        self._players = players
        self._moving = InFlight()
        """Players a change in flight moves from one room to another."""

    def of(self, player_id: str) -> Seat:
        player = self._players.get(player_id)
        return player.seat if player is not None else EMPTY

    def in_flight(self, player_id: str) -> bool:
        return player_id in self._moving

    def claim(self, player_ids: Collection[str]) -> None:
        self._moving.claim(player_ids)

    def release(self, player_ids: Collection[str], *, refused: bool) -> None:
        self._moving.release(player_ids)

    def adopt(self, change: SeatChange) -> None:
        player = self._players.get(change.player_id)
        if player is None:  # a player of another process, or one who left memory meanwhile
            return
        before, after, current = change.before, change.after, player.seat
        if current == before:
            player.seat = after
            return
        fields: dict[str, str | None] = {}
        if before.room_code != after.room_code:
            fields["room_code"] = after.room_code
        if before.game_id != after.game_id:
            fields["game_id"] = after.game_id
        player.seat = replace(current, **fields)

    def put(self, player_id: str, seat: Seat) -> None:
        """What the store says (a room or game brought back), or a player leaving memory's seat."""
        player = self._players.get(player_id)
        if player is not None:
            player.seat = seat
