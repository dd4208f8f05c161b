"""Deals: Microsoft FreeCell deals for `freecell`, the pinned `splitmix64-fisher-yates-v1` shuffle for the others.

The golden deals below are literal: any change to a shuffle, a deck order or a deal pattern fails here loudly,
because it would silently change every stored game and leaderboard.
"""

from __future__ import annotations

from collections import Counter

import pytest

from freecell_arena.engine import VARIANTS, BadSeedError, Board, card_text, variant_by_id
from freecell_arena.engine.shuffle import MS_MAX_DEAL, SEED_LIMIT, SplitMix64, splitmix_order

GOLDEN_DEALS: dict[tuple[str, int], str] = {
    ("freecell", 1): """
        JD KD 2S 4C 3S 6D 6S
        2D KC KS 5C TD 8S 9C
        9H 9S 9D TS 4S 8D 2H
        JC 5S QD QH TH QS 6H
        5D AD JS 4H 8H 6C
        7H QC AS AC 2C 3D
        7C KH AH 4D JH 8C
        5H 3H 3C 7S 7D TC
    """,
    ("freecell", 617): """
        7D TD TH KD 4C 4S JD
        AD 7S QC 5H QS TS KS
        5C QD 3H 9S 9C 2H KC
        3S AC 9D 3C 9H 5D 4H
        5S 6D 6S 8S 7C JC
        8C 8H 8D 7H 6H 6C
        2D AS 3D 4D 2C JH
        AH KH TC JS 2S QH
    """,
    ("freecell", 11982): """
        AH 3D KD JC 6C JD KC
        AS 3H 6H 5D 2C 7D 8D
        4H QS 5S 5C TH 8H 2S
        AC QC 4D 8C QH 9C 3S
        2D 8S 9H 9D 6D 2H
        6S 7H JH TD TC QD
        TS AD 9S KH 4S 4C
        JS KS 3C 7C 7S 5H
    """,
    ("freecell", 2147483647): """
        9S JH 7S 5S 5D 5C 7D
        2H TC 6C AD QH JD 9C
        7C TD 3H TH 8C AS 7H
        5H QS 8S 3C 6H QC 8H
        4C 3S KD 2C 6S AC
        6D KH TS AH QD KC
        3D 8D 9D 2D 4H 2S
        4S JC 4D 9H JS KS
    """,
    ("chinese-freecell", 0): """
        AH 9D 4S 2S 9D QD 6S
        5H 3D 7S 4H 5S AD TS
        9S 6D 9S JS 2D TD 2S
        8H TH JD KS JH 6S TS
        KS 8D 4H 2D JH 5D AH
        AS 7D TD QD TH QS AS
        7S 3H 5D 3S QS 6H 8S
        AD 3S 6D JS 9H QH QH
        3H 3D KD 8S KH 9H KD
        4S 8D 5H 7D 7H 6H 7H
        2H 4D 5S KH JD 4D 2H 8H
    """,
    ("chinese-freecell", 1): """
        KD QH 7H 8H AS QH TD
        QD AS 9D 9S 3H 2D 7D
        4D TS 5H 6H 6H 2H 4H
        7S 3H KH 3S TH 8D 4S
        9H 5D 9S 4D AD KD TS
        QS AD 9H TH JH 8D 3D
        6S 2H 5H 3S 8S 5D 4S
        JD 4H JH 3D 7H JS 5S
        2D 7D 8H 8S 2S AH QS
        KS 7S JD QD KS KH 5S
        2S 6D 6D TD AH 6S 9D JS
    """,
    ("chinese-freecell", 9223372036854775807): """
        8D KS 3D 4D TD AH KD
        AS 6H 4S 2D 9D 9H AD
        2H QH KS TH 3H 7H 7H
        4H AD 5H 4S 7D 7S 6H
        8S QS TD 9S KH 9S TS
        7D JH 3H 6D 7S 6S 6D
        5H 8H 4D 2S JD 4H JH
        5D 5S 3S QH 9H 6S 2H
        JD 8D 2S AH 5S TH KD
        TS QD JS 9D QS KH 3S
        8S JS QD AS 2D 3D 8H 5D
    """,
    ("freecell-four-deck", 0): """
        8C 6H 3H QS QD 4C 8H 3S QH JS AC QS 2S 7S JC
        6D 9C 6S 3D KS KD JD TC TC AC 9C 3C TD 5D TD
        7C KC KS 6S AS 8C JC 4S KH JH QC JS AD 5H AS
        5D KC 4H AH TS 2D 9H AH 2D 3H 3H 4D 2S 5H QS
        7D QC 6C 6H 8S 6C 7S QH 9D JD 5C 6S TH 2C 7H
        QC 4S 2D 2H 8D KD 8H 4D QD 5S TD 4D KD 5S 6D
        5D 9D 3C KS 6D 5C 7D JD TC 9H AH AC 4H 9H 2S
        3C 5S 4D 6S 9S 3S 9S 5H 7D AD 4C JS JC JC 8S
        3C 6C 7H QD JH 8H 7C 8S QH AD AH 3D 7S 4C TS
        3S 7S 8H KH 3D 7H 9D 5C AC 2C 2H 8C JD TC QS
        QC JH 2H 4H KS 5D 7H 9H TH 2H 8D TS 9C 6D 7C
        JS 9C KD TH TD 8S AS KH 8D TS 9D QH 6H 4S 9S
        5S 3D AS TH 3H 6C 2D 2C KC 2C 5H AD 4C 8D
        6H QD KC 3S 8C 9S 7C 2S 7D 5C KH 4H JH 4S
    """,
    ("freecell-four-deck", 1): """
        AC JS 9D 4D KC 8S 7H AC 4H 6D TD QC AH 4S TS
        KD 2H 5S KC 8S JH 4S 3C AC 2D 5D 9C 4H 8S KS
        KS AH JS KS 5H JC 5C 7C AD TH 8C JC 3D QS 3S
        9H 8D 6S 4H 5C 6H 5H 8D KH 8C 3H 3C TD AS 5C
        QC 8C JC QD 3C QD 2S 3H 7D 9C 7C QH TS 2D 4C
        3H 6C 5D KH TH 5S 8S 2C QC 7S 4D 5S 4S 2H 5D
        JD 2C 8D AS 6H AH 9D 3D 4C JH 2S 3D 8D 9S 2S
        QH KH 7D AC KD 7H 6C KC TD 5H KC TH JD 6H AD
        AS 6S TC 4S 2S 5S 2D 6S TC QS 7H KH 7S JD 6D
        KD JD TC 3S 9D JC KS 6C AS QD 2H 4D 5H QS QH
        TS 9H QS 3S 3H 8H 6S 3C 4C 2H 9H AD 7S AD 7D
        7D JH JS 4H 9S 6D 8H 2D 2C 9S 3S 7S TS 5C QD
        5D AH QH JS 4C 4D 9S TH 3D 7C 6H JH 7H TD
        2C QC 9D 7C 9H 8C 6C TC 9C 8H KD 8H 6D 9C
    """,
    ("cell-eleven", 0): """
        QH
        TC 3D TD 7S QS 9C
        3C 4S 2S KC 6D 5S JS
        JC AC KH 8C 3S AH KD 5H
        4H 3H TH 2C JH 6S 7D 8S 8D
        7C 2H 8H 7H 6H 9D JD TS KS 4C
        QC 9H AD 2D 5D 6C 4D 5C QD AS 9S
    """,
    ("cell-eleven", 1): """
        5S
        3C 5H 3S 7H 6D 2S
        5C QS 4H JH KS 4S 3D
        9D 3H TC AD 2D 8S JD 8C
        6C 5D 8H 4D TH 2H KH AC JC
        JS 7D 9C QC 9S KD TS TD AS 9H
        6S AH 8D 4C KC 6H QH 2C 7C 7S QD
    """,
    ("cell-eleven", 9223372036854775807): """
        2C
        3H 3D 5H JH AC 6S
        9D QH 3S 6D 3C QD 7S
        7H TD 6C 9C 4D JS 2S AS
        6H 8C TS KD QS QC 8S 7D KH
        9H AH 4H TH 7C TC 2D 9S JD 8H
        AD KC 5S 4S 4C 2H 5D JC 5C 8D KS
    """,
    ("freecell-three-deck", 0): """
        9C 5C 5D 5H QH JH 8C 4D 6H 4S AD 4S 7H
        2D 2S 3S QS 8C TS 3H 9H 2H 8H AS 8H 5D
        KD 4H QC 9D 8H 4C QH AC 6C 5C KH QS TD
        QD 6D 4C 3C 6D 7H 5S 6C 3D 2C 9C 7S AS
        4D AD JS 6C KS 4H JC QC 7D QD 3S 6D 7C
        8S 2C TH TH 9D JS TD KC KC 4H 4S JH 3D
        8D AH 2D 4C QC TC 3S 5H 7S AH AS 6H TC
        AC 9C 2H JD AC 5D 2S 7H AH 2H 6H KH KS
        3H JH 7D 5S 7C KS 2S KC 3D 9D 6S 3C 5H
        TD 9S 9H TH 3H QH 9H KD 8C 6S 5C TS 6S
        JD 8S 7C 4D KH JC QS 5S 2C 3C AD 8D 7D
        JC KD JS 9S JD 8D TC TS QD 8S 2D 7S 9S
    """,
    ("freecell-three-deck", 1): """
        AS 5C 2C 4H 3S 2S 7S 2H 2H 6C JS 2S 7D
        AS 7D 3D 5H 3D 9H 6S KD 7H 9D TD 5S 4D
        6C 7D KS JC TC TH 6C 3H JH 9D 8C 9C 2D
        6H KC 7C 4C 8S AC 6D 8D 6S QS 9H 7H 3C
        8D 8C 8S 5C 9H KH 8H 4S TD KS QS 9C QH
        5D AC 6D 5S 3S 9S 5D KS 4D 8S AC JS QD
        TS QH KD TC 6S 4S 7S KH 8H KC 9S AD QC
        9S 8C 3C JD 2S QC 4S 6H 9C 4C TS AS 9D
        2H 2D 2C KC 4H 3S 3D 2D AH AH QH 5H 8D
        TS QC JD JC 7H JS TH 2C 7C 3H QS 8H 6H
        3C 6D TH 4H TC KD 3H JH 4D 5H 7S TD AH
        JD JH QD 4C JC 5D AD KH 5C AD 5S 7C QD
    """,
}


@pytest.mark.parametrize(("variant_id", "seed"), list(GOLDEN_DEALS))
def test_golden_deal(variant_id: str, seed: int) -> None:
    board = Board.deal(variant_by_id(variant_id), seed)
    expected = [line.split() for line in GOLDEN_DEALS[variant_id, seed].strip().splitlines()]
    assert [[card_text(card) for card in column] for column in board.tableau] == expected


def test_every_variant_has_golden_deals() -> None:
    assert {variant_id for variant_id, _ in GOLDEN_DEALS} == set(VARIANTS)


def test_microsoft_deal_one_starts_as_windows_shows_it() -> None:
    column_one = [card_text(card) for card in Board.deal(variant_by_id("freecell"), 1).tableau[0]]
    assert " ".join(column_one) == "JD KD 2S 4C 3S 6D 6S"


def test_microsoft_deals_are_eight_columns_of_seven_and_six() -> None:
    board = Board.deal(variant_by_id("freecell"), 24)
    assert [len(column) for column in board.tableau] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert Counter(card for column in board.tableau for card in column) == Counter(board.variant.deck())


@pytest.mark.parametrize(
    ("variant_id", "seed", "message"),
    [
        ("freecell", 0, "Microsoft deal numbers run from 1 to 2147483647, not 0"),
        ("freecell", -1, "Microsoft deal numbers run from 1 to 2147483647, not -1"),
        ("freecell", MS_MAX_DEAL + 1, "Microsoft deal numbers run from 1 to 2147483647, not 2147483648"),
        ("chinese-freecell", -1, "seeds run from 0 to 9223372036854775807, not -1"),
        ("cell-eleven", SEED_LIMIT, "seeds run from 0 to 9223372036854775807, not 9223372036854775808"),
    ],
)
def test_seeds_outside_the_range_are_refused(variant_id: str, seed: int, message: str) -> None:
    with pytest.raises(BadSeedError) as refused:
        Board.deal(variant_by_id(variant_id), seed)
    assert str(refused.value) == message


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_the_seed_range_edges_deal(variant_id: str) -> None:
    variant = variant_by_id(variant_id)
    low, high = variant.seed_range
    assert (low, high) == ((1, MS_MAX_DEAL) if variant_id == "freecell" else (0, SEED_LIMIT - 1))
    for seed in (low, high):
        board = Board.deal(variant, seed)
        assert Counter(card for column in board.tableau for card in column) == Counter(variant.deck())


@pytest.mark.parametrize("seed", ["7", 7.0, True, None, b"7"])
@pytest.mark.parametrize("variant_id", ["freecell", "freecell-three-deck"])
def test_a_seed_that_is_not_a_whole_number_is_a_bad_seed(variant_id: str, seed: object) -> None:
    with pytest.raises(BadSeedError, match="whole number"):
        Board.deal(variant_by_id(variant_id), seed)  # type: ignore[arg-type]


def test_splitmix64_matches_the_published_reference_outputs() -> None:
    """Seed 1234567: the five outputs Rosetta Code's "Pseudo-random numbers/Splitmix64" task lists; seed 0: the
    first output of Vigna's reference splitmix64.c."""
    generator = SplitMix64(1234567)
    assert [generator.next() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF


def test_the_v1_shuffle_is_fisher_yates_from_the_last_position_down() -> None:
    """Written out from docs/rules.md: for i from n-1 down to 1, j = below(i + 1), swap positions i and j."""
    generator = SplitMix64(42)
    deck = list(range(10))
    for i in range(len(deck) - 1, 0, -1):
        bound = i + 1
        limit = 2**64 - 2**64 % bound
        while (value := generator.next()) >= limit:
            pass
        j = value % bound
        deck[i], deck[j] = deck[j], deck[i]
    assert splitmix_order(42, list(range(10))) == deck


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_different_seeds_give_different_deals_and_the_same_seed_the_same(variant_id: str) -> None:
    variant = variant_by_id(variant_id)
    low = variant.seed_range[0]
    deals = [Board.deal(variant, seed).key() for seed in range(low, low + 20)]
    assert len(set(deals)) == 20
    assert Board.deal(variant, low + 3).key() == deals[3]
