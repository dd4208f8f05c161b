"""What the account tests share: the start instant, the embedded default's relying party, a manual clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from freecell_arena.core.accounts.relying_party import relying_party

T0 = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
PORT = 8765
RP = relying_party(None, PORT)
ORIGIN = f"http://localhost:{PORT}"


class ManualClock:
    def __init__(self, start: datetime = T0) -> None:
        self.current = start

    def now(self) -> datetime:
        return self.current

    def advance(self, seconds: float) -> None:
        self.current += timedelta(seconds=seconds)
