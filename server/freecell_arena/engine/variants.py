"""The five variants as data.

A variant is one `Variant` record: which cards, how they are dealt, how many cells and foundations, how the
tableau builds, what may fill an empty column, how long a run may move at once, and whether cards start face
down. The rules code reads these fields and the tables derived from them; it never asks "which variant is
this?". A new variant is a new record (and a test file).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from freecell_arena.engine.cards import (
    CARD_LIMIT,
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    full_deck,
    is_red,
    rank_of,
    suit_of,
)
from freecell_arena.engine.errors import UnknownVariantError
from freecell_arena.engine.shuffle import MS_MAX_DEAL, SEED_LIMIT, SHUFFLES

ALTERNATE_COLORS = "alternate-colors"
ANY_OTHER_SUIT = "any-other-suit"
EMPTY_TAKES_ANY = "any"
EMPTY_TAKES_KING = "king"


@dataclass(frozen=True, slots=True)
class RunLimit:
    """How many cards may move as one run, from the free cells and the empty columns other than the target."""

    name: str
    formula: str
    compute: Callable[[int, int], int]
    explain: Callable[[int, int], str]


RUN_LIMITS: dict[str, RunLimit] = {
    limit.name: limit
    for limit in (
        RunLimit(
            "cells-times-columns",
            "(1 + empty cells) x (1 + empty columns other than the target)",
            lambda cells, columns: (1 + cells) * (1 + columns),
            lambda cells, columns: f"(1 + {cells} empty cells) x (1 + {columns} other empty columns)",
        ),
        RunLimit(
            "cells-times-power-of-two",
            "(1 + empty cells) x 2^(empty columns other than the target)",
            lambda cells, columns: (1 + cells) << columns,
            lambda cells, columns: f"(1 + {cells} empty cells) x 2^({columns} other empty columns)",
        ),
        RunLimit(
            "cells-plus-one",
            "1 + empty cells",
            lambda cells, columns: 1 + cells,
            lambda cells, columns: f"1 + {cells} empty cells",
        ),
        RunLimit(
            "single-card",
            "1 (one card at a time)",
            lambda cells, columns: 1,
            lambda cells, columns: "one card at a time in this variant",
        ),
    )
}


def row_by_row(columns: int, cards: int) -> tuple[int, ...]:
    """Deal one card per column per row, left to right, until the cards run out."""
    return tuple(index % columns for index in range(cards))


def klondike_then_rounds(piles: int, extra_rounds: int) -> tuple[int, ...]:
    """Cell Eleven's deal (RULINGS): the Klondike triangle, then `extra_rounds` rounds onto piles 2..n."""
    triangle = [pile for row in range(piles) for pile in range(row, piles)]
    rounds = [pile for _ in range(extra_rounds) for pile in range(1, piles)]
    return tuple(triangle + rounds)


@dataclass(frozen=True, slots=True)
class Variant:
    """One variant's rules as data. The tables after the fields are derived once, so play only indexes them."""

    id: str
    name: str
    rules_document: str
    suits: tuple[int, ...]
    decks: int
    columns: int
    deal_pattern: tuple[int, ...]
    cells: int
    foundation_suits: tuple[int, ...]
    foundation_laps: int
    build: str
    empty_column: str
    run_limit: RunLimit
    face_down: bool
    undo_by_default: bool
    shuffle: str
    seed_range: tuple[int, int]
    notation: str
    total_cards: int = field(init=False)
    builds_on: tuple[tuple[bool, ...], ...] = field(init=False, repr=False)
    may_fill_empty: tuple[bool, ...] = field(init=False, repr=False)
    builders: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    foundation_slots: tuple[tuple[int, ...], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        deck = self.deck()
        if len(self.deal_pattern) != len(deck):
            raise ValueError(f"{self.id}: deal pattern places {len(self.deal_pattern)} of {len(deck)} cards")
        if len(self.foundation_suits) * 13 * self.foundation_laps != len(deck):
            raise ValueError(f"{self.id}: foundations do not hold exactly the deck")
        distinct = sorted(set(deck))
        builds = [[False] * CARD_LIMIT for _ in range(CARD_LIMIT)]
        for card in distinct:
            for onto in distinct:
                builds[card][onto] = rank_of(card) + 1 == rank_of(onto) and self._suits_fit(card, onto)
        fill = [False] * CARD_LIMIT
        for card in distinct:
            fill[card] = self.empty_column == EMPTY_TAKES_ANY or rank_of(card) == 13
        builders: list[tuple[int, ...]] = [()] * CARD_LIMIT
        for onto in distinct:
            builders[onto] = tuple(card for card in distinct if builds[card][onto])
        slots: list[tuple[int, ...]] = [()] * 4
        for suit in range(4):
            slots[suit] = tuple(i for i, slot_suit in enumerate(self.foundation_suits) if slot_suit == suit)
        object.__setattr__(self, "total_cards", len(deck))
        object.__setattr__(self, "builds_on", tuple(tuple(row) for row in builds))
        object.__setattr__(self, "may_fill_empty", tuple(fill))
        object.__setattr__(self, "builders", tuple(builders))
        object.__setattr__(self, "foundation_slots", tuple(slots))

    def _suits_fit(self, card: int, onto: int) -> bool:
        if self.build == ALTERNATE_COLORS:
            return is_red(card) != is_red(onto)
        if self.build == ANY_OTHER_SUIT:
            return suit_of(card) != suit_of(onto)
        raise ValueError(f"{self.id}: unknown tableau build rule {self.build!r}")

    def deck(self) -> list[int]:
        return full_deck(self.suits, self.decks)

    def deal_order(self, seed: int) -> list[int]:
        """The cards in the order they are dealt for `seed` (raises BadSeedError outside `seed_range`)."""
        return SHUFFLES[self.shuffle](seed, self.deck())

    def max_run(self, empty_cells: int, other_empty_columns: int) -> int:
        return self.run_limit.compute(empty_cells, other_empty_columns)

    @property
    def copies(self) -> int:
        """How many copies of each card the deck holds."""
        return self.decks


FOUR_SUITS = (CLUBS, DIAMONDS, HEARTS, SPADES)
MS_SEEDS = (1, MS_MAX_DEAL)
ANY_SEED = (0, SEED_LIMIT - 1)

FREECELL = Variant(
    id="freecell",
    name="FreeCell",
    rules_document="freecell.txt",
    suits=FOUR_SUITS,
    decks=1,
    columns=8,
    deal_pattern=row_by_row(8, 52),
    cells=4,
    foundation_suits=FOUR_SUITS,
    foundation_laps=1,
    build=ALTERNATE_COLORS,
    empty_column=EMPTY_TAKES_ANY,
    run_limit=RUN_LIMITS["cells-times-columns"],
    face_down=False,
    undo_by_default=True,
    shuffle="microsoft",
    seed_range=MS_SEEDS,
    notation="standard",
)

CHINESE_FREECELL = Variant(
    id="chinese-freecell",
    name="Chinese FreeCell",
    rules_document="chinese-freecell.txt",
    suits=(DIAMONDS, HEARTS, SPADES),
    decks=2,
    columns=11,
    deal_pattern=(*row_by_row(11, 77), 10),
    cells=4,
    foundation_suits=(DIAMONDS, DIAMONDS, HEARTS, HEARTS, SPADES, SPADES),
    foundation_laps=1,
    build=ANY_OTHER_SUIT,
    empty_column=EMPTY_TAKES_KING,
    run_limit=RUN_LIMITS["cells-plus-one"],
    face_down=False,
    undo_by_default=True,
    shuffle="splitmix64-fisher-yates-v1",
    seed_range=ANY_SEED,
    notation="generic",
)

FREECELL_FOUR_DECK = Variant(
    id="freecell-four-deck",
    name="FreeCell Four Deck",
    rules_document="freecell-four-deck.txt",
    suits=FOUR_SUITS,
    decks=4,
    columns=14,
    deal_pattern=row_by_row(14, 208),
    cells=14,
    foundation_suits=tuple(suit for suit in FOUR_SUITS for _ in range(4)),
    foundation_laps=1,
    build=ALTERNATE_COLORS,
    empty_column=EMPTY_TAKES_ANY,
    run_limit=RUN_LIMITS["cells-plus-one"],
    face_down=False,
    undo_by_default=True,
    shuffle="splitmix64-fisher-yates-v1",
    seed_range=ANY_SEED,
    notation="generic",
)

CELL_ELEVEN = Variant(
    id="cell-eleven",
    name="Cell Eleven",
    rules_document="cell-eleven.txt",
    suits=FOUR_SUITS,
    decks=1,
    columns=7,
    deal_pattern=klondike_then_rounds(7, 4),
    cells=11,
    foundation_suits=FOUR_SUITS,
    foundation_laps=1,
    build=ALTERNATE_COLORS,
    empty_column=EMPTY_TAKES_ANY,
    run_limit=RUN_LIMITS["single-card"],
    face_down=True,
    undo_by_default=True,
    shuffle="splitmix64-fisher-yates-v1",
    seed_range=ANY_SEED,
    notation="generic",
)

FREECELL_THREE_DECK = Variant(
    id="freecell-three-deck",
    name="FreeCell Three Deck",
    rules_document="freecell-three-deck.txt",
    suits=FOUR_SUITS,
    decks=3,
    columns=12,
    deal_pattern=row_by_row(12, 156),
    cells=6,
    foundation_suits=FOUR_SUITS,
    foundation_laps=3,
    build=ALTERNATE_COLORS,
    empty_column=EMPTY_TAKES_ANY,
    run_limit=RUN_LIMITS["cells-times-power-of-two"],
    face_down=False,
    undo_by_default=False,
    shuffle="splitmix64-fisher-yates-v1",
    seed_range=ANY_SEED,
    notation="generic",
)

VARIANTS: dict[str, Variant] = {
    variant.id: variant
    for variant in (FREECELL, CHINESE_FREECELL, FREECELL_FOUR_DECK, CELL_ELEVEN, FREECELL_THREE_DECK)
}


def variant_by_id(variant_id: str) -> Variant:
    try:
        return VARIANTS[variant_id]
    except KeyError:
        raise UnknownVariantError(variant_id, list(VARIANTS)) from None
