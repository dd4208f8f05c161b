"""When a game's seed and moves stop being secret: the one rule the replays (`core.live.play`), a player's history
(`net.queries`) and the open data (`store.exports.public`, the same rule as SQL conditions) follow.

A move seen is a move copied, and a seed is the whole deal: a daily's stay hidden until its day closes, a cup heat's
until the cup is over (another heat may still be racing the same deal), any other game's until its race is over.
The player who played a game may see its seed sooner when the deal is face up (every card shows anyway), unless a
daily's or a cup's secret holds it.
"""

from __future__ import annotations

from datetime import date, datetime

from freecell_arena.core.records import daily


def open_to_all(daily_day: date | None, sealed_until: datetime | None, race_over: bool, now: datetime) -> bool:
    """Whether anyone may see the game's seed and moves at `now`."""
    if daily_day is not None:
        return daily.is_closed(daily_day, now)
    if sealed_until is not None:
        return now >= sealed_until
    return race_over


def open_to_its_player(
    daily_day: date | None, sealed_until: datetime | None, race_over: bool, now: datetime, *, face_down: bool
) -> bool:
    """Whether the player who played the game may see them: as anyone, or sooner for a face-up deal that no
    daily's or cup's secret holds."""
    unsealed = daily_day is None and sealed_until is None
    return open_to_all(daily_day, sealed_until, race_over, now) or (unsealed and not face_down)
