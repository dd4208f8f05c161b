"""The room's order: winners first (by moves then time, or by time then moves for `speed`), then the rest
by cards on foundations (more is better), then fewer moves, then less time."""

from __future__ import annotations

from collections.abc import Iterable

from freecell_arena.protocol.messages import Standing


def standing_key(standing: Standing, ranking: str) -> tuple[int, ...]:
    if standing.outcome == "won":
        first, second = (
            (standing.time_ms, standing.moves) if ranking == "speed" else (standing.moves, standing.time_ms)
        )
        return (0, first, second)
    return (1, -standing.cards_on_foundations, standing.moves, standing.time_ms)


def rank(standings: Iterable[Standing], ranking: str) -> list[Standing]:
    """Sort and number; equal keys share a rank."""
    ordered = sorted(standings, key=lambda standing: standing_key(standing, ranking))
    ranked: list[Standing] = []
    previous: tuple[int, ...] | None = None
    for position, standing in enumerate(ordered, start=1):
        key = standing_key(standing, ranking)
        number = ranked[-1].rank if key == previous else position
        ranked.append(standing.model_copy(update={"rank": number}))
        previous = key
    return ranked
