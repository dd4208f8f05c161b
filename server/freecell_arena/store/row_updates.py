"""The UPDATEs a write batch may carry: the compare-and-sets of rooms, results and pointers, stated once.

A batch is written through SQLAlchemy (`SqlStore.write`) or by a direct writer (`SqliteWriter`,
`PostgresWriter`). Which columns a room's status change, a join or leave, a game's result or a moved pointer
sets, which row it must hit, and why it is refused when it hits none is decided here, for every path; each path
only turns a `RowUpdate` into its own statement. `record_writes` says which record makes which update. A
`CountUp` (a count kept under a limit) is not a compare-and-set at all: writers at once never refuse each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table

from freecell_arena.core.ports.records import (
    NextRoomRecord,
    QuickRoomRecord,
    ResultRecord,
    RoomStatusRecord,
    RoomVersion,
)
from freecell_arena.store.models import Game, QuickRoom, Room, table_of

LOBBY = "lobby"
COUNTDOWN = "countdown"
RUNNING = "running"
FINISHED = "finished"

games = table_of(Game)
rooms = table_of(Room)
quick_rooms = table_of(QuickRoom)


@dataclass(frozen=True, slots=True)
class RowUpdate:
    """Set `values` on the one row of `table` whose columns equal `where` (a None there means IS NULL)."""

    table: Table
    values: dict[str, Any]
    where: dict[str, Any]
    refusal: str
    """Why the record is refused when no row matched: the error the caller sees."""


@dataclass(frozen=True, slots=True)
class CountUp:
    """Add one to `column` of the one row of `table` whose columns equal `where`, only while it is below `limit`:
    one statement, so concurrent writers (several processes) never refuse each other and the limit holds. Written
    through SQLAlchemy only (`RECORD_WRITES.direct` sends its batch there)."""

    table: Table
    column: str
    where: dict[str, Any]
    limit: int
    refusal: str


def room_status_update(record: RoomStatusRecord) -> RowUpdate:
    values: dict[str, Any] = {"status": record.status}
    if record.status in (COUNTDOWN, RUNNING):
        values["started_at"] = record.at  # a countdown's end: when the race starts
    elif record.status == FINISHED:
        values["finished_at"] = record.at
    elif record.status == LOBBY:
        values["started_at"] = None  # a quick race whose countdown stopped (core/quick_race.py) waits again
    if record.version is not None:
        return room_version_update(record.room_id, record.version, values, f"status {record.status!r}")
    refusal = f"status {record.status!r} for unknown room {record.room_id!r}"
    return RowUpdate(rooms, values, {"id": record.room_id}, refusal)


def room_version_update(room_id: str, version: RoomVersion, values: dict[str, Any], change: str) -> RowUpdate:
    """A change of the room written only over the version it was built on (compare-and-set), or refused."""
    return RowUpdate(
        rooms,
        {**values, "seq": version.seq, "version": version.tag},
        {"id": room_id, "version": version.previous},
        f"room {room_id!r} changed meanwhile ({change} at version {version.seq})",
    )


def result_update(record: ResultRecord) -> RowUpdate:
    """The result lands only on an unfinished game: a second result for the same game is refused. A flagged
    win moves the game to the board its claim names (the bots' side), with the reason."""
    values: dict[str, Any] = {
        "outcome": record.outcome,
        "player_moves": record.player_moves,
        "single_card_moves": record.single_card_moves,
        "cards_on_foundations": record.cards_on_foundations,
        "time_ms": record.time_ms,
        "finished_at": record.finished_at,
    }
    if record.flag is not None:
        values["flagged"] = record.flag[:200]
        if record.claim is not None:
            values["board"] = record.claim.board
    return RowUpdate(
        games,
        values,
        {"id": record.game_id, "outcome": None},
        f"result for game {record.game_id!r}, which is unknown or already finished",
    )


def next_room_update(pointer: NextRoomRecord) -> RowUpdate:
    """The series' next room moves only from the one this process knew (two "race again"s open one room)."""
    refusal = f"room {pointer.room_id!r} points to another next room than {pointer.previous!r}"
    return RowUpdate(rooms, {"next_code": pointer.next_code}, {"id": pointer.room_id, "next_code": pointer.previous},
                     refusal)  # fmt: skip


def quick_room_update(quick: QuickRoomRecord) -> RowUpdate:
    """The variant's filling quick room moves only from the code this process knew (`quick.previous`)."""
    refusal = f"the filling {quick.variant} quick race moved on from {quick.previous!r} meanwhile"
    return RowUpdate(quick_rooms, {"code": quick.code}, {"variant": quick.variant, "code": quick.previous}, refusal)
