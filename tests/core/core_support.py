"""What the tests of core's rooms share: one manual clock (it stands still until a test moves it), and players
seated in a shared state without going through registration."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from freecell_arena.core.live.shared_state import PlayerState, SharedState
from freecell_arena.core.ports.records import PlayerRecord


class ManualClock:
    def __init__(self) -> None:
        self.instant = datetime(2026, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        return self.instant

    def advance(self, seconds: float) -> None:
        self.instant += timedelta(seconds=seconds)


def known_player(state: SharedState, player_id: str, *, connections: int = 1, bot: bool = False) -> PlayerState:
    """A known player with `connections` open (what `Players.register` leaves behind, without a token)."""
    record = PlayerRecord(player_id, player_id, f"hash-{player_id}", bot, state.clock.now())
    player = state.players[player_id] = PlayerState(record, connections=connections)
    return player
