"""`freecell-arena replay VARIANT SEED [MOVE ...] [--file F]`: apply exactly these moves, no autoplay.
`freecell-arena replay --game F`: replay the games of a game text file (docs/notation.md, "Game text").

Prints the final board and, when the game is won, a last line `won in N moves`. The first illegal or unreadable
move prints its 1-based index, the move and why, and exits 1. A game text file's games are replayed as their tags
say (autoplay on or off) and each must end as its `Result` and `Moves` tags say; a file of many games (an export)
prints one line for them all, read one game at a time.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable

from freecell_arena.commands.common import UsageError, add_variant_and_seed, fail, seed_for
from freecell_arena.engine import BadSeedError, Game, ReplayError
from freecell_arena.engine.game_text import GameTextError, read_games
from freecell_arena.engine.view import board_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Apply exactly the given moves (no autoplay). Moves may be separated by spaces or newlines; `undo` takes "
        "back the last move; lines starting with # (such as `solve`'s summary) are comments."
    )
    add_variant_and_seed(parser, optional=True)
    parser.add_argument("moves", nargs="*", metavar="MOVE", help="moves in the variant's notation")
    parser.add_argument("--file", "-f", metavar="F", help="read moves from a file (- for standard input)")
    parser.add_argument(
        "--game", "-g", metavar="F", help="replay the games of a game text file instead (- for standard input)"
    )
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
    if args.game is not None:
        if args.variant is not None or args.file:
            return fail("--game reads the variant, the seed and the moves from the file: give nothing else")
        return replay_games(args.game)
    if args.variant is None or args.seed is None:
        return fail("give VARIANT and SEED (or --game F)")
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


def replay_games(path: str) -> int:
    """Every game of the file, one at a time, held to its tags."""
    try:
        if path == "-":
            return _replay_records(sys.stdin)
        with open(path, encoding="utf-8") as handle:
            return _replay_records(handle)
    except OSError as error:
        return fail(f"cannot read {path}: {error.strerror}")
    except UnicodeDecodeError:
        return fail(f"{path} is not UTF-8 text")


def _replay_records(lines: Iterable[str]) -> int:
    count, last = 0, None
    try:
        for record in read_games(lines):
            try:
                last = record.check()
            except ReplayError as refused:
                return fail(f"the game at line {record.line}: move {refused.number} ({refused.action}) refused: "
                            f"{refused.reason}", 1)  # fmt: skip
            except BadSeedError as error:
                return fail(f"the game at line {record.line}: {error}", 1)
            count += 1
    except GameTextError as error:
        return fail(f"not a game text: {error}", 1)
    if last is None:
        return fail("the file holds no game", 1)
    if count == 1:
        print(board_text(last.board, hide_face_down=False), end="")
        if last.board.is_won():
            print(f"won in {last.player_moves} moves")
    else:
        print(f"{count} games replayed, each to the end its record says")
    return 0
