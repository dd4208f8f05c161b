"""Rooms before and around their race: create, join, leave, start; who sits where, and who is told.

Every membership or status change is a step of the room's life (`room.Room`'s verbs: its next value and a record
carrying its next version, which the store writes as a compare-and-set: how processes sharing a database agree on
one history of a room), proposed in the request's `Draft`, with the seats it moves and a small room event to the
others (`member_joined`, `member_left`, `member_connection`); the whole room goes out only when its status
changes. Memory takes the new values once the store has the records (`core.live.changes`). The policies over
rooms (series, quick races, tournaments) open, seat and count down through these same verbs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from freecell_arena.core.effects import Effect, Publication, Refusal
from freecell_arena.core.events import room_topic
from freecell_arena.core.identity import new_ordered_id, new_room_code, normalize_room_code, random_seed
from freecell_arena.core.live.changes import Draft
from freecell_arena.core.live.daily_play import refuse_while_playing
from freecell_arena.core.live.player_game import PlayerGame
from freecell_arena.core.live.players import Players
from freecell_arena.core.live.race_clock import RaceClock
from freecell_arena.core.live.room import Member, Room, RoomPlan
from freecell_arena.core.live.room_messages import whole_room
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.ports.records import Record, RoomVersion
from freecell_arena.core.records.leaderboard import resolve_ranked
from freecell_arena.core.variant_request import known_variant
from freecell_arena.engine import Variant
from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.protocol.rooms import (
    CountdownMessage,
    CreateRoomRequest,
    JoinRoomRequest,
    LeaveRoomRequest,
    LeftRoomMessage,
    MemberConnectionMessage,
    MemberJoinedMessage,
    MemberLeftMessage,
    RoomMessage,
    StartRaceRequest,
)
from freecell_arena.protocol.trusted import Reply
from freecell_arena.protocol.vocabulary import (
    FINISHED,
    LOBBY,
    PLAYER,
    RUNNING,
    SPECTATOR,
    MemberRole,
)
from freecell_arena.protocol.wire import RequestId

DEFAULT_MAX_SPECTATORS = 64
"""Every spectator gets every room event: a cap keeps one room from costing the server without bound."""
LOBBY_RETURN_GRACE = timedelta(seconds=60)
"""A lobby picked up from the store (after a restart, or a process that died): how long its members have to
reconnect before their seats are given up (a member who closes their connection in a lobby leaves at once)."""

SeedDraw = Callable[[int, int], int]
"""Where seeds nobody chose come from (a secret random draw between two bounds); injected for tests."""


@dataclass(frozen=True)
class LobbyDeps:
    state: SharedState
    players: Players
    timers: RaceClock
    resign: Callable[[PlayerGame], Effect]
    """Resign a running game (a player leaving a running race gives it up)."""
    max_spectators: int = DEFAULT_MAX_SPECTATORS
    return_grace: timedelta = LOBBY_RETURN_GRACE


class Lobby:
    def __init__(self, deps: LobbyDeps) -> None:
        self.state = deps.state
        self.players = deps.players
        self.timers = deps.timers
        self.resign = deps.resign
        self.max_spectators = deps.max_spectators
        self.return_grace = deps.return_grace
        self.draw_seed: SeedDraw = random_seed
        self.after_leave: Callable[[Draft, Room], Effect] = lambda draft, room: Effect()
        """What follows a member leaving a room that is still there (a quick race may stop its countdown)."""
        self.after_join: Callable[[Draft, Room, str], Effect] = lambda draft, room, player_id: Effect()
        """What follows a player joining by code (a quick race joined by its link may start its countdown)."""

    # ------------------------------------------------------------------ requests

    def create_room(self, player_id: str, request: CreateRoomRequest) -> Effect:
        refuse_while_playing(self.state, player_id)
        draft = Draft(self.state)
        refuse_while_in_a_room(draft, player_id)
        variant = known_variant(request.variant)
        options = resolve_ranked(variant, request.options)
        seed = choose_seed(variant, request.seed, request.deal, self.draw_seed)
        chosen = request.seed is not None or request.deal is not None
        plan = RoomPlan(variant, options, seed, seed_chosen=chosen)
        return draft.seal(self.open_room(draft, player_id, plan, request.id)[1])

    def open_room(self, draft: Draft, player_id: str, plan: RoomPlan, request_id: RequestId) -> tuple[Room, Effect]:
        """A new room with the player as its host and first player (leaving the finished room they sit in); the
        caller has checked the plan and the player."""
        leaving = self.leave_finished_room(draft, player_id)
        now = self.state.clock.now()
        code = new_room_code()
        while draft.room(code) is not None:
            code = new_room_code()
        player = self.state.players[player_id].record
        host = Member(player_id, player.display_name, player.bot, PLAYER)
        opened = Room.open(plan, new_ordered_id("r", now), code, host, now)
        room = draft.put(opened.room)
        draft.sit(player_id, room_code=code)
        reply = RoomMessage(id=request_id, room=room.view(now, self.players.is_connected))
        return room, leaving.merge(Effect(records=list(opened.records), replies=[reply]))

    def join_room(self, player_id: str, request: JoinRoomRequest) -> Effect:
        code = normalize_room_code(request.code)
        room = self.state.rooms.get(code)
        if room is None:
            raise Refusal(ErrorCode.unknown_room, f"there is no room with code {request.code!r}")
        if self.state.seats.of(player_id).room_code == code:
            raise Refusal(ErrorCode.already_in_room, f"you are already in room {code}")
        if not request.spectator:
            refuse_while_playing(self.state, player_id)
            if room.status != LOBBY:
                raise Refusal(ErrorCode.room_started, f"the race in room {code} has already started")
            if room.is_full():
                limit = room.options.max_players
                raise Refusal(ErrorCode.room_full, f"room {code} is full ({limit} players)")
        elif len(room.members) - len(room.players()) >= self.max_spectators:
            raise Refusal(ErrorCode.room_full, f"room {code} has its {self.max_spectators} spectators already")
        draft = Draft(self.state)
        if request.spectator:
            return draft.seal(self.seat(draft, player_id, room, request.id, SPECTATOR)[1])
        room, seated = self.seat(draft, player_id, room, request.id)
        return draft.seal(seated.merge(self.after_join(draft, room, player_id)))

    def seat(self, draft: Draft, player_id: str, room: Room, request_id: RequestId, role: MemberRole = PLAYER) -> (
        tuple[Room, Effect]
    ):
        """The player takes a seat in the room (leaving the finished room they sit in); the caller has checked
        that the room takes them."""
        player = self.state.players[player_id].record
        leaving = self.leave_finished_room(draft, player_id)
        room = draft.room_by_id(room.room_id) or room
        now = self.state.clock.now()
        seated = room.seat(Member(player_id, player.display_name, player.bot, role), now)
        room, version = draft.put(seated.room), seated.version
        draft.sit(player_id, room_code=room.code)
        view = room.view(now, self.players.is_connected)
        reply = RoomMessage(id=request_id, room=view)
        joined = MemberJoinedMessage(code=room.code, member=next(m for m in view.members if m.player_id == player_id))
        publication = Publication(room_topic(room.code), joined, skip=player_id, version=version)
        return room, leaving.merge(Effect(records=list(seated.records), replies=[reply], publications=[publication]))

    def leave_room(self, player_id: str, request: LeaveRoomRequest) -> Effect:
        draft = Draft(self.state)
        return draft.seal(self.leave(draft, player_id, request.id, reply=True))

    def start_race(self, player_id: str, request: StartRaceRequest) -> Effect:
        room = self.room_of(player_id)
        if room.record.quick:
            raise Refusal(ErrorCode.not_host, "a quick race starts by itself once enough players are in")
        if room.host_id != player_id:
            raise Refusal(ErrorCode.not_host, "only the host starts the race")
        if room.status != LOBBY:
            raise Refusal(ErrorCode.room_started, f"the race in room {room.code} has already started")
        if not room.players():
            raise Refusal(ErrorCode.not_enough_players, "a race needs at least one player")
        now = self.state.clock.now()
        draft = Draft(self.state)
        countdown = begin_countdown(draft, room, now + timedelta(seconds=room.options.countdown_s), now)
        return draft.seal(Effect(
            records=[countdown.record],
            replies=[countdown.message.model_copy(update={"id": request.id})],
            publications=[
                Publication(room_topic(room.code), countdown.message, skip=player_id, version=countdown.version),
                whole_room(countdown.room, now, self.players.is_connected, countdown.version),
            ],
        ))  # fmt: skip

    def drawn_seed(self, variant: Variant) -> int:
        """A secret deal of the variant nobody chose."""
        low, high = variant.seed_range
        return self.draw_seed(low, high)

    # ------------------------------------------------------------------ seats

    def room_of(self, player_id: str, draft: Draft | None = None) -> Room:
        room = (draft.room(draft.seat(player_id).room_code) if draft is not None
                else self.state.room_of_player(player_id))  # fmt: skip
        if room is None:
            raise Refusal(ErrorCode.not_in_room, "you are not in a room")
        return room

    def leave_finished_room(self, draft: Draft, player_id: str) -> Effect:
        """Create/join while sitting in a finished room: leave it first; in any other room: refuse."""
        refuse_while_in_a_room(draft, player_id)
        if draft.seat(player_id).room_code is None:
            return Effect()
        return self.leave(draft, player_id, None, reply=False)

    def make_way(self, draft: Draft, player_id: str) -> Effect:
        """A tournament pairs a player who waits in a lobby (a quick race's, a friend's): they leave it for their
        race, as they would leave a finished room; a room counting down or racing is never left this way."""
        room = draft.room(draft.seat(player_id).room_code)
        if room is None:
            return Effect()
        assert room.status in (LOBBY, FINISHED), "the pairing seats no one from a race under way"
        return self.leave(draft, player_id, None, reply=False)

    def leave(self, draft: Draft, player_id: str, request_id: RequestId, *, reply: bool) -> Effect:
        """The player leaves their room (a running game of theirs is resigned); the host's seat passes to the next
        player; a lobby everyone left closes."""
        room = self.room_of(player_id, draft)
        effect = Effect()
        game = room.games.get(player_id)
        if room.status == RUNNING and game is not None and game.running:
            effect = self.resign(game)
        unseated = room.unseat(player_id)
        room, version = unseated.room, unseated.version
        draft.sit(player_id, room_code=None)
        records: list[Record] = list(unseated.records)
        if room.closes_when_empty():
            closed = room.close(self.state.clock.now())
            records.extend(closed.records)
            draft.drop(closed.room)  # a lobby everyone left leaves memory; the store keeps it as `closed`
        else:
            draft.put(room)
        replies: list[Reply] = [LeftRoomMessage(id=request_id, code=room.code)] if reply else []
        left = Effect(records=records, replies=replies)
        if room.members:
            gone = MemberLeftMessage(code=room.code, player_id=player_id, host_id=room.host_id)
            left.publications.append(Publication(room_topic(room.code), gone, version=version))
            left = left.merge(self.after_leave(draft, room))
        return effect.merge(left)

    def give_up_seats(self, room: Room) -> Effect | None:
        """The members of a picked-up lobby who did not come back leave it (the last one closes it)."""
        if room.status != LOBBY or self.state.rooms.by_id.get(room.room_id) is not room:
            return None
        gone = [
            player_id
            for player_id, member in room.members.items()
            if not self.players.is_connected(player_id)
            and not member.elsewhere
            and self.state.seats.of(player_id).room_code == room.code
        ]
        draft = Draft(self.state)
        effect = Effect()
        for player_id in gone:
            effect = effect.merge(self.leave(draft, player_id, None, reply=False))
        latest = draft.room_by_id(room.room_id)
        if latest is not None and not latest.members:  # stored with no members (before migration 0004)
            closed = latest.close(self.state.clock.now())
            effect.records.extend(closed.records)
            draft.drop(closed.room)
        return draft.seal(effect) if effect.records else None

    def await_return(self, room: Room) -> None:
        """A lobby picked up from the store: the connections of its members who sat on a process that died are
        gone, they have a while to come back. In a cluster, the members connected to a live process are not
        known yet: the clock asks for a roll call (`RaceClock.take_roll_calls`), which they answer."""
        self.timers.await_return(room, self.state.clock.now() + self.return_grace)

    def connection_changed(self, player_id: str, *, connected: bool) -> Effect:
        """A member's connection went down or came back: a small event to the others, not the whole room."""
        room = self.state.room_of_player(player_id)
        if room is None:
            return Effect()
        message = MemberConnectionMessage(code=room.code, player_id=player_id, connected=connected)
        return Effect(publications=[Publication(room_topic(room.code), message, skip=player_id)])


def choose_seed(variant: Variant, seed: int | None, deal: int | None, draw_seed: SeedDraw) -> int:
    """The seed a host chose (a seed or a Microsoft deal number), checked against the variant; or a secret draw."""
    if seed is not None and deal is not None and seed != deal:
        raise Refusal(ErrorCode.bad_seed, "give a seed or a deal number, not two different ones")
    chosen = seed if seed is not None else deal
    low, high = variant.seed_range
    if chosen is None:
        return draw_seed(low, high)
    if variant.face_down:
        raise Refusal(
            ErrorCode.bad_seed,
            f"{variant.name} hides cards: its rooms deal from a seed the server draws, so nobody (the host "
            "included) knows the face-down cards; the seed is shown once the race is over",
        )
    if not low <= chosen <= high:
        raise Refusal(ErrorCode.bad_seed, f"{variant.name} seeds run from {low} to {high}, not {chosen}")
    return chosen


def refuse_while_in_a_room(draft: Draft, player_id: str) -> None:
    """A player opens or joins another room only from no room or a finished one (which they then leave)."""
    room = draft.room(draft.seat(player_id).room_code)
    if room is not None and room.status != FINISHED:
        raise Refusal(ErrorCode.already_in_room, f"you are in room {room.code}: leave it first")


@dataclass(frozen=True, slots=True)
class Countdown:
    """A room's countdown begun: the room's next value, what to store and what to tell."""

    room: Room
    version: RoomVersion
    record: Record
    message: CountdownMessage


def begin_countdown(draft: Draft, room: Room, starts_at: datetime, now: datetime) -> Countdown:
    """The race of `room` starts at `starts_at` (the host's start, a quick race with enough players in, a
    tournament's race)."""
    counting = room.count_down(starts_at)
    room = draft.put(counting.room)
    seconds = max(0.0, (starts_at - now).total_seconds())
    message = CountdownMessage(code=room.code, starts_at=starts_at, seconds=seconds)
    return Countdown(room, counting.version, counting.records[0], message)
