"""What each record becomes in the database, stated once: the table every write path reads.

A batch is written through SQLAlchemy (`SqlStore.write`) or by a direct writer on the backend's own driver
(`SqliteWriter`, `PostgresWriter`, whose statements `statements.StatementBuilder` builds). `RECORD_WRITES` holds
one entry per record type: a plain insert (`Inserted`: a table and the record's row), or the record's own
writes in order (`Changed`: the compare-and-sets of `row_updates`, a member's row, a pointer, a leaderboard
claim) and whether the direct writers take it. `RECORD_WRITES.writes(records)` turns a batch into these values
in order, and each path only turns a value into its own statement: the paths cannot drift apart, and a new
record type is one entry here (tests/store/test_direct_writers.py checks every `Record` has one).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from itertools import groupby
from operator import attrgetter
from typing import Any, Generic, TypeVar

from sqlalchemy import Table

from freecell_arena.core.ports.records import (
    BerserkRecord,
    EntryRecord,
    EntryStatusRecord,
    GameRecord,
    MemberLeftRecord,
    MemberRecord,
    MoveRecord,
    NextRoomRecord,
    PlayerRecord,
    QuickRoomRecord,
    Record,
    ResultRecord,
    RoomRecord,
    RoomStatusRecord,
    StandingsRecord,
    TournamentRaceRecord,
    TournamentRecord,
    TournamentWaveRecord,
)
from freecell_arena.store.errors import RecordRefusedError
from freecell_arena.store.models import (
    Move,
    Player,
    RoomMember,
    Tournament,
    TournamentBerserk,
    TournamentEntry,
    TournamentRace,
    table_of,
)
from freecell_arena.store.row_updates import (
    LOBBY,
    CountUp,
    RowUpdate,
    games,
    next_room_update,
    quick_room_update,
    quick_rooms,
    result_update,
    room_status_update,
    room_version_update,
    rooms,
)

moves = table_of(Move)
players = table_of(Player)
room_members = table_of(RoomMember)
tournaments = table_of(Tournament)
tournament_entries = table_of(TournamentEntry)
tournament_races = table_of(TournamentRace)
tournament_berserks = table_of(TournamentBerserk)

R = TypeVar("R", bound=Record)


# --- the writes: what each path turns into its own statements -------------------------------------------


@dataclass(slots=True)  # not frozen: made for every batch of moves, and a frozen one's __init__ costs twice as much
class Inserts:
    """Rows into `table` as one executemany; every row has the same columns."""

    table: Table
    rows: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class RowDelete:
    """Delete the rows of `table` whose columns equal `where`."""

    table: Table
    where: dict[str, Any]


@dataclass(frozen=True, slots=True)
class LeaderboardClaim:
    """A won ranked game's place on its board (`leaderboards.claim`): written through SQLAlchemy only, with the
    board's bucket counts in the same transaction."""

    result: ResultRecord


Write = Inserts | RowUpdate | CountUp | RowDelete | LeaderboardClaim


# --- the entries: how a record type is written ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Inserted(Generic[R]):
    """A plain insert: a run of consecutive records of the type is one `Inserts`, one executemany (what makes a
    batch of a thousand moves cheap)."""

    record_type: type[R]
    table: Table
    row: Callable[[R], dict[str, Any]]
    """The record's columns, the same keys for every record (a direct writer compiles the insert once for them)."""
    always_direct = True

    def add_writes(self, run: Iterable[R], writes: list[Write]) -> None:
        row = self.row
        writes.append(Inserts(self.table, [row(record) for record in run]))

    def direct(self, _run: Iterable[R]) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class Changed(Generic[R]):
    """A record written as its own writes, in order: a compare-and-set and what goes with it."""

    record_type: type[R]
    changes: Callable[[R], tuple[Write, ...]]
    takes_direct: bool | Callable[[R], bool] = True
    """Whether the direct writers take the record; when not, its whole batch goes through SQLAlchemy."""

    @property
    def always_direct(self) -> bool:
        return self.takes_direct is True

    def add_writes(self, run: Iterable[R], writes: list[Write]) -> None:
        changes = self.changes
        for record in run:
            writes.extend(changes(record))

    def direct(self, run: Iterable[R]) -> bool:
        takes = self.takes_direct
        return takes if isinstance(takes, bool) else all(map(takes, run))


class RecordWrites:
    """The entries by record type; a batch's writes in order."""

    def __init__(self, *entries: Inserted[Any] | Changed[Any]) -> None:
        # Each entry is keyed by its own record type, and a run reaches only the entry of its records' exact type
        # (`_entry`, after grouping by exact type): this is what lets an entry's functions take its type R
        # although a batch is any `Record`.
        self._by_type: dict[type, Inserted[Any] | Changed[Any]] = {}
        for entry in entries:
            assert entry.record_type not in self._by_type, f"two entries for {entry.record_type.__name__}"
            self._by_type[entry.record_type] = entry
        self._always_direct = frozenset(entry.record_type for entry in entries if entry.always_direct)

    def __contains__(self, record_type: type) -> bool:
        return record_type in self._by_type

    def writes(self, records: Sequence[Record]) -> list[Write]:
        """The batch's writes, in order: one `Inserts` per run of plain inserts of one type."""
        writes: list[Write] = []
        for record_type, run in groupby(records, key=type):
            self._entry(record_type).add_writes(run, writes)
        return writes

    def direct(self, records: Sequence[Record]) -> bool:
        """Whether the direct writers take the whole batch: not a leaderboard claim, not a pointer."""
        always = self._always_direct  # goes through the records only of a type that may not (results)
        for record_type, run in groupby(records, key=type):
            if record_type not in always and not self._entry(record_type).direct(run):
                return False
        return True

    def _entry(self, record_type: type) -> Inserted[Any] | Changed[Any]:
        entry = self._by_type.get(record_type)
        if entry is None:
            raise RecordRefusedError(f"not a storable record: {record_type.__name__}")
        return entry


# --- rows and changes of each record type -----------------------------------------------------------------


def _move_row(move: MoveRecord) -> dict[str, Any]:
    """A move's row, written out: nearly every row stored is one (4 times faster than a `_fields_row`)."""
    return {"game_id": move.game_id, "index": move.index, "notation": move.notation, "at": move.at}


def _fields_row(record_type: type[R], id_field: str, **constants: Any) -> Callable[[R], dict[str, Any]]:
    """The row of a record whose columns are its fields, `id_field` named `id`, and `constants` besides."""
    names = [field.name for field in fields(record_type)]
    columns = ["id" if name == id_field else name for name in names]
    values = attrgetter(*names)

    def row(record: R) -> dict[str, Any]:
        return {**dict(zip(columns, values(record), strict=True)), **constants}

    return row


def _status(status: RoomStatusRecord) -> tuple[Write, ...]:
    return (room_status_update(status),)


def _joined(joined: MemberRecord) -> tuple[Write, ...]:
    """A join: the room's next version (compare-and-set), then the member's row."""
    row = {"room_id": joined.room_id, "player_id": joined.player_id, "role": joined.role, "joined_at": joined.at}
    return room_version_update(joined.room_id, joined.version, {}, "a join"), Inserts(room_members, [row])


def _left(left: MemberLeftRecord) -> tuple[Write, ...]:
    """A leave: the room's next version with its host afterwards (compare-and-set), then the member's row goes."""
    version = room_version_update(left.room_id, left.version, {"host_id": left.host_id}, "a leave")
    return version, RowDelete(room_members, {"room_id": left.room_id, "player_id": left.player_id})


def _finished(result: ResultRecord) -> tuple[Write, ...]:
    """The result lands on the unfinished game; a won ranked game's claim on its board follows."""
    if result.claim is None:
        return (result_update(result),)
    return result_update(result), LeaderboardClaim(result)


def _unclaimed(result: ResultRecord) -> bool:
    return result.claim is None


def _next_room(pointer: NextRoomRecord) -> tuple[Write, ...]:
    return (next_room_update(pointer),)


def _quick_room(quick: QuickRoomRecord) -> tuple[Write, ...]:
    """The variant's filling room is now `quick.code`: inserted when the process knew none (a second insert
    breaks the primary key), else moved only from the code it knew (refused when another process moved it)."""
    if quick.previous is None:
        return (Inserts(quick_rooms, [{"variant": quick.variant, "code": quick.code}]),)
    return (quick_room_update(quick),)


_tournament_row = _fields_row(TournamentRecord, "tournament_id")


def _tournament(record: TournamentRecord) -> tuple[Write, ...]:
    """A new tournament (a scheduled occurrence a second time breaks the unique `schedule_key`)."""
    return (Inserts(tournaments, [_tournament_row(record)]),)


def _entered(entry: EntryRecord) -> tuple[Write, ...]:
    """The tournament's count of entrants up by one while below its cap (first come first served, whatever another
    process stored meanwhile); then the entry's row (entering twice breaks its primary key)."""
    refusal = f"tournament {entry.tournament_id!r} is full ({entry.cap} entrants)"
    count = CountUp(tournaments, "entrants", {"id": entry.tournament_id}, entry.cap, refusal)
    row = {"tournament_id": entry.tournament_id, "player_id": entry.player_id, "name": entry.name, "bot": entry.bot,
           "entered_at": entry.at, "status": "active", "status_at": None, "version": 1}  # fmt: skip
    return count, Inserts(tournament_entries, [row])


def _entry_status(status: EntryStatusRecord) -> tuple[Write, ...]:
    """The entry's next version, only over the one before it."""
    where = {"tournament_id": status.tournament_id, "player_id": status.player_id, "version": status.version - 1}
    refusal = f"{status.player_id!r} has no entry in {status.tournament_id!r} at version {status.version - 1}"
    values = {"status": status.status, "status_at": status.at, "version": status.version}
    return (RowUpdate(tournament_entries, values, where, refusal),)


def _wave(wave: TournamentWaveRecord) -> tuple[Write, ...]:
    """A pairing or a round start, only over the one before it: of two processes at once, one forms its races."""
    refusal = f"tournament {wave.tournament_id!r} formed wave {wave.wave} elsewhere first"
    return (RowUpdate(tournaments, {"wave": wave.wave}, {"id": wave.tournament_id, "wave": wave.wave - 1}, refusal),)


def _standings(table: StandingsRecord) -> tuple[Write, ...]:
    refusal = f"tournament {table.tournament_id!r} stored its table {table.seq} elsewhere first"
    values = {"standings_seq": table.seq, "standings": table.standings, "final": table.final, "reveal": table.reveal}
    return (RowUpdate(tournaments, values, {"id": table.tournament_id, "standings_seq": table.seq - 1}, refusal),)


# Declared apart from `RecordWrites(...)`, whose parameter type would let mypy take each entry's R as Any: here
# it checks each entry's functions against the entry's record type.
_ENTRIES = (
    Inserted(PlayerRecord, players, _fields_row(PlayerRecord, "player_id")),
    Inserted(RoomRecord, rooms, _fields_row(RoomRecord, "room_id", status=LOBBY, started_at=None, finished_at=None)),
    Inserted(GameRecord, games, _fields_row(GameRecord, "game_id")),
    Inserted(MoveRecord, moves, _move_row),
    Changed(RoomStatusRecord, _status),
    Changed(MemberRecord, _joined),
    Changed(MemberLeftRecord, _left),
    Changed(ResultRecord, _finished, takes_direct=_unclaimed),  # a claim goes with its board's counts
    Changed(NextRoomRecord, _next_room, takes_direct=False),  # pointers: rare, through SQLAlchemy
    Changed(QuickRoomRecord, _quick_room, takes_direct=False),
    Changed(TournamentRecord, _tournament, takes_direct=False),  # tournaments' writes: rare, through SQLAlchemy
    Changed(EntryRecord, _entered, takes_direct=False),
    Changed(EntryStatusRecord, _entry_status, takes_direct=False),
    Changed(TournamentWaveRecord, _wave, takes_direct=False),
    Inserted(TournamentRaceRecord, tournament_races, _fields_row(TournamentRaceRecord, "")),
    Inserted(BerserkRecord, tournament_berserks, _fields_row(BerserkRecord, "")),
    Changed(StandingsRecord, _standings, takes_direct=False),
)
RECORD_WRITES = RecordWrites(*_ENTRIES)
"""Every record type the store writes, and how."""
