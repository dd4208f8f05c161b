"""Race again: after a race is over, its members go on to the next room of a series, together.

The first member to ask opens the next room (the same variant and options, a fresh deal the server draws, the
series' tally carried forward) and the finished room points to it; everyone still in the finished room is
invited (`series_invite`); whoever asks afterwards joins that room instead of opening another. The pointer is
stored as a compare-and-set (`NextRoomRecord`): of two members pressing at once on two processes, one opens the
room, the other's write is refused and handled again over the stored pointer (net re-reads it first), so a
series never forks. A late reload finds the pointer in the finished room's view (`next_code`). A next room
whose lobby everyone left (closed) is replaced by a new one on the next press.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from freecell_arena.core.effects import Effect, Publication, Refusal
from freecell_arena.core.events import room_topic
from freecell_arena.core.live.changes import Draft
from freecell_arena.core.live.daily_play import refuse_while_playing
from freecell_arena.core.live.room import Room, RoomPlan
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.records.series_tally import Tally
from freecell_arena.engine import Variant
from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.protocol.rooms import RaceAgainRequest, SeriesInviteMessage
from freecell_arena.protocol.vocabulary import FINISHED, LOBBY
from freecell_arena.protocol.wire import RequestId

OpenRoom = Callable[[Draft, str, RoomPlan, RequestId], tuple[Room, Effect]]
"""Open a room with the player as host and first player (`Lobby.open_room`)."""
TakeSeat = Callable[[Draft, str, Room, RequestId], tuple[Room, Effect]]
"""Seat the player in a room (`Lobby.seat`): the room's next value and the effect."""
MakeWay = Callable[[Draft, str], Effect]
"""Take the player out of the lobby or finished room they sit in (`Lobby.make_way`)."""
DrawSeed = Callable[[Variant], int]
"""A secret deal nobody chose (`Lobby.drawn_seed`)."""


@dataclass(frozen=True)
class SeriesDeps:
    state: SharedState
    open_room: OpenRoom
    seat: TakeSeat
    draw: DrawSeed


class Series:
    def __init__(self, deps: SeriesDeps) -> None:
        self.state = deps.state
        self.open_room = deps.open_room
        self.seat = deps.seat
        self.draw = deps.draw

    def race_again(self, player_id: str, request: RaceAgainRequest) -> Effect:
        refuse_while_playing(self.state, player_id)
        room = self.state.room_of_player(player_id)
        if room is None:
            raise Refusal(ErrorCode.not_in_room, "race again is for the members of a finished race: join a room")
        if room.status != FINISHED:
            raise Refusal(ErrorCode.race_not_over, f"the race in room {room.code} is not over: race again after it")
        draft = Draft(self.state)
        following = self.state.rooms.get(room.next_code or "")
        if following is not None:
            return draft.seal(self._join_next(draft, player_id, following, request.id))
        # no pointer, or one to a room not here: a lobby everyone left (closed), or one another process opened
        # after net read the store (its invitation came first); the pointer is moved over the one the store was
        # known to hold (never over one only heard of), a compare-and-set: refused in the second case, and net
        # reads the store and loads the room before the retry, which then joins it
        return draft.seal(self._open_next(draft, player_id, room, request.id))

    def know_next(self, code: str, next_code: str | None, uncounted: frozenset[str] = frozenset()) -> None:
        """The store says the finished room `code` points to `next_code` (None: to nothing yet), and whose result
        in it counts for nothing (`uncounted`: marked, or their game void); net read it before `race_again`.
        Memory takes it at once (it is stored)."""
        room = self.state.rooms.get(code)
        if room is not None:
            draft = Draft(self.state)
            draft.put(room.pointing_as_stored(next_code, uncounted))
            draft.adopt_now()

    def _join_next(self, draft: Draft, player_id: str, room: Room, request_id: RequestId) -> Effect:
        if room.status != LOBBY:
            raise Refusal(ErrorCode.room_started, f"the series' next race (room {room.code}) has already started")
        if room.is_full():
            raise Refusal(ErrorCode.room_full, f"the series' next room {room.code} is full")
        return self.seat(draft, player_id, room, request_id)[1]

    def _open_next(self, draft: Draft, player_id: str, finished: Room, request_id: RequestId) -> Effect:
        tally = finished.tally or Tally.first(finished.record.room_id)
        tally = tally.next_race(finished.standings(), finished.uncounted)
        plan = RoomPlan(finished.variant, finished.options, self.draw(finished.variant), tally=tally)
        name = self.state.players[player_id].record.display_name
        following, opened = self.open_room(draft, player_id, plan, request_id)
        latest = draft.room_by_id(finished.room_id) or finished  # the player left it to open the next one
        pointing, record = latest.point_next(following.code)
        draft.put(pointing)
        invite = SeriesInviteMessage(code=finished.code, next_code=following.code, by=name)
        told = Publication(room_topic(finished.code), invite, skip=player_id)
        return opened.merge(Effect(records=[record], publications=[told]))
