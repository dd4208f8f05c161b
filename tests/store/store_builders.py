"""Small builders of store records for the storage tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from freecell_arena.core.ports.records import GameRecord, MoveRecord, PlayerRecord, RoomRecord

T0 = datetime(2026, 11, 23, 1, 0, 0, 123456, tzinfo=UTC)
PARIS = timezone(timedelta(hours=1))


def player(n: int = 1, *, bot: bool = False) -> PlayerRecord:
    return PlayerRecord(f"p_{n:016x}", f"Player {n}", f"{n:064x}", bot, T0)


def room(n: int = 1, host: PlayerRecord | None = None) -> RoomRecord:
    host = host or player()
    return RoomRecord(f"r_{n:016x}", f"ROOM{n:04d}", "freecell", 11982, host.player_id, {"laps": [1, 2]}, T0)


def game(n: int = 1, owner: PlayerRecord | None = None, in_room: RoomRecord | None = None) -> GameRecord:
    owner = owner or player()
    return GameRecord(
        game_id=f"g_{n:016x}",
        room_id=in_room.room_id if in_room else None,
        player_id=owner.player_id,
        variant="freecell",
        seed=2**31 - 1,
        rules_version="1",
        autoplay=True,
        undo_allowed=False,
        ranked=True,
        started_at=T0 + timedelta(seconds=n),
    )


def move(of: GameRecord, index: int, notation: str = "3a") -> MoveRecord:
    return MoveRecord(of.game_id, index, notation, T0 + timedelta(milliseconds=index))
