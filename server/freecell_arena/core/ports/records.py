"""The boundary between the game logic and durable storage.

Core logic never imports SQLAlchemy: it describes what must become durable as plain records and hands
them to a `Store`. The SQLAlchemy adapter in `server/freecell_arena/store` implements this protocol; its group-commit
writer batches the records of many players into one transaction, and only then are the moves
acknowledged. Everything is written as records in submission order, so a game row always precedes
its moves and a result always follows them.

A game is `(variant, seed, actions)`: the store keeps seeds and action logs, never boards. A unique
(game_id, index) key on moves makes a stale process's write fail instead of forking a game.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Protocol

from freecell_arena.core.ports.move_record import MoveRecord as MoveRecord  # re-exported: a record like the rest
from freecell_arena.protocol.vocabulary import MemberRole, Outcome, StoredRoomStatus


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """An identity. Only the SHA-256 of the secret token is ever stored."""

    player_id: str
    display_name: str
    token_hash: str
    bot: bool
    created_at: datetime


@dataclass(frozen=True, slots=True)
class RoomRecord:
    """A room as created; `options` is the room's option model dumped to JSON-able data."""

    room_id: str
    code: str
    variant: str
    seed: int
    host_id: str
    options: dict[str, Any]
    created_at: datetime
    seed_chosen: bool = False
    """The host chose the deal (a seed or deal number) instead of letting the server draw one."""
    series: dict[str, Any] | None = None
    """A race-again series' room: the tally before it (`core.records.series_tally.Tally.to_json`)."""
    quick: bool = False
    """A public quick-race room (`core.competition.quick_race`): it starts by itself."""
    seed_sealed_until: datetime | None = None
    """A cup's heat: its seed, and every replay and review of it, leave the server only from then (the cup's end:
    its deals are committed and revealed like a daily's), whatever the variant."""


@dataclass(frozen=True, slots=True)
class NextRoomRecord:
    """A finished room points to its series' next room: written only over the pointer this process knew
    (`previous`: None, or a next room whose lobby everyone left), a compare-and-set, so two members pressing
    "race again" at once on two processes open one next room."""

    room_id: str
    next_code: str
    previous: str | None = None


@dataclass(frozen=True, slots=True)
class QuickRoomRecord:
    """The variant's filling quick-race room is now `code`: written only over the one this process knew
    (`previous`, None when it knew none), so the processes of a cluster agree on one filling room a variant."""

    variant: str
    code: str
    previous: str | None


@dataclass(frozen=True, slots=True)
class RoomStatusRecord:
    """A room's lifecycle step: `lobby` -> `countdown` -> `running` -> `finished` (or `closed`: a lobby
    everyone left while no process held it). `at` is when the step happens: for `countdown` the instant the
    race will start, so a restarted process resumes the countdown where it was."""

    room_id: str
    status: StoredRoomStatus
    at: datetime
    version: RoomVersion | None = None
    """The room's version after this step (see `RoomVersion`); None writes the status unconditionally."""


@dataclass(frozen=True, slots=True)
class RoomVersion:
    """A room's version after a change of its membership or status.

    The store writes a change only over the version it was built on (`previous`), a compare-and-set: of two
    processes changing the same room from the same version exactly one succeeds, and the other's change is
    refused (it re-reads the room). A random `tag` names each version, not just its number: a change built on
    a change that then failed carries that failed version's tag and fails too, even when another process has
    meanwhile written a version with the same number. `seq` orders versions, so a process that receives the
    room's events can tell a missed one (a gap) from a repeated one.
    """

    seq: int
    tag: str
    previous: str


@dataclass(frozen=True, slots=True)
class MemberRecord:
    """A player or spectator joined a room (a compare-and-set on the room's version)."""

    room_id: str
    player_id: str
    role: MemberRole
    at: datetime
    version: RoomVersion


@dataclass(frozen=True, slots=True)
class MemberLeftRecord:
    """A member left a room; `host_id` is the room's host afterwards (the host may have been the one leaving)."""

    room_id: str
    player_id: str
    host_id: str
    version: RoomVersion


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One player's copy of a deal. `rules_version` is the engine version that validates it."""

    game_id: str
    room_id: str | None
    player_id: str
    variant: str
    seed: int
    rules_version: str
    autoplay: bool
    undo_allowed: bool
    ranked: bool
    started_at: datetime
    board: str | None = None
    """The leaderboard a win of this game counts on (`freecell_arena.core.records.leaderboard`); None when unranked."""
    daily_day: date | None = None
    """The day, for a daily challenge game (a game without a room)."""


@dataclass(frozen=True, slots=True)
class ResultRecord:
    """How a game ended."""

    game_id: str
    outcome: Outcome
    player_moves: int
    single_card_moves: int
    cards_on_foundations: int
    time_ms: int
    finished_at: datetime
    claim: BoardClaim | None = None
    """Set on a won ranked game: in the same transaction, the store keeps the player's best on that board."""
    flag: str | None = None
    """Why a human's ranked win is implausible (`core.records.fair_play`): the game then counts on the bots' board,
    which its claim names, and the store moves the game's `board` there too."""


@dataclass(frozen=True, slots=True)
class BoardClaim:
    """A won ranked game's place on its board; the store upserts the entry only when it beats the player's."""

    board: str
    player_id: str


@dataclass(frozen=True, slots=True)
class DailyRecord:
    """A day's deal of one variant, certified solvable; `par` = the solver's player moves (autoplay on).

    Written once (insert-if-absent), so every process sharing the database plays the same deal.
    """

    variant: str
    day: date
    seed: int
    candidate: int
    nonce: str
    commitment: str
    par: int
    solution: tuple[str, ...]
    rules_version: str
    prepared_at: datetime



@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A tournament as created (`core.competition.tournaments`): its rules never change afterwards. A scheduled
    one carries its `schedule_key` (unique: processes creating the same occurrence ahead store it once)."""

    tournament_id: str
    name: str
    kind: str
    variant: str
    rules: dict[str, Any]
    starts_at: datetime
    ends_at: datetime
    created_at: datetime
    created_by: str | None = None
    schedule_key: str | None = None
    link_code: str | None = None
    commitment: str | None = None
    """A cup's commitment to its deals (revealed once it is over)."""


@dataclass(frozen=True, slots=True)
class EntryRecord:
    """A player entered: the tournament's count of entrants goes up by one while it is below `cap` (one statement:
    the cap holds across processes, first come first served, and players entering at once on several processes
    never refuse each other), and the entry's row is inserted (entering twice breaks its primary key)."""

    tournament_id: str
    player_id: str
    name: str
    bot: bool
    at: datetime
    cap: int


@dataclass(frozen=True, slots=True)
class EntryStatusRecord:
    """An entrant paused, came back, or withdrew: the entry's `version`, written only over `version - 1` (an
    entry's changes are its entrant's, one at a time; a copy of it read before one of them is older by its version)."""

    tournament_id: str
    player_id: str
    status: str
    at: datetime
    version: int


@dataclass(frozen=True, slots=True)
class TournamentWaveRecord:
    """A tournament's pairing (arena) or round start (cup) number `wave`, written only over `wave - 1`: of two
    processes pairing the same free entrants at once, exactly one stores its races."""

    tournament_id: str
    wave: int


@dataclass(frozen=True, slots=True)
class TournamentRaceRecord:
    """A race of a tournament: its room (an ordinary room, stored before this), the wave and heat it belongs to."""

    tournament_id: str
    room_id: str
    code: str
    wave: int
    heat: int
    formed_at: datetime


@dataclass(frozen=True, slots=True)
class BerserkRecord:
    """An entrant berserked in a race's countdown (it counts only if `at` is before the race began)."""

    tournament_id: str
    room_id: str
    player_id: str
    at: datetime


@dataclass(frozen=True, slots=True)
class StandingsRecord:
    """The table as computed from the stored results, stored over the version `seq - 1` (the figure
    `freecell-arena audit` recomputes); `final` once the tournament is over, with a cup's revealed deals."""

    tournament_id: str
    seq: int
    standings: list[dict[str, Any]]
    at: datetime
    final: bool = False
    reveal: dict[str, Any] | None = None


Record = (
    PlayerRecord
    | RoomRecord
    | RoomStatusRecord
    | MemberRecord
    | MemberLeftRecord
    | GameRecord
    | MoveRecord
    | ResultRecord
    | NextRoomRecord
    | QuickRoomRecord
    | TournamentRecord
    | EntryRecord
    | EntryStatusRecord
    | TournamentWaveRecord
    | TournamentRaceRecord
    | BerserkRecord
    | StandingsRecord
)
MEMBERSHIP_RECORDS = (MemberRecord, MemberLeftRecord)
POINTER_RECORDS = (NextRoomRecord, QuickRoomRecord, EntryRecord, TournamentWaveRecord, StandingsRecord)
"""Compare-and-sets on where players go next: refused when another process moved the pointer first."""


def changes_room(record: Record) -> bool:
    """Whether the record is a compare-and-set another process may win (a room's next version, or a pointer to
    the next room): refused, the request is handled again over what the store has."""
    if isinstance(record, RoomStatusRecord):
        return record.version is not None
    return isinstance(record, MEMBERSHIP_RECORDS + POINTER_RECORDS)


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as read back: enough to rebuild it by replay."""

    game: GameRecord
    moves: list[MoveRecord] = field(default_factory=list)
    result: ResultRecord | None = None


@dataclass(frozen=True, slots=True)
class StoredMember:
    player_id: str
    role: MemberRole
    joined_at: datetime


@dataclass(frozen=True, slots=True)
class StoredRoom:
    """A room as read back: its current status (and host, in `room.host_id`), its members, its games, and its
    version (`MemberRecord.seq`). `started_at` is the countdown's end while the status is `countdown`."""

    room: RoomRecord
    status: StoredRoomStatus
    started_at: datetime | None
    finished_at: datetime | None
    game_ids: list[str] = field(default_factory=list)
    members: list[StoredMember] = field(default_factory=list)
    seq: int = 0
    tag: str = ""
    next_code: str | None = None
    """The series' next room (`NextRoomRecord`)."""


CommitObserver = Callable[[int, float, bool], None]
"""Told (records, seconds, committed) after every batch transaction."""


class RecordWriter(Protocol):
    """Where the server hands the records of its effects: durable once `submit_many` returns, batched with the
    records of other players into few transactions (`freecell_arena.store.GroupCommitWriter`)."""

    last_failure_at: float | None
    """time.monotonic() of the first failed transaction since the last one that committed (readiness)."""
    on_commit: CommitObserver | None

    def submit_many(self, records: Sequence[Record]) -> Awaitable[None]:
        """Durable once awaited, in order, in one transaction (never split); raises if refused."""

    async def flush(self) -> None:
        """Wait until everything submitted so far is written."""

    async def close(self) -> None: ...


class Store(Protocol):
    """Durable storage as the core sees it. Implemented by `freecell_arena.store`."""

    def write(self, records: Sequence[Record]) -> Awaitable[None]:
        """Make `records` durable in one transaction, in order, once awaited; raise if any is refused."""

    async def player_by_token_hash(self, token_hash: str) -> PlayerRecord | None: ...

    async def player(self, player_id: str) -> PlayerRecord | None: ...

    async def game(self, game_id: str) -> StoredGame | None: ...

    async def unfinished_games(self, player_id: str) -> list[StoredGame]: ...

    async def room_by_code(self, code: str) -> StoredRoom | None: ...

    async def room(self, room_id: str) -> StoredRoom | None:
        """The room of a stored game (added for reconnect after a restart; `GameRecord` names the room by id)."""
        ...

    async def uncounted_in_race(self, room_id: str) -> frozenset[str]:
        """The players of a room's race whose result counts for nothing now: marked, or their game in it void (a
        race-again series' tally leaves them out, as the ratings do)."""
        ...

    async def close(self) -> None: ...
