"""A room as a value, and every verb of its life: the one place a room's next value is made.

`lobby` -> `countdown` (the host started; everyone sees `starts_at`) -> `running` (every player has a copy
of the deal, all started at the same instant) -> `finished` (everyone is done or the time limit passed).

A `Room` never changes: each verb of its life returns the change, a `RoomStep` (the room's next value, at its
next version, and the records the store must take for it), or, for what is stored already or known beyond the
store, the next value alone: open, seat, unseat, close, count down, stop the countdown, begin, finish, point to
the series' next room, an event another process published (`heard`), the store's word (`from_store`,
`as_stored`, `refreshed`), and a change of ours over a value that moved on (`merged`). A verb applies nothing:
the caller proposes the step in its request's `Draft`, the store takes the records, and memory (`live.rooms`,
the owner of which value each room holds and of its one change in flight) adopts it only then. So nothing is
ever put back: a refused change was never in memory. The clock asks the value when it rings (`deadline`).

Lobby, races, the replica and the rebuild call these verbs for requests, timers, events and reads; series,
quick races and tournaments are policies over rooms that call them too (through the lobby's request-level verbs
where a seat or a message comes with them), never making a room's value themselves (tests/core/test_room_owner.py).
A value's mappings (`members`, `games`) are fresh dicts for every new value and are never written to afterwards;
the games in them are the players' running games (`PlayerGame`), which change move by move on their own (the
engine's push/pop).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import datetime, timedelta
from typing import Any

from freecell_arena.core.live.player_game import Finish, PlayerGame
from freecell_arena.core.ports.records import (
    MemberLeftRecord,
    MemberRecord,
    NextRoomRecord,
    Record,
    RoomRecord,
    RoomStatusRecord,
    RoomVersion,
    StoredRoom,
)
from freecell_arena.core.records.ranking import rank
from freecell_arena.core.records.series_tally import Tally
from freecell_arena.engine import Variant, variant_by_id
from freecell_arena.protocol.rooms import (
    CountdownMessage,
    MemberConnectionMessage,
    MemberJoinedMessage,
    MemberLeftMessage,
    Progress,
    RoomMember,
    RoomMessage,
    RoomOptions,
    RoomView,
    SeriesInviteMessage,
    SeriesView,
    Standing,
)
from freecell_arena.protocol.vocabulary import (
    CLOSED,
    COUNTDOWN,
    FINISHED,
    LOBBY,
    PLAYER,
    RUNNING,
    MemberRole,
    RoomStatus,
)
from freecell_arena.protocol.wire import Message

NO_FINISHES: Mapping[str, Finish] = {}
TAKEOVER_GRACE = timedelta(seconds=2)
"""A race's countdown end or time limit, seen by a process that did not start the race: it acts this much later,
only if the room's keeper has not (the keeper's process may have died); the room's version check lets one win."""


@dataclass(frozen=True, slots=True)
class Member:
    player_id: str
    name: str
    bot: bool
    role: MemberRole
    elsewhere: bool = False
    """Connected to another process that shares this room (told by its room events)."""


@dataclass(frozen=True)
class RoomPlan:
    """What a new room is: checked by whoever opens it (a host's request, a series, a quick race, a tournament)."""

    variant: Variant
    options: RoomOptions
    seed: int
    seed_chosen: bool = False
    tally: Tally | None = None
    quick: bool = False
    seed_sealed_until: datetime | None = None


@dataclass(frozen=True, slots=True)
class RoomStep:
    """One step of a room's life as a change: the room's next value, the version the step brings it to, and what
    the store must take (the records carry that version)."""

    room: Room
    version: RoomVersion
    records: tuple[Record, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Room:
    """One version of a room. Identity, not equality, tells two values apart (`eq=False`): adoption asks whether
    memory still holds the very value a change was built on."""

    record: RoomRecord
    variant: Variant
    options: RoomOptions
    status: RoomStatus = LOBBY
    host_id: str = ""
    members: Mapping[str, Member] = field(default_factory=dict)
    games: Mapping[str, PlayerGame] = field(default_factory=dict)
    """The race's games by player, dealt when it begins."""
    starts_at: datetime | None = None
    ends_at: datetime | None = None
    seq: int = 0
    tag: str = ""
    """The room's version in the store (`RoomVersion`): each membership or status change is written over the
    version it was built on, which is how processes sharing a database agree on one history of the room."""
    tally: Tally | None = None
    """The race-again series this room belongs to (None: a room of its own, so far)."""
    final_standings: tuple[Standing, ...] | None = None
    """The standings another process finished the race with (its `race_over`, built from the store's games):
    this copy's games of that process's players may have ended here only as `timeout`."""
    next_code: str | None = None
    """The series' next room, once a member opened it (`core.competition.series`)."""
    stored_next_code: str | None = None
    """The next room the store is known to point to (read by net before `race_again`, or written here): what
    the pointer's compare-and-set expects. `next_code` may be newer (an invitation heard from another process)
    and is never the expected value: a press that does not find that room here goes back to the store."""
    uncounted: frozenset[str] = frozenset()
    """The players of this finished race whose result counts for nothing (`Tally.with_result`), as the store said
    when it was read before `race_again`."""
    keeps_time: bool = True
    """This process started the countdown (or is alone): it begins and ends the race on time. A process that
    learned of the room from another one does so only after a grace period (its keeper may have died)."""

    @classmethod
    def new(cls, record: RoomRecord, variant: Variant, options: RoomOptions) -> Room:
        tally = Tally.from_json(record.series) if record.series is not None else None
        return cls(record, variant, options, host_id=record.host_id, tally=tally)

    # ------------------------------------------------------------------ new values (here only)

    def changed(self, **fields: Any) -> tuple[Room, RoomVersion]:
        """The room at its next version, with `fields` changed: the value and the version a record carries."""
        version = RoomVersion(self.seq + 1, secrets.token_hex(6), self.tag)
        return replace(self, seq=version.seq, tag=version.tag, **fields), version

    def at_same_version(self, **fields: Any) -> Room:
        """The room with `fields` changed at the same version: what this process knows beyond the store's
        version (who is connected elsewhere, the series' pointer, a race another process finished)."""
        return replace(self, **fields)

    def at_version(self, version: RoomVersion, **fields: Any) -> Room:
        """The room as another process's change left it (its event carries the version)."""
        return replace(self, seq=version.seq, tag=version.tag, **fields)

    # ------------------------------------------------------------------ its life: opening and seats

    @classmethod
    def open(cls, plan: RoomPlan, room_id: str, code: str, host: Member, now: datetime) -> RoomStep:
        """A new room with `host` as its host and first member."""
        record = RoomRecord(
            room_id=room_id,
            code=code,
            variant=plan.variant.id,
            seed=plan.seed,
            host_id=host.player_id,
            options=plan.options.model_dump(mode="json"),
            created_at=now,
            seed_chosen=plan.seed_chosen,
            series=plan.tally.to_json() if plan.tally is not None else None,
            quick=plan.quick,
            seed_sealed_until=plan.seed_sealed_until,
        )
        room, version = cls.new(record, plan.variant, plan.options).changed(members={host.player_id: host})
        joined = MemberRecord(room_id, host.player_id, host.role, now, version)
        return RoomStep(room, version, (record, RoomStatusRecord(room_id, LOBBY, now), joined))

    def seat(self, member: Member, now: datetime) -> RoomStep:
        """The member takes a seat (the caller checked that the room takes them)."""
        room, version = self.changed(members={**self.members, member.player_id: member})
        return RoomStep(room, version, (MemberRecord(room.room_id, member.player_id, member.role, now, version),))

    def unseat(self, player_id: str) -> RoomStep:
        """The member leaves; the host's seat passes to the next player (to anyone left, if no player is)."""
        members = self._without(player_id)
        host = self.host_id
        if host == player_id:
            successors = [member for member in members.values() if member.role == PLAYER] or list(members.values())
            if successors:
                host = successors[0].player_id
        room, version = self.changed(members=members, host_id=host)
        return RoomStep(room, version, (MemberLeftRecord(room.room_id, player_id, host, version),))

    def closes_when_empty(self) -> bool:
        """Nobody is left and no race is on or over (a finished race goes with the sweep): the room closes."""
        return not self.members and self.status not in (RUNNING, FINISHED)

    def close(self, now: datetime) -> RoomStep:
        """The room closes (it leaves memory; the store keeps it as `closed`)."""
        room, version = self.changed()
        return RoomStep(room, version, (RoomStatusRecord(room.room_id, CLOSED, now, version),))

    # ------------------------------------------------------------------ its life: the race

    def count_down(self, starts_at: datetime) -> RoomStep:
        """The race starts at `starts_at` (the host's start, a quick race with enough players in, a tournament's)."""
        room, version = self.changed(status=COUNTDOWN, starts_at=starts_at, keeps_time=True)
        return RoomStep(room, version, (RoomStatusRecord(room.room_id, COUNTDOWN, starts_at, version),))

    def stop_countdown(self, now: datetime) -> RoomStep:
        """Back to the lobby before the start (a quick race left below its minimum)."""
        room, version = self.changed(status=LOBBY, starts_at=None)
        return RoomStep(room, version, (RoomStatusRecord(room.room_id, LOBBY, now, version),))

    def begin(self, games: Mapping[str, PlayerGame]) -> RoomStep:
        """The countdown is over: every player's game of the deal, dealt and started at its end."""
        assert self.starts_at is not None
        room, version = self.changed(status=RUNNING, games=games, ends_at=self.limit_from(self.starts_at))
        status = RoomStatusRecord(room.room_id, RUNNING, self.starts_at, version)
        return RoomStep(room, version, (status, *(game.record for game in games.values())))

    def finish(self, standings: tuple[Standing, ...], now: datetime) -> RoomStep:
        """Everyone is done or time is up: the race is over with these standings, at `now`."""
        room, version = self.changed(status=FINISHED, final_standings=standings)
        return RoomStep(room, version, (RoomStatusRecord(room.room_id, FINISHED, now, version),))

    def finished_elsewhere(self, standings: tuple[Standing, ...] | None, version: RoomVersion | None = None) -> Room:
        """Another process finished the race (at `version`, when its event said so), with its standings if told."""
        room = self.at_version(version) if version is not None else self
        return room.at_same_version(status=FINISHED, final_standings=standings or self.final_standings)

    # ------------------------------------------------------------------ its life: the series

    def point_next(self, code: str) -> tuple[Room, NextRoomRecord]:
        """The series' next room is `code`, written over the pointer the store was known to hold (never over one only
        heard of): the room at the same version (the pointer is a compare-and-set of its own) and the record."""
        record = NextRoomRecord(self.record.room_id, code, self.stored_next_code)
        return self.at_same_version(next_code=code, stored_next_code=code), record

    def pointing_as_stored(self, next_code: str | None, uncounted: frozenset[str] = frozenset()) -> Room:
        """The store's pointer to the series' next room (None: none yet), and the players of this finished race
        whose result counts for nothing (marked, or their game void), read before `race_again`."""
        return self.at_same_version(stored_next_code=next_code, next_code=next_code or self.next_code,
                                    uncounted=uncounted)  # fmt: skip

    # ------------------------------------------------------------------ what other processes and the store say

    def heard(self, message: Message, version: RoomVersion | None, connected_here: Callable[[str], bool]) -> (
        Room | None
    ):
        """The room as another process's event (stored already) leaves it, at the event's version; None: the event
        needs what only the store has (a race dealt elsewhere): re-read the room. `connected_here`: a member whose
        connection is on this process (not `elsewhere`). A race finished elsewhere is `finished_elsewhere`."""
        room = self.at_version(version) if version is not None else self
        if isinstance(message, MemberJoinedMessage):
            new = message.member
            joined = Member(new.player_id, new.name, new.bot, new.role, elsewhere=new.connected)
            return room.at_same_version(members={**self.members, new.player_id: joined})
        if isinstance(message, MemberLeftMessage):
            return room.at_same_version(members=self._without(message.player_id), host_id=message.host_id)
        if isinstance(message, MemberConnectionMessage):
            member = self.members.get(message.player_id)
            if member is None:
                return room
            moved = replace(member, elsewhere=message.connected)
            return room.at_same_version(members={**self.members, member.player_id: moved})
        if isinstance(message, CountdownMessage):
            return room.at_same_version(status=COUNTDOWN, starts_at=message.starts_at, keeps_time=False)
        if isinstance(message, RoomMessage) and message.room is not None:
            view = message.room
            if view.status in (RUNNING, FINISHED) and not self.games:
                return None  # the games were dealt by another process: they are in the store
            members = {
                member.player_id: Member(member.player_id, member.name, member.bot, member.role,
                                         elsewhere=member.connected and not connected_here(member.player_id))
                for member in view.members
            }  # fmt: skip
            return room.at_same_version(status=view.status, host_id=view.host_id, starts_at=view.starts_at,
                            ends_at=view.ends_at, members=members)  # fmt: skip
        if isinstance(message, SeriesInviteMessage):
            return room.at_same_version(next_code=message.next_code)
        return room

    @classmethod
    def from_store(cls, stored: StoredRoom, members: Mapping[str, Member], games: Mapping[str, PlayerGame]) -> Room:
        """A room brought back by replay (after a restart, or from another process): another process (alive or not)
        started it, so its timers wait out `TAKEOVER_GRACE` here."""
        room = cls.new(stored.room, variant_by_id(stored.room.variant), RoomOptions.model_validate(stored.room.options))
        return room.as_stored(stored, members).at_same_version(keeps_time=False, games=games)

    def as_stored(self, stored: StoredRoom, members: Mapping[str, Member]) -> Room:
        """The room with its host, status, version, start and members as the store has them (a started race's end
        follows from its start); a pointer to the series' next room this copy knows and the store does not yet,
        kept."""
        assert stored.status != CLOSED, "a closed room is never brought back"
        started = stored.started_at if stored.status in (RUNNING, FINISHED) else None
        return self.at_same_version(
            status=stored.status,
            host_id=stored.room.host_id,
            seq=stored.seq,
            tag=stored.tag,
            starts_at=stored.started_at,
            ends_at=self.limit_from(started),
            next_code=stored.next_code or self.next_code,  # one heard of from another process's invitation
            stored_next_code=stored.next_code or self.stored_next_code,
            members=members,
        )

    def refreshed(self, games: Mapping[str, PlayerGame], members: Mapping[str, Member]) -> Room:
        """The race's games (and their players' seats) as re-read from the store, at the same version."""
        return self.at_same_version(games=games, members=members)

    def _without(self, player_id: str) -> dict[str, Member]:
        return {key: member for key, member in self.members.items() if key != player_id}

    # ------------------------------------------------------------------ when its timer rings

    def deadline(self, shared: bool) -> datetime | None:
        """When the room's timer rings: a countdown's end or a running race's time limit, later by
        `TAKEOVER_GRACE` for a shared room this process did not start (`shared`: other processes hold it too);
        None when it has neither."""
        if self.status == COUNTDOWN:
            moment = self.starts_at
        elif self.status == RUNNING:
            moment = self.ends_at
        else:
            return None
        if moment is None:
            return None
        return moment + TAKEOVER_GRACE if shared and not self.keeps_time else moment

    def limit_from(self, started_at: datetime | None) -> datetime | None:
        """When a race begun at `started_at` runs out of time (None: no limit)."""
        limit = self.options.time_limit_s
        return started_at + timedelta(seconds=limit) if limit and started_at is not None else None

    # ------------------------------------------------------------------ what a value says

    @property
    def code(self) -> str:
        return self.record.code

    @property
    def room_id(self) -> str:
        return self.record.room_id

    def version(self) -> tuple[int, str]:
        return self.seq, self.tag

    @property
    def undo_allowed(self) -> bool:
        chosen = self.options.undo_allowed
        return self.variant.undo_by_default if chosen is None else chosen

    @property
    def seed_public(self) -> bool:
        """Cell Eleven's seed would reveal every face-down card: it stays secret until the race is over. A cup's
        heat never shows its seed: the cup reveals its deals once it is over (`seed_sealed_until`)."""
        if self.record.seed_sealed_until is not None:
            return False
        return self.status == FINISHED or not self.variant.face_down

    def series_view(self) -> SeriesView | None:
        """The series' tally as the room shows it: with this race's result once it is over."""
        if self.tally is None and self.next_code is None:
            return None
        tally = self.tally or Tally.first(self.record.room_id)
        return (tally.with_result(self.standings(), self.uncounted) if self.status == FINISHED else tally).view()

    def players(self) -> list[Member]:
        return [member for member in self.members.values() if member.role == PLAYER]

    def is_full(self) -> bool:
        return len(self.players()) >= self.options.max_players

    def everyone_done(self) -> bool:
        return all(not game.running for game in self.games.values())

    def standings(self, ended: Mapping[str, Finish] = NO_FINISHES) -> list[Standing]:
        """The race's order; `ended`: the finishes of games a change being made ends (by game id)."""
        if self.final_standings is not None:
            return list(self.final_standings)
        rows = []
        for game in self.games.values():
            finish = game.finish or ended.get(game.game_id)
            assert finish is not None
            counts = game.counts(finish=finish)
            rows.append(
                Standing(
                    rank=0,
                    player_id=game.player_id,
                    name=game.name,
                    game_id=game.game_id,
                    outcome=finish.outcome,
                    moves=counts.moves,
                    single_card_moves=counts.single_card_moves,
                    cards_on_foundations=counts.cards_home,
                    time_ms=counts.time_ms,
                )
            )
        return rank(rows, self.options.ranking, self.starts_at)

    def progress(self, now: datetime) -> list[Progress]:
        if self.games:
            return [game.progress(now) for game in self.games.values()]
        return [
            Progress(
                player_id=member.player_id,
                name=member.name,
                status="waiting",
                cards_on_foundations=0,
                moves=0,
                time_ms=None,
            )
            for member in self.players()
        ]

    def view(self, now: datetime, connected: Callable[[str], bool]) -> RoomView:
        return RoomView(
            code=self.code,
            variant=self.variant.id,
            seed=self.record.seed if self.seed_public else None,
            host_id=self.host_id,
            options=self.options,
            status=self.status,
            members=[
                RoomMember(
                    player_id=member.player_id,
                    name=member.name,
                    bot=member.bot,
                    role=member.role,
                    connected=member.elsewhere or connected(member.player_id),
                )
                for member in self.members.values()
            ],
            starts_at=self.starts_at,
            ends_at=self.ends_at,
            progress=self.progress(now),
            host_chose_deal=self.record.seed_chosen,
            next_code=self.next_code,
            series=self.series_view(),
            quick=self.record.quick,
        )


_MAPPINGS = ("members", "games")


def merged(before: Room, after: Room, current: Room) -> Room:
    """`current` (memory moved on since `before`) with what a stored change from `before` to `after` changed: a
    three-way merge, field by field; member by member and game by game in the mappings."""
    changes: dict[str, object] = {}
    for field_ in fields(Room):
        name = field_.name
        old, new = getattr(before, name), getattr(after, name)
        if name in _MAPPINGS:
            if old is not new:
                changes[name] = _merged_mapping(old, new, getattr(current, name))
        elif old is not new and old != new:
            changes[name] = new
    return current.at_same_version(**changes)


def _merged_mapping(old: Mapping[str, object], new: Mapping[str, object], current: Mapping[str, object]) -> (
    dict[str, object]
):
    result = dict(current)
    for key in old.keys() | new.keys():
        if old.get(key) is new.get(key):
            continue
        if key in new:
            result[key] = new[key]
        else:
            result.pop(key, None)
    return result
