"""Turn one text frame into a client message, or into the error that explains why it is not one.

One error code per kind of fault, each with a sentence that names the field (never pydantic's own text): a frame
that is not JSON is `invalid_json`; an unknown `type` is `unknown_type`; a move that does not spell a move, as text
or as a structured object, is `bad_notation` (docs/notation.md); any other field of the wrong JSON type, out of
range, missing or unknown is `invalid_message`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails, from_json

from freecell_arena.protocol.errors import ErrorCode, ErrorMessage
from freecell_arena.protocol.registry import CLIENT_MESSAGES, CLIENT_TYPES, ClientMessage
from freecell_arena.protocol.wire import MAX_SAFE_INTEGER


def request_id_of(text: str | bytes) -> str | int | None:
    """Best effort: the `id` of a frame that failed validation, so the error still answers its request. Never
    raises: any frame the size limit lets through, however deeply nested, gives an id or None (pydantic-core's
    parser stops at its recursion limit with a ValueError where `json.loads` would raise RecursionError). Only an
    id the server may echo comes back: a string, or an integer within I-JSON's range."""
    try:
        data: Any = from_json(text)
    except ValueError:
        return None
    if isinstance(data, dict):
        value = data.get("id")
        if isinstance(value, str):
            return value
        if type(value) is int and abs(value) <= MAX_SAFE_INTEGER:
            return value
    return None


# ---------------------------------------------------------------------------- sentences

_EXPECTED = {
    "string_type": "a string",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "model_type": "an object",
    "model_attributes_type": "an object",
    "dict_type": "an object",
    "typed_dict_type": "an object",
    "list_type": "an array",
    "none_required": "null",
    "date_type": "a date (YYYY-MM-DD)",
    "date_parsing": "a date (YYYY-MM-DD)",
    "date_from_datetime_parsing": "a date (YYYY-MM-DD)",
    "date_from_datetime_inexact": "a date (YYYY-MM-DD)",
}
"""What a field of the wrong JSON type should have been, by pydantic's error type."""

_BOUNDS = {
    "greater_than_equal": ("ge", "at least {}"),
    "greater_than": ("gt", "more than {}"),
    "less_than_equal": ("le", "at most {}"),
    "less_than": ("lt", "less than {}"),
    "string_too_short": ("min_length", "at least {} characters long"),
    "string_too_long": ("max_length", "at most {} characters long"),
    "too_short": ("min_length", "at least {} items long"),
    "too_long": ("max_length", "at most {} items long"),
}


_FIELD = re.compile(r"[a-z][a-z0-9_]*")
_MEMBER_NAMES = frozenset({"str", "int", "bool", "float", "none", "date"})


def _is_member(step: str | int) -> bool:
    """A step of an error's location that names a union's member (`str`, `MoveJson`, `constrained-int`) rather
    than a field: fields are snake_case words (or list indices)."""
    return isinstance(step, str) and (step in _MEMBER_NAMES or _FIELD.fullmatch(step) is None)


def _field(loc: Sequence[str | int]) -> str:
    steps = [step if isinstance(step, str) else f"[{step}]" for step in loc if not _is_member(step)]
    return ".".join(steps).replace(".[", "[")


def _shown(value: object) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _sentence(item: ErrorDetails, field: str, expected: list[str]) -> str:
    kind = item["type"]
    ctx = item.get("ctx") or {}
    named = f"`{field}`" if field else "the message"
    if kind == "missing":
        return f"{named} is required"
    if kind == "extra_forbidden":
        return f"{named} is not a known field (unknown fields are refused)"
    if expected:
        return f"{named} must be {' or '.join(dict.fromkeys(expected))}, not {_shown(item['input'])}"
    if kind in ("literal_error", "enum"):
        return f"{named} must be {ctx.get('expected', 'one of the listed values')}, not {_shown(item['input'])}"
    if kind in _BOUNDS:
        key, phrase = _BOUNDS[kind]
        return f"{named} must be {phrase.format(ctx.get(key))}, not {_shown(item['input'])}"
    if kind == "string_pattern_mismatch":
        return f"{named} is not in the expected form ({ctx.get('pattern')}): {_shown(item['input'])}"
    message = str(ctx["error"]) if kind == "value_error" and "error" in ctx else item["msg"]
    return f"{named}: {message}" if field else message


def describe(items: Sequence[ErrorDetails], *, tagged: bool = True, limit: int = 3) -> str:
    """Sentences for refused input, one per faulty field (at most `limit`), each naming the field. `tagged`: each
    location starts with the message's `type` (the union's tag), which is no field. The errors of a union's
    members at one field (`id` is neither a string nor a whole number) make one sentence, unless a member of the
    right type has its own complaint (a range, a pattern), which says more."""
    grouped: dict[str, list[ErrorDetails]] = {}
    for item in items:
        loc = item["loc"][1:] if tagged else item["loc"]
        grouped.setdefault(_field(loc), []).append(item)
    sentences = []
    for field, faults in list(grouped.items())[:limit]:
        specific = [fault for fault in faults if fault["type"] not in _EXPECTED]
        if specific:
            sentences.append(_sentence(specific[0], field, []))
        else:
            sentences.append(_sentence(faults[0], field, [_EXPECTED[fault["type"]] for fault in faults]))
    return "; ".join(sentences)


# ---------------------------------------------------------------------------- decoding


def _is_move_fault(items: Sequence[ErrorDetails]) -> bool:
    """Every fault of the frame lies in a `move` request's `move` field: the move does not spell a move."""
    return all(item["loc"][:2] == ("move", "move") and item["type"] != "missing" for item in items)


def _bad_move(items: Sequence[ErrorDetails]) -> str:
    inside = [item for item in items if len(item["loc"]) > 3]  # ("move", "move", "MoveJson", field): the object form
    if not inside:
        return "`move` must be notation text (\"3a\", \"t3-c1\") or a structured move object (docs/notation.md)"
    return describe(inside)


def decode(text: str | bytes) -> ClientMessage | ErrorMessage:
    """Validate a frame against the discriminated union on `type` (one TypeAdapter, one pass). The adapter's own
    validator is called straight: `TypeAdapter.validate_json` only passes its defaults on to it, at ~0.3 us a
    frame, one frame per move."""
    if isinstance(text, bytes):
        return ErrorMessage(code=ErrorCode.invalid_message, message="frames must be JSON text, not binary")
    try:
        return CLIENT_MESSAGES.validator.validate_json(text)  # type: ignore[no-any-return]
    except ValidationError as error:
        items = error.errors(include_url=False)
        kinds = {item["type"] for item in items}
        if "json_invalid" in kinds or "json_type" in kinds:
            return ErrorMessage(code=ErrorCode.invalid_json, message="the frame is not valid JSON text")
        request_id = request_id_of(text)
        if _is_move_fault(items):
            return ErrorMessage(id=request_id, code=ErrorCode.bad_notation, message=_bad_move(items))
        if "model_attributes_type" in kinds or "model_type" in kinds:
            return ErrorMessage(id=request_id, code=ErrorCode.invalid_message, message="a message is a JSON object")
        if "union_tag_invalid" in kinds:
            known = ", ".join(sorted(CLIENT_TYPES))
            return ErrorMessage(
                id=request_id, code=ErrorCode.unknown_type, message=f"unknown message type; known types: {known}"
            )
        if "union_tag_not_found" in kinds:
            return ErrorMessage(id=request_id, code=ErrorCode.invalid_message, message="every message needs a `type`")
        return ErrorMessage(id=request_id, code=ErrorCode.invalid_message, message=describe(items))

