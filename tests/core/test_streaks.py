"""Daily streaks and the calendar (core/records/streaks.py), driven directly."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from freecell_arena.core.records.streaks import DayMark, month, streak

TODAY = date(2026, 11, 25)


def days_back(*offsets: int) -> set[date]:
    return {TODAY - timedelta(days=offset) for offset in offsets}


def test_no_wins_no_streak() -> None:
    assert streak(set(), TODAY) == streak(days_back(), TODAY)
    assert streak(set(), TODAY).current == 0 and streak(set(), TODAY).best == 0


def test_a_streak_that_reaches_yesterday_is_alive_until_today_closes() -> None:
    assert streak(days_back(1, 2, 3), TODAY).current == 3
    assert streak(days_back(0, 1, 2, 3), TODAY).current == 4


def test_a_closed_day_without_a_win_ends_the_streak_but_not_the_best() -> None:
    result = streak(days_back(2, 3, 4, 5), TODAY)
    assert result.current == 0 and result.best == 4 and result.last_won == TODAY - timedelta(days=2)


def test_the_best_is_the_longest_run_and_the_current_counts_from_the_last_gap() -> None:
    result = streak(days_back(0, 1, 5, 6, 7, 8, 9), TODAY)
    assert (result.current, result.best) == (2, 5)


def test_wins_after_today_do_not_count() -> None:
    assert streak(days_back(0, -1, -2), TODAY).current == 1


@given(st.sets(st.integers(0, 60), max_size=40))
def test_the_streak_agrees_with_counting_day_by_day(offsets: set[int]) -> None:
    won = days_back(*offsets)
    start = 0 if 0 in offsets else 1
    current = 0
    while start + current in offsets:
        current += 1
    best = run = 0
    for offset in range(61, -1, -1):
        run = run + 1 if offset in offsets else 0
        best = max(best, run)
    result = streak(won, TODAY)
    assert (result.current, result.best) == (current, best)


def test_the_month_marks_each_day() -> None:
    marks = dict(month(2026, 11, won_days={date(2026, 11, 3)}, played_days={date(2026, 11, 4), date(2026, 11, 3)},
                       today=TODAY))  # fmt: skip
    assert len(marks) == 30
    assert marks[date(2026, 11, 3)] is DayMark.WON
    assert marks[date(2026, 11, 4)] is DayMark.PLAYED
    assert marks[date(2026, 11, 5)] is DayMark.MISSED
    assert marks[TODAY] is DayMark.AHEAD, "today is not missed before it closes"
    assert marks[date(2026, 11, 30)] is DayMark.AHEAD


def test_days_a_player_could_not_play_ranked_are_not_missed() -> None:
    """A new player's calendar: days before they existed (or without a deal) are `none`, not a month of misses;
    their first day, played as practice, is `played`."""
    made = date(2026, 11, 10)
    rankable = {date(2026, 11, day) for day in range(11, 20)}  # dealt, and the player existed before each opened
    marks = dict(month(2026, 11, set(), {made}, TODAY, rankable))
    assert marks[date(2026, 11, 1)] is DayMark.NONE and marks[date(2026, 11, 9)] is DayMark.NONE
    assert marks[made] is DayMark.PLAYED, "the new player's practice game counts as a played day"
    assert marks[date(2026, 11, 11)] is DayMark.MISSED
    assert marks[TODAY] is DayMark.AHEAD


def test_a_leap_february_has_29_days() -> None:
    assert len(month(2028, 2, set(), set(), TODAY)) == 29
