"""The share text (core/records/share.py): counts, rank, streak and a link; nothing of the deal."""

from __future__ import annotations

import re
from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from freecell_arena.core.records.share import MINUS, Result, clock_text, daily_text, par_text, race_text

URL = "http://127.0.0.1:8765/#/daily/freecell"
CARD = re.compile(r"\b(10|[2-9AJQKT])[♠♥♦♣SHDC]\b|\b[0-9]+[a-h]\b|\bt[0-9]-")
"""A card (`10♥`, `QS`) or a move in the notation (`3a`, `t3-c1`): what a share must never hold."""


def test_a_won_daily_says_moves_par_time_rank_streak_and_the_link() -> None:
    text = daily_text(variant_name="FreeCell", day=date(2026, 11, 25),
                      result=Result(won=True, moves=87, time_ms=221_000, cards_home=52, cards=52, rank=12, of=340),
                      par=80, streak=5, url=URL)  # fmt: skip
    assert text.splitlines() == [
        "FreeCell Arena · FreeCell daily 2026-11-25",
        "✅ 87 moves (par 80, +7) in 3:41 · #12 of 340",
        "🔥 5-day streak",
        URL,
    ]


def test_a_practice_daily_says_so_under_its_title() -> None:
    text = daily_text(variant_name="FreeCell", day=date(2026, 11, 25),
                      result=Result(won=True, moves=87, time_ms=221_000, cards_home=52, cards=52, rank=None, of=None),
                      par=80, streak=0, url=URL, practice=True)  # fmt: skip
    assert text.splitlines()[:3] == [
        "FreeCell Arena · FreeCell daily 2026-11-25",
        "Practice: not on the day's board",
        "✅ 87 moves (par 80, +7) in 3:41",
    ]


def test_a_lost_attempt_says_cards_home_and_no_streak_line_without_a_streak() -> None:
    text = daily_text(variant_name="Cell Eleven", day=date(2026, 11, 25),
                      result=Result(won=False, moves=40, time_ms=3_700_000, cards_home=30, cards=52, rank=None,
                                    of=None), par=64, streak=0, url=URL)  # fmt: skip
    assert text.splitlines()[1] == "❌ 30/52 cards home in 1:01:40"
    assert "streak" not in text


def test_a_race_says_its_size_and_the_rating_change() -> None:
    text = race_text(variant_name="FreeCell", players=4,
                     result=Result(won=True, moves=50, time_ms=65_000, cards_home=52, cards=52, rank=1, of=4),
                     par=50, rating_change=-8, url="http://127.0.0.1:8765/#/room/ABCD")  # fmt: skip
    assert text.splitlines()[1:3] == ["✅ 50 moves (par 50, ±0) in 1:05 · #1 of 4", f"rating {MINUS}8"]


def test_par_and_clock_texts() -> None:
    assert par_text(78, 80) == f"78 moves (par 80, {MINUS}2)"
    assert par_text(78, None) == "78 moves"
    assert clock_text(59_999) == "0:59" and clock_text(-5) == "0:00"


@given(moves=st.integers(0, 5000), par=st.none() | st.integers(1, 500), time_ms=st.integers(0, 10**8),
       home=st.integers(0, 156), won=st.booleans(), streak=st.integers(0, 5000))  # fmt: skip
def test_no_share_holds_a_card_or_a_move(moves: int, par: int | None, time_ms: int, home: int, won: bool,
                                         streak: int) -> None:  # fmt: skip
    result = Result(won=won, moves=moves, time_ms=time_ms, cards_home=home, cards=156, rank=3, of=9)
    text = daily_text(variant_name="FreeCell Three Deck", day=date(2026, 1, 1), result=result, par=par,
                      streak=streak, url=URL)  # fmt: skip
    assert not CARD.search(text.replace(URL, "")), text
