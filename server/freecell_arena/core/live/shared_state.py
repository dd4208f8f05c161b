"""The state the rooms of core share: who is here, the rooms and the games in memory, and the clock.

`Arena` owns one `SharedState`; each of its parts (players, lobby, play, races, the replica, the daily
challenges) gets this object plus a narrow bundle of the verbs of the others it needs, never the whole arena.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from freecell_arena.core.clock import Clock
from freecell_arena.core.live.player_game import PlayerGame
from freecell_arena.core.live.room import Room
from freecell_arena.core.ports.records import PlayerRecord


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
    rooms_by_id: dict[str, Room] = field(default_factory=dict)
    """The same rooms by id (a game and a stored record name their room by id)."""
    games: dict[str, PlayerGame] = field(default_factory=dict)
    """Games in memory by id."""

    def add_room(self, room: Room) -> None:
        self.rooms[room.code] = room
        self.rooms_by_id[room.record.room_id] = room

    def remove_room(self, room: Room) -> None:
        """Out of the maps only: its timers are the race clock's (`RaceClock.forget`)."""
        self.rooms.pop(room.code, None)
        self.rooms_by_id.pop(room.record.room_id, None)

    def room_of_game(self, game: PlayerGame) -> Room | None:
        return self.rooms_by_id.get(game.record.room_id or "")

    def room_of_player(self, player_id: str) -> Room | None:
        code = self.players[player_id].room_code
        return self.rooms.get(code) if code else None

    def current_game(self, player_id: str) -> PlayerGame | None:
        state = self.players.get(player_id)
        return self.games.get(state.game_id) if state is not None and state.game_id else None

