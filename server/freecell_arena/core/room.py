"""A room: members, the deal every player races on, and the race's lifecycle.

`lobby` -> `countdown` (the host started; everyone sees `starts_at`) -> `running` (every player has a copy
of the deal, all started at the same instant) -> `finished` (everyone is done or the time limit passed).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from freecell_arena.core.player_game import PlayerGame
from freecell_arena.core.ports import RoomRecord, RoomVersion
from freecell_arena.core.ranking import rank
from freecell_arena.core.series_tally import Tally
from freecell_arena.engine import Variant
from freecell_arena.protocol.messages import Progress, RoomMember, RoomOptions, RoomView, SeriesView, Standing
from freecell_arena.protocol.vocabulary import COUNTDOWN, FINISHED, LOBBY, PLAYER, RUNNING, MemberRole, RoomStatus


@dataclass
class Member:
    player_id: str
    name: str
    bot: bool
    role: MemberRole
    elsewhere: bool = False
    """Connected to another process that shares this room (told by its room events)."""


class Room:
    def __init__(self, record: RoomRecord, variant: Variant, options: RoomOptions) -> None:
        self.record = record
        self.variant = variant
        self.options = options
        self.status: RoomStatus = LOBBY
        self.host_id = record.host_id
        self.members: dict[str, Member] = {}
        self.games: dict[str, PlayerGame] = {}
        self.starts_at: datetime | None = None
        self.ends_at: datetime | None = None
        self.seq = 0
        self.tag = ""
        """The room's version in the store (`RoomVersion`): each membership or status change is written over the
        version it was built on, which is how processes sharing a database agree on one history of the room."""
        self.tally = Tally.from_json(record.series) if record.series is not None else None
        """The race-again series this room belongs to (None: a room of its own, so far)."""
        self.final_standings: list[Standing] | None = None
        """The standings another process finished the race with (its `race_over`, built from the store's games):
        this copy's games of that process's players may have ended here only as `timeout`."""
        self.next_code: str | None = None
        """The series' next room, once a member opened it (`core.series`)."""
        self.stored_next_code: str | None = None
        """The next room the store is known to point to (read by net before `race_again`, or written here): what
        the pointer's compare-and-set expects. `next_code` may be newer (an invitation heard from another process)
        and is never the expected value: a press that does not find that room here goes back to the store."""
        self.store_reads = 0
        """How many times this copy was replaced by the store's (`rebuild.take_stored_status`). A change of ours
        rolled back after its copy was re-read (another process's change won, and its event or a resync brought
        it here while ours was being written) puts nothing back: the copy holds the store's room since, not ours."""
        self.keeps_time = True
        """This process started the countdown (or is alone): it begins and ends the race on time. A process that
        learned of the room from another one does so only after a grace period (its keeper may have died)."""

    def next_version(self) -> RoomVersion:
        """Move to a new version for a change (`undo_version` goes back when the change is rolled back)."""
        version = RoomVersion(self.seq + 1, secrets.token_hex(6), self.tag)
        self.seq, self.tag = version.seq, version.tag
        return version

    def unread_since(self) -> Callable[[], bool]:
        """For a rollback, taken when the change is made: whether the copy was not re-read from the store since
        (`store_reads`), so what the change replaced can be put back. Re-read, it holds the store's room: another
        process's change won, and its event (a gap) or a resync brought it here while ours was being written."""
        reads = self.store_reads
        return lambda: self.store_reads == reads

    def undo_version(self, version: RoomVersion | None) -> None:
        if version is not None and (self.seq, self.tag) == (version.seq, version.tag):
            self.seq, self.tag = version.seq - 1, version.previous

    def at_version(self, version: RoomVersion) -> None:
        self.seq, self.tag = version.seq, version.tag

    @property
    def code(self) -> str:
        return self.record.code

    @property
    def undo_allowed(self) -> bool:
        chosen = self.options.undo_allowed
        return self.variant.undo_by_default if chosen is None else chosen

    @property
    def seed_public(self) -> bool:
        """Cell Eleven's seed would reveal every face-down card: it stays secret until the race is over."""
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

    def schedule(self, now: datetime) -> datetime:
        self.status = COUNTDOWN
        self.starts_at = now + timedelta(seconds=self.options.countdown_s)
        return self.starts_at

    def begin(self) -> None:
        assert self.starts_at is not None
        self.status = RUNNING
        limit = self.options.time_limit_s
        self.ends_at = self.starts_at + timedelta(seconds=limit) if limit else None

    def everyone_done(self) -> bool:
        return all(not game.running for game in self.games.values())

    def standings(self) -> list[Standing]:
        if self.final_standings is not None:
            return self.final_standings
        rows = []
        for game in self.games.values():
            assert game.finish is not None
            counts = game.counts()
            rows.append(
                Standing(
                    rank=0,
                    player_id=game.player_id,
                    name=game.name,
                    game_id=game.game_id,
                    outcome=game.finish.outcome,
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
