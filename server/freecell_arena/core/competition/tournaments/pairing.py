"""Arena pairing, pure over values: who among the free entrants races whom next.

Every entrant who is free (not in a race, not paused) is put with others free at that moment into the next race,
neighbours in tournament score together (the best with the best), `race_size` to a race. A group smaller than
that is formed only once one of its players has waited `gather_s` (a few seconds at most), and never of one
player. Nobody meets the very same opponents twice in a row when someone else is free: such a group swaps a
player with the next group (or with those left waiting).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True, slots=True)
class Candidate:
    player_id: str
    score: int
    free_since: datetime
    last_opponents: frozenset[str] = frozenset()
    """Whom they raced in their last race (empty: none yet)."""


def pair(candidates: Sequence[Candidate], race_size: int, gather_s: float, now: datetime) -> list[tuple[str, ...]]:
    """The races to form now, each a tuple of player ids; whoever is in none keeps waiting."""
    ordered = sorted(candidates, key=lambda candidate: (-candidate.score, candidate.free_since, candidate.player_id))
    groups = [ordered[start:start + race_size] for start in range(0, len(ordered), race_size)]
    waiting: list[Candidate] = []
    if groups and len(groups[-1]) < race_size:
        tail = groups.pop()
        patience = timedelta(seconds=gather_s)
        if len(tail) >= 2 and any(now - candidate.free_since >= patience for candidate in tail):
            groups.append(tail)
        else:
            waiting = tail
    _avoid_repeats(groups, waiting)
    return [tuple(candidate.player_id for candidate in group) for group in groups]


def repeats(group: Sequence[Candidate]) -> bool:
    """Someone in the group would meet exactly the opponents of their last race again."""
    ids = {candidate.player_id for candidate in group}
    return any(candidate.last_opponents and candidate.last_opponents == ids - {candidate.player_id}
               for candidate in group)  # fmt: skip


def _avoid_repeats(groups: list[list[Candidate]], waiting: list[Candidate]) -> None:
    """Swap one player of a repeating group with a neighbouring group's (or a waiting one), when that leaves
    neither group repeating."""
    for index, group in enumerate(groups):
        if not repeats(group):
            continue
        others = [groups[j] for j in (index + 1, index - 1) if 0 <= j < len(groups)] + ([waiting] if waiting else [])
        _swap_one(group, others)


def _swap_one(group: list[Candidate], others: list[list[Candidate]]) -> None:
    for other in others:
        for mine in reversed(range(len(group))):
            for theirs in range(len(other)):
                group[mine], other[theirs] = other[theirs], group[mine]
                if not repeats(group) and not repeats(other):
                    return
                group[mine], other[theirs] = other[theirs], group[mine]
