"""`freecell-arena deal VARIANT SEED [--json]`: print a deal (the whole deal: this is a local tool)."""

from __future__ import annotations

import argparse
import json

from freecell_arena.commands.common import UsageError, add_variant_and_seed, fail, seed_for
from freecell_arena.engine import Board, card_text
from freecell_arena.engine.view import board_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_variant_and_seed(parser)
    parser.add_argument("--json", action="store_true", help="print JSON instead of board text")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        seed = seed_for(args.variant, args.seed)
    except UsageError as error:
        return fail(str(error))
    board = Board.deal(args.variant, seed)
    if args.json:
        print(json.dumps(deal_json(board), indent=2))
    else:
        print(board_text(board, hide_face_down=False), end="")
    return 0


def deal_json(board: Board) -> dict[str, object]:
    return {
        "variant": board.variant.id,
        "seed": board.seed,
        "tableau": [[card_text(card) for card in column] for column in board.tableau],
        "face_down": list(board.hidden),
        "cells": board.variant.cells,
        "foundations": len(board.variant.foundation_suits),
    }
