"""The read side of the store as the rest of the server sees it: the rows and pages the store returns, and the
narrow interfaces (ports) of the leaderboard, season, history and daily-deal reads.

`freecell_arena.store` implements them (`SqlStore.leaderboards`, `.seasons`, `.history`, `.dailies`); the
websocket and HTTP adapters in `freecell_arena.net` depend on these protocols only, not on SQLAlchemy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Protocol

from freecell_arena.core.ports.records import DailyRecord


@dataclass(frozen=True, slots=True)
class EntryRow:
    """An entry as read, with the player's display name."""

    player_id: str
    name: str
    game_id: str
    player_moves: int
    time_ms: int
    finished_at: datetime
    score: int

    @property
    def key(self) -> tuple[int, datetime, str]:
        """The board's total order (the player id only makes it total, for cursors)."""
        return (self.score, self.finished_at, self.player_id)

    @property
    def tie(self) -> tuple[int, datetime]:
        """Rows equal on this share a rank."""
        return (self.score, self.finished_at)


@dataclass(frozen=True, slots=True)
class NumberedRow:
    rank: int
    position: int
    entry: EntryRow


@dataclass(frozen=True, slots=True)
class BoardPage:
    rows: list[NumberedRow]
    total: int
    more: bool
    """More rows follow the last one (there is a next page)."""


@dataclass(frozen=True, slots=True)
class SeasonRow:
    position: int
    rank: int
    player_id: str
    name: str
    wins: int
    moves_over_par: int
    average_rank: float


@dataclass(frozen=True, slots=True)
class SeasonPage:
    through: date | None
    rows: list[SeasonRow]
    total: int
    more: bool


@dataclass(frozen=True, slots=True)
class HistoryRow:
    game_id: str
    variant: str
    seed: int
    board: str | None
    daily_day: date | None
    ranked: bool
    outcome: str
    player_moves: int
    single_card_moves: int
    cards_on_foundations: int
    time_ms: int
    started_at: datetime
    finished_at: datetime
    room_status: str | None
    """The status of the game's room (None for a daily game): a race still running keeps secrets."""
    seed_sealed_until: datetime | None = None
    """A cup heat's game: its seed is secret until then (the cup's end)."""
    room_id: str | None = None
    room_code: str | None = None
    room_options: dict[str, Any] | None = None
    race_started_at: datetime | None = None
    """The race's start: which ranking rule placed it (`core.records.ranking.ties_non_finishers`)."""


@dataclass(frozen=True, slots=True)
class RaceResult:
    """One player's stored result in a race (their game in the race's room): what the room's ranking orders (a
    race's placements for its ratings, a history's places, the audit's recomputation, a series' tally) and what a
    tournament's table scores (`core.records.tournaments.scoring`)."""

    player_id: str
    bot: bool
    outcome: str | None
    """None: the game has no result yet (the race runs)."""
    moves: int
    single_card_moves: int
    cards_on_foundations: int
    time_ms: int
    flagged: bool = False
    """The fair-play screen flagged it (`core.records.fair_play`): it scores nothing in a tournament."""
    game_id: str = ""
    """The stored game (a moderator voids a game by its id)."""


@dataclass(frozen=True, slots=True)
class RaceFacts:
    """For a page of history: every result of the finished races on it (their places are recomputed from these by
    the rule of each race's start) and the player's rating change in each rated one."""

    results: dict[str, tuple[RaceResult, ...]]
    rating_deltas: dict[str, int]


class LeaderboardReader(Protocol):
    async def page(self, board: str, limit: int, after: tuple[int, datetime, str] | None = None) -> BoardPage:
        """Up to `limit` rows after the cursor key `after` (the board's total order)."""
        ...

    async def entry(self, board: str, player_id: str) -> EntryRow | None: ...

    async def around(self, board: str, player_id: str, above: int, below: int) -> BoardPage | None:
        """The player's row with `above` rows before it and `below` after; None when the player has no entry."""
        ...

    async def dealt(self, boards: Sequence[str]) -> bool:
        """Whether a ranked game was ever dealt for one of `boards` (a deal's humans' and bots' boards): a board
        that is empty because nobody won yet, rather than one of a deal nobody was dealt."""
        ...


class SeasonReader(Protocol):
    async def page(
        self, variant: str, bots: bool, days: int, limit: int, *, after: int = 0, around: str | None = None
    ) -> SeasonPage | None: ...


class HistoryReader(Protocol):
    async def page(
        self, player_id: str, limit: int, before: tuple[datetime, str] | None = None
    ) -> tuple[list[HistoryRow], bool]: ...

    async def race_facts(self, player_id: str, room_ids: Sequence[str]) -> RaceFacts:
        """The results of these rooms and the player's rating changes in them."""
        ...


class DailyDeals(Protocol):
    """The stored daily deals: what the daily service prepares, publishes and closes."""

    async def shared_secret(self, now: datetime) -> str: ...

    async def save(self, record: DailyRecord) -> DailyRecord: ...

    async def deal(self, variant: str, day: date) -> DailyRecord | None: ...

    async def deals(self, variant: str, first: date, last: date) -> list[DailyRecord]: ...

    async def prepared_days(self, variant: str, days: list[date]) -> set[date]: ...

    async def has_ranked_attempt(self, player_id: str, variant: str, day: date) -> bool: ...

    async def unfinalized(self, before: date) -> list[tuple[str, date]]: ...

    async def finalize(self, variant: str, day: date, now: datetime) -> bool: ...


# ---------------------------------------------------------------- open data (`freecell-arena export`, a player's games)


@dataclass(frozen=True, slots=True)
class Disclosure:
    """What is public at `now`: the store's export reads leave out every game anyone's replay would still refuse
    (`core.records.public_games.open_to_all`): a race not over, a daily before its day closes, a cup heat before
    the cup is over."""

    now: datetime
    first_open_day: date
    """Dailies of this day or later are not closed yet (`core.records.daily.is_closed`)."""


@dataclass(frozen=True, slots=True)
class ExportFilter:
    """Which finished games an export streams: finished in `[since, until)`, of a variant, of a player (None: any)."""

    since: datetime | None = None
    until: datetime | None = None
    variant: str | None = None
    player_id: str | None = None

