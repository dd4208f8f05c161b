"""Narrow errors: every refusal says which rule refused and why, in words a player understands."""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""


class UnknownVariantError(EngineError, KeyError):
    """A variant id that the engine does not know."""

    def __init__(self, variant_id: str, known: list[str]) -> None:
        self.variant_id = variant_id
        super().__init__(f"unknown variant {variant_id!r}; known variants: {', '.join(known)}")

    def __str__(self) -> str:  # KeyError would otherwise quote the message
        return str(self.args[0])


class BadSeedError(EngineError):
    """A seed or deal number outside what the variant's shuffle accepts."""


class NotationError(EngineError):
    """Text or JSON that does not spell a move (it says nothing about legality)."""


class IllegalMoveError(EngineError):
    """A well-formed move that the rules refuse.

    `code` is stable snake_case for programs (it becomes the protocol's reason code); `message` is a sentence for
    people, with the numbers that matter (run length and limit, the refusing card, ...).
    """

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(message)
