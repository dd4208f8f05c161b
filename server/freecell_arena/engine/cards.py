"""Cards as small ints, so the hot path indexes flat tables instead of comparing objects.

`card = rank << 2 | suit`: rank 1..13 (Ace..King), suit 0..3 in the order C, D, H, S (the order of the Microsoft
deal). 0 means "no card" (an empty cell). Identical cards of a multi-deck game are the same int: the rules never tell
copies apart, and conservation is checked as a multiset.
"""

from __future__ import annotations

from freecell_arena.engine.errors import NotationError

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
SUIT_LETTERS = "CDHS"
RANK_LETTERS = "A23456789TJQK"
NO_CARD = 0
CARD_LIMIT = 14 << 2  # exclusive upper bound of card ints: size of every per-card table


def make_card(rank: int, suit: int) -> int:
    return rank << 2 | suit


def rank_of(card: int) -> int:
    return card >> 2


def suit_of(card: int) -> int:
    return card & 3


def is_red(card: int) -> bool:
    return (card & 3) in (DIAMONDS, HEARTS)


def card_text(card: int) -> str:
    """`TD`, `AS`, `KH`: rank letter (T for ten) then suit letter."""
    return RANK_LETTERS[(card >> 2) - 1] + SUIT_LETTERS[card & 3]


def card_from_text(text: str) -> int:
    """Read `TD`, `10D`, `td`; refuse anything else with a NotationError."""
    spelled = text.strip().upper()
    if spelled.startswith("10"):
        spelled = "T" + spelled[2:]
    if len(spelled) != 2 or spelled[0] not in RANK_LETTERS or spelled[1] not in SUIT_LETTERS:
        raise NotationError(f"{text!r} is not a card (expected rank A23456789TJQK then suit CDHS, e.g. TD)")
    return make_card(RANK_LETTERS.index(spelled[0]) + 1, SUIT_LETTERS.index(spelled[1]))


def full_deck(suits: tuple[int, ...], decks: int) -> list[int]:
    """The cards of `decks` copies of the given suits, in a fixed order (rank-major, as the MS deal orders them)."""
    return [make_card(rank, suit) for _ in range(decks) for rank in range(1, 14) for suit in suits]
