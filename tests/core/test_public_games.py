"""When a game's seed and moves stop being secret (`core.records.public_games`): the one rule replays, a player's
history and the open data follow, case by case."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from freecell_arena.core.records.public_games import open_to_all, open_to_its_player

NOW = datetime(2026, 12, 7, 18, 0, tzinfo=UTC)
TODAY, YESTERDAY = date(2026, 12, 7), date(2026, 12, 6)
HOUR = timedelta(hours=1)


@pytest.mark.parametrize(
    ("daily_day", "sealed_until", "race_over", "face_down", "to_all", "to_its_player"),
    [
        (YESTERDAY, None, True, False, True, True),  # a closed day's daily: its seed is revealed
        (TODAY, None, True, False, False, False),  # today's: hidden from everyone, its player too, game over or not
        (None, NOW + HOUR, True, False, False, False),  # a cup heat over, the cup not: another heat races the deal
        (None, NOW - HOUR, True, False, True, True),  # the cup is over
        (None, NOW - HOUR, False, True, True, True),  # the seal decides, not the race
        (None, None, True, True, True, True),  # a race over, even face down
        (None, None, False, False, False, True),  # running, face up: its player sees every card anyway
        (None, None, False, True, False, False),  # running, face down (Cell Eleven): nobody
    ],
)
def test_the_rule_case_by_case(daily_day: date | None, sealed_until: datetime | None, race_over: bool,
                               face_down: bool, to_all: bool, to_its_player: bool) -> None:  # fmt: skip
    assert open_to_all(daily_day, sealed_until, race_over, NOW) is to_all
    assert open_to_its_player(daily_day, sealed_until, race_over, NOW, face_down=face_down) is to_its_player
