"""A room as a value: members, the deal every player races on, and the race's lifecycle.

`lobby` -> `countdown` (the host started; everyone sees `starts_at`) -> `running` (every player has a copy
of the deal, all started at the same instant) -> `finished` (everyone is done or the time limit passed).

A `Room` never changes: a change of a room is a new `Room` (`changed`, `with_members`, ...), proposed in a
request's `Draft`, written to the store, and adopted in memory only once the store has it (`live.changes`).
So nothing is ever put back: a refused change was never in memory. Its mappings (`members`, `games`) are
fresh dicts for every new value and are never written to afterwards; the games in them are the players'
running games (`PlayerGame`), which change move by move on their own (the engine's push/pop).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from freecell_arena.core.live.player_game import Finish, PlayerGame
from freecell_arena.core.ports.records import RoomRecord, RoomVersion
from freecell_arena.core.records.ranking import rank
from freecell_arena.core.records.series_tally import Tally
from freecell_arena.engine import Variant
from freecell_arena.protocol.rooms import Progress, RoomMember, RoomOptions, RoomView, SeriesView, Standing
from freecell_arena.protocol.vocabulary import COUNTDOWN, FINISHED, LOBBY, PLAYER, RUNNING, MemberRole, RoomStatus

NO_FINISHES: Mapping[str, Finish] = {}


@dataclass(frozen=True, slots=True)
class Member:
    player_id: str
    name: str
    bot: bool
    role: MemberRole
    elsewhere: bool = False
    """Connected to another process that shares this room (told by its room events)."""


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
    keeps_time: bool = True
    """This process started the countdown (or is alone): it begins and ends the race on time. A process that
    learned of the room from another one does so only after a grace period (its keeper may have died)."""

    @classmethod
    def new(cls, record: RoomRecord, variant: Variant, options: RoomOptions) -> Room:
        tally = Tally.from_json(record.series) if record.series is not None else None
        return cls(record, variant, options, host_id=record.host_id, tally=tally)

    # ------------------------------------------------------------------ new values

    def changed(self, **fields: Any) -> tuple[Room, RoomVersion]:
        """The room at its next version, with `fields` changed: the value and the version a record carries."""
        version = RoomVersion(self.seq + 1, secrets.token_hex(6), self.tag)
        return replace(self, seq=version.seq, tag=version.tag, **fields), version

    def but(self, **fields: Any) -> Room:
        """The room with `fields` changed at the same version: what this process knows beyond the store's
        version (who is connected elsewhere, the series' pointer, a race another process finished)."""
        return replace(self, **fields)

    def at_version(self, version: RoomVersion, **fields: Any) -> Room:
        """The room as another process's change left it (its event carries the version)."""
        return replace(self, seq=version.seq, tag=version.tag, **fields)

    def with_member(self, member: Member) -> dict[str, Member]:
        return {**self.members, member.player_id: member}

    def without_member(self, player_id: str) -> dict[str, Member]:
        return {key: member for key, member in self.members.items() if key != player_id}

    def counting_down(self, starts_at: datetime, **fields: Any) -> tuple[Room, RoomVersion]:
        return self.changed(status=COUNTDOWN, starts_at=starts_at, keeps_time=True, **fields)

    def begun(self, games: Mapping[str, PlayerGame]) -> tuple[Room, RoomVersion]:
        assert self.starts_at is not None
        return self.changed(status=RUNNING, games=games, ends_at=self.limit_from(self.starts_at))

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
        return (tally.with_result(self.standings()) if self.status == FINISHED else tally).view()

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
