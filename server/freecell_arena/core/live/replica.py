"""This process's copies of rooms other processes share: kept up to date by their room events, re-read from
the store when an event is missing, and settled from the store when a race may be over.

The cluster adapter (`net/cluster.py`) reads the store and carries events; everything it asks of core is here,
by room code, and every message a resync announces comes back in an `Effect` (the adapter builds none).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from freecell_arena.core.effects import Effect, Publication
from freecell_arena.core.events import room_topic
from freecell_arena.core.live.changes import Draft, reseat
from freecell_arena.core.live.player_game import PlayerGame
from freecell_arena.core.live.players import Players
from freecell_arena.core.live.race_clock import RaceClock
from freecell_arena.core.live.races import Races, forget_room
from freecell_arena.core.live.rebuild import Rebuild, stored_value
from freecell_arena.core.live.room import Member, Room
from freecell_arena.core.live.room_messages import race_over, race_started, whole_room
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.ports.records import (
    MemberLeftRecord,
    MemberRecord,
    MoveRecord,
    NextRoomRecord,
    PlayerRecord,
    Record,
    RoomStatusRecord,
    RoomVersion,
    StoredGame,
    StoredRoom,
)
from freecell_arena.protocol.rooms import (
    CountdownMessage,
    MemberConnectionMessage,
    MemberJoinedMessage,
    MemberLeftMessage,
    ProgressMessage,
    RaceOverMessage,
    RoomMessage,
    SeriesInviteMessage,
)
from freecell_arena.protocol.vocabulary import CLOSED, COUNTDOWN, FINISHED, PLAYER, RUNNING, RoomStatus
from freecell_arena.protocol.wire import Message

RemoteEvent = Literal["applied", "seen", "gap", "unknown"]
"""What applying another process's room event did: `applied`; `seen` (a version this copy has had already);
`gap` (the event is not built on this copy's version, or needs what only the store has: re-read the room with
`resync`); `unknown` (no copy of the room here)."""


@dataclass(frozen=True, slots=True)
class RoomCopy:
    """Where this process's copy of a room stands: enough for the adapter to compare it with the store's."""

    room_id: str
    code: str
    status: RoomStatus
    seq: int
    tag: str


@dataclass(frozen=True)
class ReplicaDeps:
    state: SharedState
    players: Players
    timers: RaceClock
    rebuild: Rebuild
    races: Races


class Replica:
    def __init__(self, deps: ReplicaDeps) -> None:
        self.state = deps.state
        self.players = deps.players
        self.timers = deps.timers
        self.rebuild = deps.rebuild
        self.races = deps.races

    # ------------------------------------------------------------------ what the adapter may look at

    def holds_room(self, code: str) -> bool:
        return code in self.state.rooms

    def holds_game(self, game_id: str) -> bool:
        return game_id in self.state.games

    def is_connected(self, player_id: str) -> bool:
        return self.players.is_connected(player_id)

    def copy_of(self, code: str) -> RoomCopy | None:
        room = self.state.rooms.get(code)
        return None if room is None else RoomCopy(room.record.room_id, room.code, room.status, room.seq, room.tag)

    def live_copies(self) -> list[RoomCopy]:
        """The rooms here whose race is not over (a lost event could leave them behind the store)."""
        return [copy for code in list(self.state.rooms) if (copy := self.copy_of(code)) and copy.status != FINISHED]

    def seated_in(self, player_id: str) -> str | None:
        """The room this process seats the player in (a resumed player's, re-read with the rooms the store says
        they sit in, so a seat in a room they left elsewhere is let go)."""
        return self.state.seats.of(player_id).room_code

    def plays_every_game_here(self, code: str) -> bool:
        """Every game of the race is played on this process: nothing of it to re-read from the store."""
        room = self.state.rooms.get(code)
        return room is not None and bool(room.games) and all(map(self.players.is_connected, room.games))

    def rooms_touched_by(self, records: Iterable[Record]) -> set[str]:
        """The codes of the rooms a refused write was about (another process changed them first)."""
        codes: set[str] = set()
        for record in records:
            if isinstance(record, MemberRecord | MemberLeftRecord | RoomStatusRecord | NextRoomRecord):
                room = self.state.rooms_by_id.get(record.room_id)
                if room is not None:
                    codes.add(room.code)
            elif isinstance(record, MoveRecord) and (game := self.state.games.get(record.game_id)) is not None:
                codes.update([game.room_code] if game.room_code is not None else [])
        return codes

    # ------------------------------------------------------------------ events of other processes

    def apply_remote(self, message: Message, version: RoomVersion | None) -> RemoteEvent:
        """A room event another process published after its commit: bring this process's copy of the room up to
        date (see `RemoteEvent`). An event without a version (progress, connections) is applied as it comes. It is
        stored already: memory takes it at once."""
        room = self.state.rooms.get(_room_code_of(message) or "")
        if room is None:
            return "unknown"
        if version is not None:
            if version.tag == room.tag or version.seq < room.seq:
                return "seen"
            if version.previous != room.tag:
                return "gap"
        draft = Draft(self.state)
        after = self._apply_event(draft, room, message)
        if after is None:
            return "gap"
        after = draft.put(after.at_version(version) if version is not None else after)
        if after.members is not room.members:
            reseat(draft, after)
        draft.adopt_now()
        return "applied"

    def _apply_event(self, draft: Draft, room: Room, message: Message) -> Room | None:
        """The room as the event leaves it (None: a gap, re-read the store)."""
        if isinstance(message, MemberJoinedMessage):
            new = message.member
            joined = Member(new.player_id, new.name, new.bot, new.role, elsewhere=new.connected)
            return room.but(members=room.with_member(joined))
        if isinstance(message, MemberLeftMessage):
            return room.but(members=room.without_member(message.player_id), host_id=message.host_id)
        if isinstance(message, MemberConnectionMessage):
            member = room.members.get(message.player_id)
            if member is None:
                return room
            return room.but(members=room.with_member(replace(member, elsewhere=message.connected)))
        if isinstance(message, CountdownMessage):
            return room.but(status=COUNTDOWN, starts_at=message.starts_at, keeps_time=False)
        if isinstance(message, RoomMessage) and message.room is not None:
            view = message.room
            if view.status in (RUNNING, FINISHED) and not room.games:
                return None  # the games were dealt by another process: they are in the store
            members = {
                member.player_id: Member(
                    member.player_id, member.name, member.bot, member.role,
                    elsewhere=member.connected and not self.players.is_connected(member.player_id),
                )
                for member in view.members
            }  # fmt: skip
            return room.but(status=view.status, host_id=view.host_id, starts_at=view.starts_at,
                            ends_at=view.ends_at, members=members)  # fmt: skip
        if isinstance(message, RaceOverMessage):
            return self.races.end_race_here(draft, room, tuple(message.standings))
        if isinstance(message, SeriesInviteMessage):
            return room.but(next_code=message.next_code)
        if isinstance(message, ProgressMessage) and message.progress.status not in ("playing", "waiting"):
            self.timers.check_if_over(room)  # a game ended on another process: maybe the race is over
        return room

    # ------------------------------------------------------------------ picked-up lobbies: who is connected where

    def take_roll_calls(self) -> list[str]:
        """The codes of the lobbies picked up from the store here whose members connected to other processes must
        answer (`answer_roll_call` there), handed out once: until they do, a member not connected here counts as
        gone when the lobby's grace ends (`Lobby.give_up_seats`), as after a restart."""
        return [room.code for room in self.timers.take_roll_calls() if self.state.rooms.get(room.code) is room]

    def answer_roll_call(self, code: str) -> list[Publication]:
        """Another process picked up the room: a `member_connection` for each of its members connected here (for
        the other processes only: the members here know)."""
        room = self.state.rooms.get(code)
        if room is None:
            return []
        return [
            Publication(room_topic(code), MemberConnectionMessage(code=code, player_id=player_id, connected=True),
                        skip=player_id)
            for player_id in room.members
            if self.players.is_connected(player_id)
            and (player := self.state.players.get(player_id)) is not None
            and player.room_code == code
        ]  # fmt: skip

    # ------------------------------------------------------------------ re-reading from the store

    def resync(self, stored: StoredRoom, games: list[StoredGame], players: list[PlayerRecord]) -> Effect:
        """Replace this process's copy of a room with the store's (after a gap in its events, or a change of ours
        the store refused because another process changed the room first). Games played here keep what memory
        has beyond the store (a move being written). The effect's publications tell the room's members here
        what changed (for this process's connections only: the other processes re-read the store themselves)."""
        room = self.state.rooms.by_id.get(stored.room.room_id)
        status_before = room.status if room is not None else None
        if room is not None and stored.seq < room.seq:
            return Effect()  # read before a change of ours was stored and adopted: memory is newer than this read
        if stored.status == CLOSED:  # everyone left it on another process: no copy of it stays
            if room is not None:
                draft = Draft(self.state)
                forget_room(draft, room)
                draft.adopt_now()
            return Effect()
        if room is None:
            room = self.rebuild.adopt_room(stored, games, players)
        else:
            room = self._take_stored(room, stored, games, players)
        return Effect(publications=self._announce(room, status_before))

    def _take_stored(self, room: Room, stored: StoredRoom, games: list[StoredGame], players: list[PlayerRecord]) -> (
        Room
    ):
        for record in players:
            self.players.adopt(record)
        names = {record.player_id: record for record in players}
        members: dict[str, Member] = {}
        for stored_member in stored.members:
            if (player := names.get(stored_member.player_id)) is not None:
                elsewhere = not self.players.is_connected(player.player_id)
                members[player.player_id] = Member(
                    player.player_id, player.display_name, player.bot, stored_member.role, elsewhere=elsewhere
                )
        draft = Draft(self.state)
        after = self._refreshed(draft, stored_value(room, stored).but(members=members), games, names)
        if after.status == FINISHED:
            after = self.races.end_race_here(draft, after)
        draft.put(after)
        reseat(draft, after)
        draft.adopt_now()  # the clock watches what the store's room says (its countdown, its time limit, its end)
        return after

    def _announce(self, room: Room, status_before: RoomStatus | None) -> list[Publication]:
        """The whole room as it is now; each player's deal when the race began meanwhile; the standings when it
        ended meanwhile."""
        now = self.state.clock.now()
        publications = [whole_room(room, now, self.players.is_connected)]
        if room.status == RUNNING and status_before not in (RUNNING, FINISHED):
            publications.extend(race_started(room, game, now) for game in room.games.values())
        if room.status == FINISHED and status_before != FINISHED:
            publications.append(race_over(room))
        return publications

    def refresh_games(self, code: str, games: list[StoredGame], players: list[PlayerRecord]) -> None:
        """The stored games of a shared room replace the copies here that are behind them."""
        room = self.state.rooms.get(code)
        if room is not None:
            draft = Draft(self.state)
            draft.put(self._refreshed(draft, room, games, {player.player_id: player for player in players}))
            draft.adopt_now()

    def _refreshed(self, draft: Draft, room: Room, games: list[StoredGame], names: dict[str, PlayerRecord]) -> Room:
        """The room with the games played on other processes re-read; a game whose player plays here is never
        rewound."""
        room_games, members = dict(room.games), dict(room.members)
        for stored_game in games:
            player_id = stored_game.game.player_id
            current = room_games.get(player_id)
            if current is not None and current.game_id == stored_game.game.game_id and not _behind(stored_game,
                                                                                                    current):
                continue
            player = names.get(player_id) or self.players.record_of(player_id)
            name = player.display_name if player else player_id
            game = self.rebuild.restore_game(stored_game, name, room.code)
            room_games[player_id] = game
            members.setdefault(player_id, Member(player_id, name, bool(player and player.bot), PLAYER))
            seat = draft.seat(player_id)
            if player_id in self.state.players and (game.running or seat.game_id in (None, current and
                                                                                     current.game_id)):
                draft.sit(player_id, room_code=seat.room_code or room.code, game_id=game.game_id)
        return room.but(games=room_games, members=members)

    def refresh_game(self, stored: StoredGame) -> None:
        """A game another process may have played (a daily, or a racer's game seen from here, before its replay):
        the store's copy replaces this one when it is ahead."""
        room = self.state.rooms.by_id.get(stored.game.room_id or "")
        if room is not None:
            record = self.players.record_of(stored.game.player_id)
            draft = Draft(self.state)
            draft.put(self._refreshed(draft, room, [stored], {record.player_id: record} if record is not None else {}))
            draft.adopt_now()
            return
        state = self.state.players.get(stored.game.player_id)
        if state is None:
            return
        current = self.state.games.get(stored.game.game_id)
        if current is not None and not _behind(stored, current):
            return
        game = self.rebuild.restore_game(stored, state.record.display_name, None)
        if game.running or state.seat.game_id == game.game_id:
            self.state.seats.put(game.player_id, replace(state.seat, game_id=game.game_id))

    # ------------------------------------------------------------------ races that may be over

    def take_due(self) -> list[str]:
        """The codes of the shared races that may be over, handed out once: re-read their games from the store
        (`refresh_games`), then `settle` them, or hand them back with `settle_later`."""
        return [room.code for room in self.timers.take_due() if self.state.rooms.get(room.code) is room]

    def settle_later(self, code: str) -> None:
        room = self.state.rooms.get(code)
        if room is not None:
            self.timers.settle_later(room)

    def settle(self, code: str) -> Effect | None:
        """Finish the race when every game has ended or the time limit has passed; None when it goes on."""
        room = self.state.rooms.get(code)
        if room is None:
            return None
        self.timers.settled(room)
        if room.status != RUNNING:
            return None
        if not _out_of_time(room, self.state.clock.now()) and not room.everyone_done():
            return None
        if self.state.rooms.in_flight(room.room_id):  # a change of ours is being written: look again later
            self.timers.settle_later(room)
            return None
        finish = self.races.finish_race(room)
        finish.claim()
        return finish


def _out_of_time(room: Room, now: datetime) -> bool:
    return room.ends_at is not None and room.ends_at <= now


def _room_code_of(message: Message) -> str | None:
    """The room a room event is about: its `code`, or the code of the room it carries whole (`RoomMessage`)."""
    if isinstance(message, RoomMessage):
        return message.room.code if message.room is not None else None
    code = getattr(message, "code", None)
    return code if isinstance(code, str) else None


def _behind(stored: StoredGame, current: PlayerGame) -> bool:
    """The copy in memory lacks moves (or the result) the store has: another process played them."""
    return len(stored.moves) > len(current.game.actions) or (stored.result is not None and current.running)
