"""How many single-card moves a multi-card move stands for (RULINGS: store the single-card count too).

A run of n cards moves through free cells and empty columns one card at a time: with c empty cells a run of up
to c + 1 cards costs 2n - 1 single moves; longer runs park part of the run in an empty column first. The count is
the cheapest such decomposition, so it matches what a player moving cards one at a time would need at best.
"""

from __future__ import annotations

from functools import lru_cache

UNREACHABLE = 1 << 30


@lru_cache(maxsize=65536)
def single_card_moves(count: int, empty_cells: int, empty_columns: int) -> int:
    """Fewest single-card moves that carry a run of `count` cards, with these helpers free (target excluded)."""
    if count <= empty_cells + 1:
        return 2 * count - 1
    if empty_columns == 0:
        return UNREACHABLE
    fewer = empty_columns - 1
    best = UNREACHABLE
    for parked in range(1, count):
        # park `parked` cards in one empty column, carry the rest, then bring the parked ones on top
        cost = 2 * single_card_moves(parked, empty_cells, fewer) + single_card_moves(count - parked, empty_cells, fewer)
        best = min(best, cost)
    return best
