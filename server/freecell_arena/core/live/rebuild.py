"""Rooms and games brought back from the store by replay: after a restart, for a returning player, for a replay
or a join by code, or for a room another process holds.

The adapter reads (`net/restore.py`); this module only rebuilds, from the records read, what memory lacks. A
copy already in memory is kept as it is (re-reading a shared room over it is the replica's `resync`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from freecell_arena.core.live.changes import Draft, reseat
from freecell_arena.core.live.player_game import PlayerGame
from freecell_arena.core.live.players import Players
from freecell_arena.core.live.race_clock import RaceClock
from freecell_arena.core.live.room import Member, Room
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.ports.records import PlayerRecord, StoredGame, StoredRoom
from freecell_arena.engine import variant_by_id
from freecell_arena.protocol.rooms import RoomOptions
from freecell_arena.protocol.vocabulary import FINISHED, LOBBY, PLAYER, RUNNING


@dataclass(frozen=True)
class RebuildDeps:
    state: SharedState
    players: Players
    timers: RaceClock
    track_daily: Callable[[PlayerGame], None]
    """A daily game brought back must still end when its day closes."""
    await_return: Callable[[Room], None]
    """A lobby brought back gives its members a while to come back (`Lobby.await_return`)."""


class Rebuild:
    def __init__(self, deps: RebuildDeps) -> None:
        self.state = deps.state
        self.players = deps.players
        self.timers = deps.timers
        self.track_daily = deps.track_daily
        self.await_return = deps.await_return

    # ------------------------------------------------------------------ what is here already

    def knows(self, player_id: str) -> bool:
        return self.players.knows(player_id)

    def holds_game(self, game_id: str) -> bool:
        return game_id in self.state.games

    def holds_room(self, code: str) -> bool:
        return code in self.state.rooms

    def holds_room_id(self, room_id: str) -> bool:
        return room_id in self.state.rooms_by_id

    # ------------------------------------------------------------------ bringing back

    def adopt_player(self, record: PlayerRecord) -> None:
        self.players.adopt(record)

    def adopt_room(self, stored: StoredRoom, games: list[StoredGame], players: list[PlayerRecord]) -> Room:
        """Rebuild a room and its games by replay (after a restart, or in another process); a copy already in
        memory is kept as it is."""
        existing = self.state.rooms.by_id.get(stored.room.room_id)
        if existing is not None:
            return existing
        variant = variant_by_id(stored.room.variant)
        room = stored_value(Room.new(stored.room, variant, RoomOptions.model_validate(stored.room.options)), stored)
        room = room.but(keeps_time=False)  # another process (alive or not) started it: see race_clock.TAKEOVER_GRACE
        names = {record.player_id: record for record in players}
        for record in players:
            self.players.adopt(record)
        draft = Draft(self.state)
        members: dict[str, Member] = {}
        for stored_member in stored.members:
            player = names.get(stored_member.player_id)
            if player is None:
                continue
            members[player.player_id] = Member(player.player_id, player.display_name, player.bot, stored_member.role)
        games_here: dict[str, PlayerGame] = {}
        for stored_game in games:
            player = names.get(stored_game.game.player_id)
            name = player.display_name if player else stored_game.game.player_id
            game = self._adopt_game(stored_game, name, room.code)
            games_here[game.player_id] = game
            members.setdefault(game.player_id, Member(game.player_id, name, bool(player and player.bot), PLAYER))
            if game.player_id in self.state.players and game.running:  # a finished game never replaces a current one
                draft.sit(game.player_id, room_code=room.code, game_id=game.game_id)
        room = draft.put(room.but(members=members, games=games_here))
        reseat(draft, room)
        draft.adopt_now()  # the clock watches its countdown or time limit, or remembers it finished
        if room.status == LOBBY:
            self.await_return(room)
        return room

    def adopt_game(self, stored: StoredGame) -> PlayerGame:
        """A game without its room (the store could not say which room): playable on its own."""
        state = self.state.players[stored.game.player_id]
        game = self._adopt_game(stored, state.record.display_name, None)
        self.state.seats.put(game.player_id, replace(state.seat, game_id=game.game_id))
        return game

    def adopt_stored_game(self, stored: StoredGame) -> PlayerGame:
        """A finished game without a room, for its replay; it does not become anyone's current game."""
        return self._adopt_game(stored, self.state.players[stored.game.player_id].record.display_name, None)

    def _adopt_game(self, stored: StoredGame, name: str, room_code: str | None) -> PlayerGame:
        existing = self.state.games.get(stored.game.game_id)
        if existing is not None:
            return existing
        return self.restore_game(stored, name, room_code)

    def restore_game(self, stored: StoredGame, name: str, room_code: str | None) -> PlayerGame:
        """The stored game replayed into memory (replacing any copy of it there)."""
        variant = variant_by_id(stored.game.variant)
        actions = [move.notation for move in sorted(stored.moves, key=lambda move: move.index)]
        game = PlayerGame.restore(stored.game, variant, name, room_code, actions, stored.result)
        self.state.games.replace(game)
        self.track_daily(game)
        return game


def stored_value(room: Room, stored: StoredRoom) -> Room:
    """The room with its host, status, version and start as the store has them (a started race's end follows
    from its start); a pointer to the series' next room this copy knows and the store does not yet keeps."""
    assert stored.status != "closed", "a closed room is never brought back"
    started = stored.started_at if stored.status in (RUNNING, FINISHED) else None
    return room.but(
        status=stored.status,
        host_id=stored.room.host_id,
        seq=stored.seq,
        tag=stored.tag,
        starts_at=stored.started_at,
        ends_at=room.limit_from(started),
        next_code=stored.next_code or room.next_code,  # one heard of from another process's invitation
        stored_next_code=stored.next_code or room.stored_next_code,
    )
