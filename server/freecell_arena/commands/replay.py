"""`freecell-arena replay VARIANT SEED [MOVE ...] [--file F]`: apply exactly these moves, no autoplay.

Prints the final board and, when the game is won, a last line `won in N moves`. The first illegal or unreadable
move prints its 1-based index, the move and why, and exits 1.
"""

from __future__ import annotations

import argparse
import sys

from freecell_arena.commands.common import UsageError, add_variant_and_seed, fail, seed_for
from freecell_arena.engine import Game, ReplayError
from freecell_arena.engine.view import board_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Apply exactly the given moves (no autoplay). Moves may be separated by spaces or newlines; `undo` takes "
        "back the last move; lines starting with # (such as `solve`'s summary) are comments."
    )
    add_variant_and_seed(parser)
    parser.add_argument("moves", nargs="*", metavar="MOVE", help="moves in the variant's notation")
    parser.add_argument("--file", "-f", metavar="F", help="read moves from a file (- for standard input)")
    parser.set_defaults(run=run)


def read_moves(args: argparse.Namespace) -> list[str]:
    words = list(args.moves)
    if args.file:
        try:
            if args.file == "-":
                text = sys.stdin.read()
            else:
                with open(args.file, encoding="utf-8") as handle:
                    text = handle.read()
        except OSError as error:
            raise UsageError(f"cannot read {args.file}: {error.strerror}") from None
        except UnicodeDecodeError:
            raise UsageError(f"{args.file} is not UTF-8 text") from None
        words.extend(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    return [word for text in words for word in text.split()]


def run(args: argparse.Namespace) -> int:
    try:
        seed = seed_for(args.variant, args.seed)
        moves = read_moves(args)
    except UsageError as error:
        return fail(str(error))
    game = Game(args.variant, seed, autoplay=False, undo_allowed=True)
    for number, action in enumerate(moves, start=1):
        try:
            game.act(action)
        except Exception as error:  # the engine's narrow errors; anything else is still the user's move
            replay_error = ReplayError(number, action, error)
            print(board_text(game.board, hide_face_down=False), end="")
            print(f"move {number} ({action}) refused: {replay_error.reason}", file=sys.stderr)
            return 1
    print(board_text(game.board, hide_face_down=False), end="")
    if game.board.is_won():
        print(f"won in {game.player_moves} moves")
    return 0
