"""The state the rooms of core share: who is here, the rooms, the seats and the games in memory, and the clock.

`Arena` owns one `SharedState`; each of its parts (players, lobby, play, races, the replica, the daily
challenges) gets this object plus a narrow bundle of the verbs of the others it needs, never the whole arena.
Each kind of state has one owner that writes it: rooms (`rooms.Rooms`), seats (`seats.Seats`) and games
(`games.Games`) change only by adopting a change (`changes.Changes`) once the store has it; identities are
`players.Players`'.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from freecell_arena.core.clock import Clock
from freecell_arena.core.live.games import Games
from freecell_arena.core.live.player_game import PlayerGame
from freecell_arena.core.live.room import Room
from freecell_arena.core.live.rooms import Rooms
from freecell_arena.core.live.seats import EMPTY, Seat, Seats
from freecell_arena.core.ports.records import PlayerRecord


@dataclass
class PlayerState:
    record: PlayerRecord
    seat: Seat = EMPTY
    """Written only by `Seats`."""
    connections: int = 0

    @property
    def room_code(self) -> str | None:
        return self.seat.room_code

    @property
    def game_id(self) -> str | None:
        return self.seat.game_id


@dataclass
class SharedState:
    clock: Clock
    players: dict[str, PlayerState] = field(default_factory=dict)
    rooms: Rooms = field(default_factory=Rooms)
    """Rooms in memory by code (`rooms.by_id`: by id; a game and a stored record name their room by id)."""
    games: Games = field(default_factory=Games)
    """Games in memory by id."""
    seats: Seats = field(init=False)
    _room_by_code: Mapping[str, Room] = field(init=False, repr=False)
    _room_by_id: Mapping[str, Room] = field(init=False, repr=False)
    _game_by_id: Mapping[str, PlayerGame] = field(init=False, repr=False)
    """The dicts `rooms` and `games` keep (never replaced), looked up straight: `Rooms` and `Games` are
    interpreted, and these are read a few times a move (a property and a method call each, otherwise)."""

    def __post_init__(self) -> None:
        self.seats = Seats(self.players)
        self._room_by_code = self.rooms.entries
        self._room_by_id = self.rooms.by_id
        self._game_by_id = self.games.entries

    @property
    def rooms_by_id(self) -> Mapping[str, Room]:
        return self._room_by_id

    def room_of_game(self, game: PlayerGame) -> Room | None:
        return self._room_by_id.get(game.record.room_id or "")

    def room_of_player(self, player_id: str) -> Room | None:
        code = self.players[player_id].seat.room_code
        return self._room_by_code.get(code) if code else None

    def room(self, code: str) -> Room | None:
        return self._room_by_code.get(code)

    def game(self, game_id: str) -> PlayerGame | None:
        return self._game_by_id.get(game_id)

    def game_in_room(self, game_id: str) -> tuple[PlayerGame | None, Room | None]:
        """The game and its room (None: no such game; a daily's game has no room), in one call: what every action
        reads first (`Play.running_game`)."""
        game = self._game_by_id.get(game_id)
        return game, (self._room_by_id.get(game.record.room_id or "") if game is not None else None)

    def current_game(self, player_id: str) -> PlayerGame | None:
        state = self.players.get(player_id)
        return self._game_by_id.get(state.seat.game_id) if state is not None and state.seat.game_id else None
