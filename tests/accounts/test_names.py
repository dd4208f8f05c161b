"""Claimed names: case, compatibility forms and look-alikes make one name; different names stay different."""

from __future__ import annotations

import unicodedata

import pytest

from freecell_arena.core.accounts.names import (
    confusables,
    fold,
    key_hashes,
    name_keys,
    parse_confusables,
    same_name,
    skeleton,
)

CYRILLIC_A = "\u0410"
GREEK_CAPITAL_ZETA = "\u0396"


@pytest.mark.parametrize(
    ("claimed", "other"),
    [
        ("alice", "ALICE"),
        ("alice", "Alice"),
        ("alice", f"{CYRILLIC_A}lice"),  # Cyrillic capital A
        ("alice", "\uff41\uff4c\uff49\uff43\uff45"),  # full-width
        ("Alice", "AIice"),  # capital i for small L
        ("alice", "AIice"),  # ... and "Alice" is alice's, in any case
        ("alice", "a1ice"),  # digit one
        ("bob", "b0b"),  # digit zero, whose prototype is a capital O
        ("Zoe", f"{GREEK_CAPITAL_ZETA}oe"),
        ("fish", "\ufb01sh"),  # the "fi" ligature
        ("Straße", "STRASSE"),  # full case folding
        ("Zoë", "Zoe\u0308"),  # composed and decomposed
        ("scope", "\u0455\u0441\u043e\u0440\u0435"),  # all Cyrillic
    ],
)
def test_look_alikes_are_the_same_name(claimed: str, other: str) -> None:
    assert same_name(claimed, other)
    assert same_name(other, claimed)
    assert not key_hashes(claimed).isdisjoint(key_hashes(other))


@pytest.mark.parametrize(
    ("first", "second"),
    [("alice", "alicia"), ("Bob", "Rob"), ("Zoë", "Zoe"), ("AIice", "allce"), ("ann", "anna"), ("李", "杏")],
)
def test_different_names_stay_different(first: str, second: str) -> None:
    assert not same_name(first, second)
    assert key_hashes(first).isdisjoint(key_hashes(second))


def test_the_skeleton_is_idempotent_on_the_shipped_data() -> None:
    """UTS #39 promises skeleton(skeleton(x)) == skeleton(x); a bad reduction of the data would break it."""
    for source, target in confusables().items():
        once = skeleton(source)
        assert skeleton(once) == once, (source, target)


def test_the_shipped_data_holds_the_mappings_names_need() -> None:
    mapping = confusables()
    assert mapping[CYRILLIC_A] == "A"
    assert mapping["0"] == "O"
    assert mapping["I"] == "l"
    assert 2000 < len(mapping) < 6400  # reduced from Unicode's 6,311, not emptied
    # what NFKC always replaces is left out (the point of the reduction): full-width and mathematical letters
    assert "\uff41" not in mapping
    assert "\U0001d41a" not in mapping
    assert mapping["\u0430"] == "a"  # Cyrillic small a survives NFKC, so its mapping is kept


def test_parse_confusables_reads_sequences_and_skips_comments() -> None:
    text = "# a comment\n\n0031;006C\n01C4;0044 017D  # a note\n"
    assert parse_confusables(text) == {"1": "l", "\u01c4": "D\u017d"}


def test_fold_is_a_fixed_point_for_every_character() -> None:
    """A key must not depend on whether a name was folded once or twice (a stored name is folded again)."""
    for code in range(0x110000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        once = fold(chr(code))
        assert fold(once) == once, hex(code)


def test_every_character_is_one_name_with_its_other_cases_and_normal_forms() -> None:
    """For every assigned visible character: its capital, title-case and NFKC forms are the same name (inside
    a name, so marks have a letter to sit on). This found U+1FC7, whose title case moved a mark when folded
    composed; `fold` now folds the decomposed form."""
    different = []
    for code in range(0x110000):
        character = chr(code)
        if unicodedata.category(character) in {"Cn", "Co", "Cs", "Cc", "Cf"}:
            continue
        for variant in {character.upper(), character.title(), unicodedata.normalize("NFKC", character)} - {character}:
            if not same_name(f"a{character}b", f"a{variant}b"):
                different.append((hex(code), variant))
    assert different == []


def test_a_name_has_at_most_two_keys_and_they_are_digests() -> None:
    assert len(name_keys("ALICE")) == 2
    assert len(name_keys("alice")) == 1
    assert all(len(digest) == 64 and int(digest, 16) >= 0 for digest in key_hashes("ALICE"))
