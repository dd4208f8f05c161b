"""What every message of the wire is made of: the base models, the protocol's version, and the shared shapes.

Frames are JSON text. Every message has `type`; a request may carry `id` (string or integer), echoed in its
reply. A server message is a `Message` (unknown fields refused, every field always written); a client's is a
`Request`, read strictly (`STRICT`). The shapes several topics share live here, each written once: I-JSON's safe
integers, a request's `id`, a variant's id, a seed (an `int` in Python, a decimal string on the wire), a player's
name (what may be shown to everyone), and a page of rows (`Limit`, `Cursor`, `Around`).

The messages themselves live in one module per topic (`rooms`, `play`, `leaderboards`, ...); `registry` gathers
them into the unions the codec reads and the documents are generated from. This is the one module of the
protocol that imports the engine (for the variants' ids).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationInfo,
    WithJsonSchema,
)
from pydantic_core import PydanticCustomError

from freecell_arena.engine import VARIANTS

PROTOCOL_VERSION = 4
"""4: seeds travel as decimal strings, requests are strict (exact JSON types), `welcome` announces the limits.
3: room events (`member_joined`, ...) instead of the whole room to everyone. 2: `move_accepted` carries `changes`."""


MAX_SAFE_INTEGER = 2**53 - 1
"""I-JSON (RFC 7493): no integer on the wire outside +-(2^53 - 1), the integers every JSON parser holds exactly
(a JavaScript number's). Seeds, which run to 2^63 - 1, travel as decimal strings instead (`Seed`)."""


SafeInt = Annotated[int, Field(ge=-MAX_SAFE_INTEGER, le=MAX_SAFE_INTEGER)]


RequestId = Annotated[
    str | SafeInt | None,
    Field(description="Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply."),
]


VariantId = Annotated[
    str,
    Field(
        json_schema_extra={"enum": list(VARIANTS)},
        description="A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.",
    ),
]


SEED_TEXT = re.compile(r"(0|[1-9][0-9]{0,18})")
"""A seed's decimal text: digits, no sign, no leading zero, at most 19 digits (seeds run to 2^63 - 1)."""


SEED_SCHEMA_TEXT = {"type": "string", "pattern": f"^{SEED_TEXT.pattern}$"}


SEED_DESCRIPTION = (
    "A deal's seed as a decimal string (`\"7654041082873553397\"`): seeds run to 2^63 - 1, beyond what a JSON "
    "number holds exactly in JavaScript. The deal number, in `freecell`."
)


def _seed_from_wire(value: object, info: ValidationInfo) -> object:
    """A seed from a frame: its decimal text, or (what protocol 3 clients sent) a JSON integer within I-JSON's range.
    (The server's own values, validated in Python, are ints of any size a seed may have.)"""
    if isinstance(value, str):
        if SEED_TEXT.fullmatch(value) is None:
            raise PydanticCustomError("seed_text", "a seed is a decimal string of digits, like \"42\"")
        return int(value)
    if info.mode == "json" and type(value) is int and value > MAX_SAFE_INTEGER:
        raise PydanticCustomError(
            "seed_unsafe", "a seed above 2^53 - 1 travels as a decimal string (a JSON number that large loses digits)"
        )
    return value


Seed = Annotated[
    int,
    BeforeValidator(_seed_from_wire),
    Field(ge=0),
    PlainSerializer(str, return_type=str, when_used="json"),
    WithJsonSchema(
        {
            "description": SEED_DESCRIPTION + " A JSON integer up to 2^53 - 1 is accepted too.",
            "oneOf": [SEED_SCHEMA_TEXT, {"type": "integer", "minimum": 0, "maximum": MAX_SAFE_INTEGER}],
        },
        mode="validation",
    ),
    WithJsonSchema({"description": SEED_DESCRIPTION, **SEED_SCHEMA_TEXT}, mode="serialization"),
]
"""A seed: an `int` in Python, a decimal string on the wire (every server frame; a request may also send a JSON
integer within +-(2^53 - 1), as protocol 3 clients did)."""


class Message(BaseModel):
    """Base of every message: unknown fields are refused so typos surface as errors. A server message always
    carries every field, defaults included: its schema says so (`specs.WireSchema`)."""

    model_config = ConfigDict(extra="forbid")


STRICT = ConfigDict(extra="forbid", strict=True)
"""What a client sends is strict: each field exactly its JSON type (`true` is no number, `1.0` no index, `"2"` no
count, `"yes"` no boolean), so every client means the same thing by the same frame. (HTTP's query strings are
text: `net/http_api.py` reads them laxly, on purpose.)"""


class Request(Message):
    """A client's request (strict: `STRICT`)."""

    model_config = STRICT


def encode(message: Message) -> str:
    """The JSON text of a server message (aliases on, so `MoveJson.from_` is spelled `from`)."""
    return message.model_dump_json(by_alias=True)


NAME_MAX_LENGTH = 32


REFUSED_IN_NAMES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories no name may hold: controls (NUL, ANSI escapes), format characters (bidi overrides like
U+202E, zero-width joiners and spaces), surrogates, private use, unassigned, line and paragraph separators."""


def visible_name(text: str, most: int) -> str:
    """A name as everyone will see it: NFC, trimmed, visible characters only, 1 to `most` characters."""
    name = unicodedata.normalize("NFC", text).strip()
    for character in name:
        if unicodedata.category(character) in REFUSED_IN_NAMES:
            raise ValueError(f"names may not hold control or invisible characters (U+{ord(character):04X})")
    if not 1 <= len(name) <= most:
        raise ValueError(f"a name has 1 to {most} visible characters")
    return name


def _player_name(text: str) -> str:
    return visible_name(text, NAME_MAX_LENGTH)


PlayerName = Annotated[
    str,
    AfterValidator(_player_name),
    Field(min_length=1, max_length=4 * NAME_MAX_LENGTH,
          description="1-32 characters once trimmed and NFC-normalized; no control or invisible characters."),
]  # fmt: skip


PAGE_LIMIT = 100
"""Most rows one leaderboard, season or history page returns."""


Limit = Annotated[int, Field(ge=1, le=PAGE_LIMIT, description=f"Rows per page (1..{PAGE_LIMIT}).")]


Cursor = Annotated[
    str | None, Field(default=None, max_length=256, description="`next_cursor` of the previous page, unchanged.")
]


Around = Annotated[
    str | None,
    Field(
        default=None,
        max_length=64,
        description="A player id: that player's row with the rows just above and below it (`limit` in all).",
    ),
]
