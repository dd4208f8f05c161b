"""Daily streaks and the month's calendar, derived from a player's daily attempts (never stored on their own).

A streak is a run of consecutive days (UTC, the daily's own day: `core.records.daily.today`) on each of which the
player won a ranked attempt at that variant's daily. Kept as a derivation of the stored results rather than a
counter: a player on a new device sees the same streak, the audit can recompute it, and a late-arriving result
(a process that died mid-commit and recovered) cannot leave a counter wrong.

- **Current streak.** Today's daily is still open, so a streak that reaches yesterday is alive until today
  closes: the current streak counts back from today if today is won, else from yesterday. A day that closed
  without a win ends it.
- **Best streak.** The longest run ever, the current one included.
- **Calendar.** Each day of a month is won (a ranked win), played (a game of the deal, ranked or practice, none a
  ranked win: a new player's first day counts as played), missed (a closed day the player could have played
  ranked and did not), or none (nothing to play for this player: no deal was dealt that day, or the player did not
  exist yet when it opened, so a new player's calendar is not a month of "missed"); today and later are ahead.
"""

from __future__ import annotations

import calendar as month_calendar
from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, timedelta
from enum import StrEnum

ONE_DAY = timedelta(days=1)


class DayMark(StrEnum):
    WON = "won"
    PLAYED = "played"
    MISSED = "missed"
    AHEAD = "ahead"
    """A day that has not come yet (or is today, not yet played): nothing is missed until the day closes."""
    NONE = "none"
    """Nothing to play for this player: no deal that day, or the player was made after it opened."""


@dataclass(frozen=True, slots=True)
class Streak:
    current: int
    best: int
    last_won: date | None


def streak(won_days: Collection[date], today: date) -> Streak:
    """The current and best streak from the days with a won ranked attempt (days after `today` are ignored)."""
    days = sorted(day for day in set(won_days) if day <= today)
    best = run = 0
    previous: date | None = None
    for day in days:
        run = run + 1 if previous is not None and day - previous == ONE_DAY else 1
        best = max(best, run)
        previous = day
    alive = previous is not None and today - previous <= ONE_DAY
    return Streak(current=run if alive else 0, best=best, last_won=previous)


def month(year: int, month_number: int, won_days: Collection[date], played_days: Collection[date],
          today: date, rankable: Collection[date] | None = None) -> list[tuple[date, DayMark]]:  # fmt: skip
    """Every day of the month with its mark. `played_days` are the days with any game of the deal (won or not,
    ranked or not); `rankable` the closed days the player could have played ranked (a deal was dealt and the
    player existed before it opened; None: every day), the only ones that can be missed."""
    won, played = set(won_days), set(played_days) | set(won_days)
    _, length = month_calendar.monthrange(year, month_number)
    marks = []
    for number in range(1, length + 1):
        day = date(year, month_number, number)
        if day in won:
            mark = DayMark.WON
        elif day in played:
            mark = DayMark.PLAYED
        elif day >= today:
            mark = DayMark.AHEAD
        elif rankable is None or day in rankable:
            mark = DayMark.MISSED
        else:
            mark = DayMark.NONE
        marks.append((day, mark))
    return marks
