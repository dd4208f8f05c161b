"""Turn one text frame into a client message, or into the error that explains why it is not one."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from pydantic_core import from_json

from freecell_arena.protocol.messages import CLIENT_MESSAGES, ClientMessage, ErrorCode, ErrorMessage


def request_id_of(text: str | bytes) -> str | int | None:
    """Best effort: the `id` of a frame that failed validation, so the error still answers its request. Never
    raises: any frame the size limit lets through, however deeply nested, gives an id or None (pydantic-core's
    parser stops at its recursion limit with a ValueError where `json.loads` would raise RecursionError)."""
    try:
        data: Any = from_json(text)
    except ValueError:
        return None
    if isinstance(data, dict):
        value = data.get("id")
        if isinstance(value, str | int) and not isinstance(value, bool):
            return value
    return None


def _describe(error: ValidationError) -> str:
    parts = []
    for item in error.errors(include_url=False)[:3]:
        where = ".".join(str(step) for step in item["loc"]) or "message"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


def decode(text: str | bytes) -> ClientMessage | ErrorMessage:
    """Validate a frame against the discriminated union on `type` (one TypeAdapter, one pass)."""
    if isinstance(text, bytes):
        return ErrorMessage(code=ErrorCode.invalid_message, message="frames must be JSON text, not binary")
    try:
        return CLIENT_MESSAGES.validate_json(text)
    except ValidationError as error:
        kinds = {item["type"] for item in error.errors(include_url=False)}
        if "json_invalid" in kinds or "json_type" in kinds:
            return ErrorMessage(code=ErrorCode.invalid_json, message=f"the frame is not valid JSON: {_describe(error)}")
        request_id = request_id_of(text)
        if "model_attributes_type" in kinds or "model_type" in kinds:
            return ErrorMessage(id=request_id, code=ErrorCode.invalid_message, message="a message is a JSON object")
        if "union_tag_invalid" in kinds:
            known = ", ".join(sorted(CLIENT_TYPES))
            return ErrorMessage(
                id=request_id, code=ErrorCode.unknown_type, message=f"unknown message type; known types: {known}"
            )
        if "union_tag_not_found" in kinds:
            return ErrorMessage(id=request_id, code=ErrorCode.invalid_message, message="every message needs a `type`")
        return ErrorMessage(id=request_id, code=ErrorCode.invalid_message, message=_describe(error))


def _client_types() -> set[str]:
    from typing import get_args

    from freecell_arena.protocol import messages

    union = get_args(messages.ClientMessage)[0]
    return {model.model_fields["type"].default for model in get_args(union)}


CLIENT_TYPES = _client_types()
