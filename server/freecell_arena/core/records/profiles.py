"""A player's page and their daily streaks, as derivations of the stored results (nothing kept on its own).

Why derived: every number on a player's page is recomputable from the stored games (the issue's integrity rule),
a player on a new device sees the same streak, and nothing is counted on the move path. The store answers two
index-served reads per page (`ProfileReads`); this module turns them into the wire views, with the ratings and
the streaks (`core.records.streaks`) beside them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Protocol

from freecell_arena.core.records import daily, streaks
from freecell_arena.core.records.race_ratings import HistoryPoint, rating_view
from freecell_arena.core.records.ratings import Rating
from freecell_arena.protocol.profiles import CalendarDay, PlayerVariant, RatingPoint, StreakMessage


@dataclass(frozen=True, slots=True)
class VariantStats:
    """A player's finished games of one variant (any room, any daily)."""

    variant: str
    games: int
    won: int
    best_moves: int | None
    average_moves: float | None
    best_time_ms: int | None
    average_over_par: float | None
    """Over the ranked daily wins: moves beyond that day's par."""


@dataclass(frozen=True, slots=True)
class DailyDays:
    """The days of a variant's daily on which the player made a ranked attempt, and those they won."""

    won: frozenset[date]
    played: frozenset[date]


class ProfileReads(Protocol):
    async def variant_stats(self, player_id: str) -> list[VariantStats]: ...

    async def daily_days(self, player_id: str, variant: str) -> DailyDays: ...

    async def practice_days(self, player_id: str, variant: str, first: date, last: date) -> frozenset[date]:
        """The days from `first` to `last` with a finished unranked game of the variant's daily."""
        ...


@dataclass(frozen=True, slots=True)
class MonthFacts:
    """What a month's calendar needs beyond the ranked days: the practice games, the days a deal was dealt, and
    when the player was made (days up to it could not be played ranked)."""

    practice: frozenset[date]
    dealt: frozenset[date]
    created: datetime


def player_variant(stats: VariantStats, rating: Rating | None, history: Sequence[HistoryPoint],
                   streak: streaks.Streak) -> PlayerVariant:  # fmt: skip
    return PlayerVariant(
        variant=stats.variant,
        games=stats.games,
        won=stats.won,
        win_percent=round(100 * stats.won / stats.games, 1) if stats.games else 0.0,
        best_moves=stats.best_moves,
        average_moves=None if stats.average_moves is None else round(stats.average_moves, 1),
        average_over_par=None if stats.average_over_par is None else round(stats.average_over_par, 1),
        best_time_ms=stats.best_time_ms,
        rating=rating_view(rating) if rating is not None else None,
        history=[RatingPoint(at=point.at, rating=point.after.display,
                             delta=point.after.display - point.before.display, code=point.code)
                 for point in history],
        streak=streak.current,
        best_streak=streak.best,
    )


def no_games(variant: str) -> VariantStats:
    """A variant the player is rated or streaking in without a finished game of it here (cannot really happen)."""
    return VariantStats(variant, 0, 0, None, None, None, None)


def streak_message(variant: str, player_id: str, days: DailyDays, today: date, month: tuple[int, int],
                   facts: MonthFacts, request_id: str | int | None = None) -> StreakMessage:  # fmt: skip
    current = streaks.streak(days.won, today)
    rankable = {day for day in facts.dealt if daily.rankable_for(facts.created, day)}
    marks = streaks.month(month[0], month[1], days.won, days.played | facts.practice, today, rankable)
    next_game = daily.unranked_reason(today not in days.played and daily.rankable_for(facts.created, today),
                                      facts.created, today)  # fmt: skip
    return StreakMessage(
        id=request_id, variant=variant, player_id=player_id, today=today, current=current.current,
        best=current.best, month=f"{month[0]:04d}-{month[1]:02d}",
        days=[CalendarDay(day=day, mark=mark.value) for day, mark in marks], today_unranked_reason=next_game,
    )  # fmt: skip

