"""The rules engine: pure, no I/O, no asyncio, no pydantic. Everything above it imports from here.

A game is `(variant, seed, actions)`; every position is rebuilt by replaying actions on the seed's deal.
"""

from freecell_arena.engine.atomic import single_card_moves
from freecell_arena.engine.autoplay import is_safe, safe_autoplay
from freecell_arena.engine.board import Board, LegalMoves
from freecell_arena.engine.cards import card_from_text, card_text, is_red, make_card, rank_of, suit_of
from freecell_arena.engine.errors import (
    BadSeedError,
    EngineError,
    IllegalMoveError,
    NotationError,
    UnknownVariantError,
)
from freecell_arena.engine.game import Counts, Game, ReplayError, Turn
from freecell_arena.engine.moves import CELL, FOUNDATION, TABLEAU, Move, Zone
from freecell_arena.engine.notation import (
    UNDO,
    format_generic,
    format_move,
    move_from_fields,
    move_from_json,
    move_to_json,
    parse_move,
)
from freecell_arena.engine.variants import VARIANTS, RunLimit, Variant, variant_by_id

RULES_VERSION = "1"
"""Bumped whenever a rule, a deal or the notation changes meaning; stored with every game."""

__all__ = [
    "CELL",
    "FOUNDATION",
    "RULES_VERSION",
    "TABLEAU",
    "UNDO",
    "VARIANTS",
    "BadSeedError",
    "Board",
    "Counts",
    "EngineError",
    "Game",
    "IllegalMoveError",
    "LegalMoves",
    "Move",
    "NotationError",
    "ReplayError",
    "RunLimit",
    "Turn",
    "UnknownVariantError",
    "Variant",
    "Zone",
    "card_from_text",
    "card_text",
    "format_generic",
    "format_move",
    "is_red",
    "is_safe",
    "make_card",
    "move_from_fields",
    "move_from_json",
    "move_to_json",
    "parse_move",
    "rank_of",
    "safe_autoplay",
    "single_card_moves",
    "suit_of",
    "variant_by_id",
]
