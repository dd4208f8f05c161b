"""Argument helpers shared by the subcommands: variant and seed parsing with one clear message each."""

from __future__ import annotations

import argparse
import sys

from freecell_arena.engine import VARIANTS, BadSeedError, Variant, variant_by_id
from freecell_arena.engine.errors import UnknownVariantError


class UsageError(Exception):
    """Bad user input: the message is printed as is and the command exits 2."""


def variant_argument(text: str) -> Variant:
    try:
        return variant_by_id(text)
    except UnknownVariantError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def seed_for(variant: Variant, text: str) -> int:
    """Parse a seed (deal number for `freecell`) and check it against the variant's range."""
    try:
        seed = int(text, 10)
    except ValueError:
        raise UsageError(f"seed must be a whole number, not {text!r}") from None
    low, high = variant.seed_range
    if not low <= seed <= high:
        kind = "deal numbers" if variant.shuffle == "microsoft" else "seeds"
        raise UsageError(f"{variant.id} {kind} run from {low} to {high}, not {seed}")
    return seed


def fail(message: str, code: int = 2) -> int:
    print(f"freecell-arena: {message}", file=sys.stderr)
    return code


def add_variant_and_seed(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "variant", type=variant_argument, metavar="VARIANT", help=f"one of: {', '.join(VARIANTS)}"
    )
    parser.add_argument("seed", metavar="SEED", help="the deal number (freecell: Microsoft deal 1..2^31-1)")


__all__ = ["BadSeedError", "UsageError", "add_variant_and_seed", "fail", "seed_for", "variant_argument"]
