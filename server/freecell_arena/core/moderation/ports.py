"""What net asks of moderation's store (implemented by `freecell_arena.store.moderation.ModerationStore`), and the
values it answers with."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Protocol

from freecell_arena.core.moderation.rules import Person, ReportReason
from freecell_arena.core.moderation.sanctions import Act, InForce, LoggedAction
from freecell_arena.core.ports.records import MoveRecord
from freecell_arena.core.records.sanctioned import Sanctions


@dataclass(frozen=True, slots=True)
class Acted:
    """An applied action: its log entry, and the session and bot tokens a ban revoked (their connections close)."""

    entry: LoggedAction
    revoked: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class StoredReport:
    report_id: str
    reporter_id: str | None
    target_id: str
    reason: str
    text: str
    source: str
    game_id: str | None
    created_at: datetime
    status: str
    opponent: bool = False
    """The reporter raced the target: in the race of the game the report names (or, naming none, in any race)."""


@dataclass(frozen=True, slots=True)
class RankedGame:
    """A finished ranked game with its moves: what the evidence is computed from."""

    game_id: str
    variant: str
    seed: int
    daily_day: date | None
    started_at: datetime
    outcome: str
    player_moves: int
    time_ms: int
    board: str | None
    flagged: str | None
    moves: list[MoveRecord]


@dataclass(frozen=True, slots=True)
class TokenAge:
    kind: str
    created_at: datetime
    last_used_at: datetime | None
    revoked: bool



class ModerationPort(Protocol):
    async def person(self, player_id: str) -> Person | None: ...

    async def is_moderator(self, player_id: str) -> bool: ...

    async def find(self, text: str, limit: int = 20) -> list[Person]: ...

    async def log(self, limit: int = 50, before: int | None = None,
                  target_id: str | None = None) -> list[LoggedAction]: ...  # fmt: skip

    async def since(self, after: int, limit: int = 200) -> list[LoggedAction]: ...

    async def head(self) -> int: ...

    async def in_force(self, player_id: str | None = None) -> list[InForce]: ...

    async def ban_of(self, player_id: str) -> InForce | None: ...

    async def act(self, act: Act, target_id: str, actor_id: str | None, reason: str, now: datetime, *,
                  public_reason: str = "", game_id: str | None = None,
                  lifts: int | None = None) -> Acted: ...  # fmt: skip

    async def choose_name(self, player_id: str, name: str, now: datetime) -> None: ...

    async def file_report(self, reporter: Person, target_id: str, reason: ReportReason, text: str,
                          game_id: str | None, address: str, now: datetime) -> str: ...  # fmt: skip

    async def auto_report(self, target_id: str, game_id: str, text: str, now: datetime) -> str | None: ...

    async def reports_by(self, reporter_id: str, limit: int = 50) -> list[StoredReport]: ...

    async def reports_on(self, target_id: str, limit: int = 50) -> list[StoredReport]: ...

    async def queue(self, limit: int = 50) -> list[tuple[Person, list[StoredReport]]]: ...

    async def ranked_games(self, player_id: str, limit: int) -> list[RankedGame]: ...

    async def game_moves(self, game_id: str) -> RankedGame | None: ...

    async def token_ages(self, player_id: str) -> list[TokenAge]: ...

    async def saved_at(self, player_id: str) -> datetime | None: ...

    async def sanctions(self) -> Sanctions: ...

    async def void_days(self, player_id: str, variant: str) -> frozenset[date]: ...

    async def names_of(self, player_ids: Sequence[str]) -> dict[str, str]: ...
