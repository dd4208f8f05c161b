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


def one_line(error: BaseException) -> str:
    """An error as one line: the database driver's own message where SQLAlchemy wrapped one."""
    cause = getattr(error, "orig", None) or error
    return " ".join(str(cause).split()) or type(cause).__name__


def database_url_argument(parser: argparse.ArgumentParser) -> None:
    """`--database-url URL`, for the commands that use the database (the store's names are imported only here, when
    such a command's parser is built: the light commands never load the database stack)."""
    from freecell_arena.store.urls import DATABASE_URL_ENV, DEFAULT_DATABASE_URL

    parser.add_argument(
        "--database-url",
        metavar="URL",
        default=None,
        help=f"sqlite:///FILE or postgresql://USER@HOST/DB (default: ${DATABASE_URL_ENV}, else {DEFAULT_DATABASE_URL})",
    )


def add_variant_and_seed(parser: argparse.ArgumentParser, *, optional: bool = False) -> None:
    """VARIANT SEED, or `[VARIANT SEED]` where the command can read them elsewhere (`replay --game`)."""
    nargs = "?" if optional else None
    parser.add_argument(
        "variant", nargs=nargs, type=variant_argument, metavar="VARIANT", help=f"one of: {', '.join(VARIANTS)}"
    )
    seed_help = "the deal number (freecell: Microsoft deal 1..2^31-1)"
    parser.add_argument("seed", nargs=nargs, metavar="SEED", help=seed_help)


__all__ = [
    "BadSeedError",
    "UsageError",
    "add_variant_and_seed",
    "database_url_argument",
    "fail",
    "one_line",
    "seed_for",
    "variant_argument",
]
