"""Final daily ranks and the season tables built from them, computed once when a day closes.

A season table covers the last 7 or 30 closed days of a variant's dailies, per population (humans, bots):
for each player the days won (a ranked win of that day's deal), the moves over par summed over those days,
and the average final rank on those days. Order: more wins first, then fewer moves over par, then the
better average rank; rows equal on all three share a rank. The table is materialised at each day's close
(`freecell_arena.store.dailies`), so reading it is an index range scan, never an aggregate over 30 boards.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from fractions import Fraction

from freecell_arena.core.records.leaderboard import number_rows

SEASON_WINDOWS = (7, 30)


@dataclass(frozen=True, slots=True)
class BoardRow:
    """An entry of a closed daily board, as read for the final ranking."""

    player_id: str
    game_id: str
    player_moves: int
    time_ms: int
    finished_at: datetime
    score: int


@dataclass(frozen=True, slots=True)
class FinalRank:
    player_id: str
    game_id: str
    rank: int
    player_moves: int
    time_ms: int
    moves_over_par: int


def final_ranks(rows: Iterable[BoardRow], par: int) -> list[FinalRank]:
    """The closed day's board in order, numbered (ties share a rank only with an equal finish instant)."""
    ordered = sorted(rows, key=lambda row: (row.score, row.finished_at, row.player_id))
    numbers = number_rows(ordered, lambda row: (row.score, row.finished_at), 1, 1)
    return [
        FinalRank(row.player_id, row.game_id, rank, row.player_moves, row.time_ms, row.player_moves - par)
        for row, (rank, _position) in zip(ordered, numbers, strict=True)
    ]


@dataclass(frozen=True, slots=True)
class SeasonTotals:
    """One player's sums over a window of closed days."""

    player_id: str
    wins: int
    moves_over_par: int
    rank_sum: int


@dataclass(frozen=True, slots=True)
class SeasonLine:
    player_id: str
    position: int
    rank: int
    wins: int
    moves_over_par: int
    rank_sum: int

    @property
    def average_rank(self) -> float:
        return self.rank_sum / self.wins


def season_table(totals: Iterable[SeasonTotals]) -> list[SeasonLine]:
    def order(row: SeasonTotals) -> tuple[int, int, Fraction]:
        return (-row.wins, row.moves_over_par, Fraction(row.rank_sum, row.wins))

    ordered = sorted(totals, key=lambda row: (*order(row), row.player_id))
    numbers = number_rows(ordered, order, 1, 1)
    return [
        SeasonLine(row.player_id, position, rank, row.wins, row.moves_over_par, row.rank_sum)
        for row, (rank, position) in zip(ordered, numbers, strict=True)
    ]


def window_start(through: date, days: int) -> date:
    """The first day of the `days`-day window that ends with `through` (inclusive)."""
    return through - timedelta(days=days - 1)
