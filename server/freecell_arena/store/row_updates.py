"""The two UPDATEs a write batch may carry, stated once for both write paths.

A batch is written either through SQLAlchemy (`SqlStore.write`) or, on SQLite, by `SqliteWriter` in one hop to
its own connection. Which columns a room's status change or a game's result sets, and which row it must hit,
is decided here, so the two paths cannot drift apart; each path only turns a `RowUpdate` into its own statement.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from freecell_arena.core.ports.records import ResultRecord, RoomStatusRecord, RoomVersion

LOBBY = "lobby"
COUNTDOWN = "countdown"
RUNNING = "running"
FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class RowUpdate:
    """Set `values` on the one row of `table` whose columns equal `where` (a None there means IS NULL)."""

    table: str
    values: dict[str, Any]
    where: dict[str, Any]
    refusal: str
    """Why the record is refused when no row matched: the error the caller sees."""


def room_status_update(record: RoomStatusRecord) -> RowUpdate:
    values: dict[str, Any] = {"status": record.status}
    if record.status in (COUNTDOWN, RUNNING):
        values["started_at"] = record.at  # a countdown's end: when the race starts
    elif record.status == FINISHED:
        values["finished_at"] = record.at
    elif record.status == LOBBY:
        values["started_at"] = None  # a quick race whose countdown stopped (core/competition/quick_race.py) waits again
    if record.version is not None:
        return room_version_update(record.room_id, record.version, values, f"status {record.status!r}")
    refusal = f"status {record.status!r} for unknown room {record.room_id!r}"
    return RowUpdate("rooms", values, {"id": record.room_id}, refusal)


def room_version_update(room_id: str, version: RoomVersion, values: dict[str, Any], change: str) -> RowUpdate:
    """A change of the room written only over the version it was built on (compare-and-set), or refused."""
    return RowUpdate(
        "rooms",
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
        "games",
        values,
        {"id": record.game_id, "outcome": None},
        f"result for game {record.game_id!r}, which is unknown or already finished",
    )
