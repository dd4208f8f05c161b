"""How many single-card moves a multi-card move stands for (RULINGS: store the single-card move count too).

A run moves through free cells and empty columns one card at a time. With c empty cells a run of up to c + 1 cards
costs 2n - 1 single moves (each card but the deepest goes out and comes back). A longer run parks its top part in
one empty column first (itself a smaller supermove), carries the rest, then brings the parked part back on top.
While the destination is still empty it may hold cards on the way too, which is why a move into an empty column can
cost fewer single moves than the same run onto a card.

The count is the cheapest decomposition of that recursive shape. Exhaustive search over single-card moves agrees
with it for every run a game can hold (at most 13 cards) with the helpers tests/engine/test_engine_game.py checks;
in general it is an upper bound on the fewest single-card moves.
"""

from __future__ import annotations

from functools import lru_cache

UNREACHABLE = 1 << 30


@lru_cache(maxsize=65536)
def single_card_moves(count: int, empty_cells: int, empty_columns: int, into_empty: bool = False) -> int:
    """Fewest single-card moves that carry a run of `count` cards with these helpers free.

    `empty_columns` never counts the destination; `into_empty` says whether the destination is an empty column.
    """
    if count <= empty_cells + 1:
        return 2 * count - 1
    if empty_columns == 0:
        return UNREACHABLE
    others = empty_columns - 1
    best = UNREACHABLE
    for parked in range(1, count):
        cost = (
            single_card_moves(parked, empty_cells, others + into_empty, True)  # park: the empty destination helps
            + single_card_moves(count - parked, empty_cells, others, into_empty)  # carry the rest
            + single_card_moves(parked, empty_cells, others)  # bring the parked cards onto the rest
        )
        best = min(best, cost)
    return best
