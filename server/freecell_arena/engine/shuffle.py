"""Seeded shuffles, pinned bit for bit so a seed means the same deal on every machine and Python version.

Nothing here uses `random`: its algorithms may change between Python releases, and a deal that changes would
invalidate every stored game and leaderboard. If a shuffle ever has to change, it gets a new name and the old one
stays, because stored games name the rules version they were played under.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from freecell_arena.engine.cards import make_card
from freecell_arena.engine.errors import BadSeedError

MASK64 = (1 << 64) - 1
MS_MAX_DEAL = (1 << 31) - 1
SEED_LIMIT = 1 << 63  # seeds fit a signed 64-bit database column


def require_whole_number(seed: object) -> int:
    """Seeds reach the engine from the wire, the database and the command line: refuse anything but an int (a bool
    or a float would otherwise deal, or crash deep in the arithmetic, instead of being named as the mistake). The
    seed back as an int, for callers that take it as an `object` (compiled, an `int` parameter would refuse any
    other type with a TypeError before this could name it)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise BadSeedError(f"a seed is a whole number, not {seed!r}")
    return seed


def microsoft_order(deal_number: int) -> list[int]:
    """The 52 cards of Microsoft FreeCell deal `deal_number` in the order they are dealt.

    The documented Microsoft C runtime LCG (state * 214013 + 2531011, output bits 16..30) drives a swap shuffle of
    the deck in index order AC AD AH AS 2C ... KS; card index i is rank i // 4, suit i % 4 (C, D, H, S).
    """
    require_whole_number(deal_number)
    if not 1 <= deal_number <= MS_MAX_DEAL:
        raise BadSeedError(f"Microsoft deal numbers run from 1 to {MS_MAX_DEAL}, not {deal_number}")
    state = deal_number
    deck = list(range(51, -1, -1))
    for i in range(52):
        state = (state * 214013 + 2531011) & 0x7FFFFFFF
        j = 51 - (state >> 16) % (52 - i)
        deck[i], deck[j] = deck[j], deck[i]
    # index i is rank i // 4 + 1 of suit i % 4 (C, D, H, S: the suits' numbers): make_card(i // 4 + 1, i % 4),
    # which is i + 4 (dealt at every game's start: no trip through the cards' text)
    return [make_card(index // 4 + 1, index % 4) for index in deck]


class SplitMix64:
    """Steele, Lea and Flood's SplitMix64: tiny, fully specified, and good enough to shuffle cards."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """Uniform in [0, bound) by rejection, so no residue class is favoured."""
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            value = self.next()
            if value < limit:
                return value % bound


def splitmix_order(seed: int, cards: Sequence[int]) -> list[int]:
    """Shuffle v1: Fisher-Yates from the last position down, indices drawn from SplitMix64(seed)."""
    require_whole_number(seed)
    if not 0 <= seed < SEED_LIMIT:
        raise BadSeedError(f"seeds run from 0 to {SEED_LIMIT - 1}, not {seed}")
    deck = list(cards)
    rng = SplitMix64(seed)
    for i in range(len(deck) - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


Shuffle = Callable[[int, Sequence[int]], list[int]]


def _microsoft(seed: int, cards: Sequence[int]) -> list[int]:
    return microsoft_order(seed)


SHUFFLES: dict[str, Shuffle] = {
    "microsoft": _microsoft,
    "splitmix64-fisher-yates-v1": splitmix_order,
}
