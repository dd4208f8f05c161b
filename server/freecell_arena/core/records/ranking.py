"""The room's order: winners first (by moves then time, or by time then moves for `speed`), then the rest by
cards on foundations (more is better); players who did not finish with the same cards home tie.

Why non-finishers tie: ranking them by fewer moves, then less time (the rule until `TIED_NON_FINISHERS_FROM`)
rewarded whoever gave up first: two players who resigned with no card home were ranked by who had moved less,
and the first to resign a quick race at 0 moves took about 200 rating points from the other. A player who did
not finish is ranked by what they achieved (cards home) and by nothing else.

**How the change is dated.** Stored ranks and ratings are recomputed from the stored results by
`freecell-arena audit` (and by the sweep that rates races left unrated), so a race must always be ranked by the
rule it was ranked under when it was played. The rule is chosen by the race's start (`rooms.started_at`, the end
of its countdown, the instant every player's game began): a race that started before `TIED_NON_FINISHERS_FROM`
keeps the old order (non-finishers by cards home, then fewer moves, then less time); one that started at or after
it ties them. The instant lies after this release, so no server ranked a race of the new era with the old rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from freecell_arena.protocol.rooms import Standing

TIED_NON_FINISHERS_FROM = datetime(2026, 12, 1, tzinfo=UTC)
"""Races that start at or after this instant rank non-finishers by cards home alone (docs/leaderboards.md)."""


def ties_non_finishers(started_at: datetime | None) -> bool:
    """Whether a race that started at `started_at` ranks its non-finishers by cards home alone (None: a race
    without a known start, which only a hand-built room is: today's rule)."""
    return started_at is None or started_at >= TIED_NON_FINISHERS_FROM


def standing_key(standing: Standing, ranking: str, *, tie_non_finishers: bool = True) -> tuple[int, ...]:
    if standing.outcome == "won":
        first, second = (
            (standing.time_ms, standing.moves) if ranking == "speed" else (standing.moves, standing.time_ms)
        )
        return (0, first, second)
    if tie_non_finishers:
        return (1, -standing.cards_on_foundations)
    return (1, -standing.cards_on_foundations, standing.moves, standing.time_ms)


def rank(standings: Iterable[Standing], ranking: str, started_at: datetime | None) -> list[Standing]:
    """Sort and number by the rule of a race that started at `started_at`; equal keys share a rank."""
    tie = ties_non_finishers(started_at)
    ordered = sorted(standings, key=lambda standing: standing_key(standing, ranking, tie_non_finishers=tie))
    ranked: list[Standing] = []
    previous: tuple[int, ...] | None = None
    for position, standing in enumerate(ordered, start=1):
        key = standing_key(standing, ranking, tie_non_finishers=tie)
        number = ranked[-1].rank if key == previous else position
        ranked.append(standing.model_copy(update={"rank": number}))
        previous = key
    return ranked

