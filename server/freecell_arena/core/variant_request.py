"""The variant a request names, or the refusal its player sees: shared by core's handlers and net's queries."""

from __future__ import annotations

from freecell_arena.core.effects import Refusal
from freecell_arena.engine import UnknownVariantError, Variant, variant_by_id
from freecell_arena.protocol.errors import ErrorCode


def known_variant(variant_id: str) -> Variant:
    try:
        return variant_by_id(variant_id)
    except UnknownVariantError as error:
        raise Refusal(ErrorCode.unknown_variant, str(error)) from None
