"""Claimed names: when two names are the same name, so that a saved player's name is theirs alone.

Two names are the same when they differ only by case, by compatibility forms (full-width letters, ligatures,
mathematical letters) or by look-alike characters (Cyrillic capital A, U+0410, for Latin "A"; digit "0" for
letter "O"). Each name has a small set of *keys*; two names are the same when their key sets meet, and a claim
stores its keys in a column the database keeps unique (as SHA-256 digests: `key_hashes`), so two processes can
never hand the same name to two players.

Why two keys and not one: case folding and look-alikes do not commute. Capital "I" looks like small "l", so
"AIice" (capital i) passes for "Alice"; but folding case first turns it into "aiice", which looks like nothing.
Mapping look-alikes first instead would make "ALICE" ("ALlCE") differ from "alice". So a name has:

- its folded key: NFKD, case folding, NFKC (`fold`), then the confusables skeleton, then fold again (a skeleton
  may map to a capital, like "0" to "O"): "ALICE", "alice", full-width "alice" and "alice" with a Cyrillic "a"
  share it;
- its shape key: NFKC as displayed, the skeleton, then fold: "AIice" shares it with "Alice", hence with "alice".

The skeleton is the one of Unicode Technical Standard #39 (section 4): NFD, each character replaced by its
prototype from Unicode's confusables.txt, NFD again (to a fixed point, see `skeleton`). The data ships with the
package, reduced to the characters that can survive NFKC (`confusables.txt` beside this module;
`.ci/reduce_confusables.py` makes it). No kept Python library offers the skeleton: `confusable-homoglyphs` only
answers "is this string mixed-script and confusable", and `confusables` (last release 2021) builds fuzzy
regular expressions; neither gives a key a unique index can hold.

The limits: confusables.txt lists single characters that look alike in common fonts; sequences that look like
one character are the same only where Unicode lists them (it maps "m" to "rn"), and a name can still resemble
another at a glance without being the same by these rules ("AIice" and "allce" are different names).
"""

from __future__ import annotations

import hashlib
import unicodedata
from functools import cache
from importlib.resources import files

CONFUSABLES_FILE = "confusables.txt"


def parse_confusables(text: str) -> dict[str, str]:
    """`source;target` lines (hex code points; the target may hold several, space-separated) -> a map."""
    mapping: dict[str, str] = {}
    for line in text.splitlines():
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        source, target = data.split(";")
        mapping[chr(int(source, 16))] = "".join(chr(int(code, 16)) for code in target.split())
    return mapping


@cache
def confusables() -> dict[str, str]:
    """The shipped prototypes, read once (about 2,500 characters)."""
    return parse_confusables(files(__package__).joinpath(CONFUSABLES_FILE).read_text(encoding="utf-8"))


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, every character replaced by its prototype, NFD again; repeated until nothing
    changes. Only for comparing: a skeleton mixes scripts and is never shown.

    The repetition is ours: the standard says the skeleton is idempotent, but a few prototypes decompose into
    characters that have prototypes of their own (U+048B's prototype holds "й", whose NFD starts with "и",
    itself mapped), so one pass could give two spellings of one name two keys.
    """
    prototypes = confusables()
    current = unicodedata.normalize("NFD", text)
    while True:
        mapped = unicodedata.normalize("NFD", "".join(prototypes.get(character, character) for character in current))
        if mapped == current:
            return mapped
        current = mapped


def fold(text: str) -> str:
    """Case folding between NFKD and NFKC: folding a decomposed string keeps each mark on its letter, where
    folding a composed one can move it (U+1FCC, capital eta with prosgegrammeni, folds to eta and iota, and a
    perispomeni after it would land on the iota); the last NFKC composes again. This is the order Unicode's
    compatibility caseless match uses (NFKD, then case folding)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKD", text).casefold())


def name_keys(name: str) -> frozenset[str]:
    """The keys a name is claimed under: its folded key and its shape key (often one and the same)."""
    folded = fold(skeleton(fold(name)))
    shape = fold(skeleton(unicodedata.normalize("NFKC", name)))
    return frozenset({folded, shape})


def key_hashes(name: str) -> frozenset[str]:
    """What the store keeps of the keys: their SHA-256 in hex. A key can be long (NFKC and the skeleton expand
    some characters into many: U+FDFA into 18), and a hash fits any unique index on either backend."""
    return frozenset(hashlib.sha256(key.encode()).hexdigest() for key in name_keys(name))


def same_name(first: str, second: str) -> bool:
    """Whether the two names are one name for claiming: their keys meet."""
    return not name_keys(first).isdisjoint(name_keys(second))
