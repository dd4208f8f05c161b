"""The `freecell-arena` command line: one module per subcommand in `freecell_arena/commands/`.

Each command module defines `add_arguments(parser)`, which adds its arguments and sets `run`, a function from
the parsed arguments to an exit code. Only the module of the command being run is imported: `--help`, `deal`,
`replay` and `solve` never pay for SQLAlchemy, Alembic or pydantic (see bench/cli_startup.py). User errors
print one clear line on stderr and exit 2; illegal moves in `replay` exit 1; no user input ever shows a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from freecell_arena import __version__

# name -> the one line `freecell-arena --help` shows; the module is freecell_arena.commands.<name>
COMMANDS: dict[str, str] = {
    "audit": "replay every ranked game and check every stored figure players see",
    "backup": "write a consistent copy of the database while the server runs",
    "daily": "daily challenge tools: prepare deals ahead",
    "deal": "print the deal of a variant and seed",
    "drain": "drain a running server process (players move to the others) and wait until it exits",
    "export": "write every public finished game as a JSON line (open data)",
    "migrate": "create or upgrade the database schema",
    "mod": "moderation: moderators, reports, sanctions and the mod log",
    "prune": "delete what may go: expired challenges, long-revoked tokens, idle unsaved players",
    "replay": "apply moves to a deal and print the final board",
    "serve": "run the game server (websocket + GET /healthz)",
    "solve": "solve a deal: the moves and the par, or unsolvable / unknown",
}


class VersionAction(argparse.Action):
    """`--version`: the version and the build that runs (compiled or interpreted: freecell_arena.build), found
    only when asked, since finding it imports the engine."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from freecell_arena.build import running_build

        print(f"freecell-arena {__version__} ({running_build()})")  # on stdout, as argparse's own version action
        parser.exit()


def build_parser(argv: Sequence[str] = (), *, every_command: bool = False) -> argparse.ArgumentParser:
    """The parser for `argv`: every command is listed, but only the one `argv` names (or, with `every_command`,
    all of them) is imported to add its arguments."""
    parser = argparse.ArgumentParser(
        prog="freecell-arena",
        description="FreeCell Arena: deals, replays and the game server for five FreeCell variants.",
    )
    parser.add_argument("--version", action=VersionAction, nargs=0, help="show the version and the build, and exit")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = command_named_in(argv)
    for name, summary in COMMANDS.items():
        command_parser = subparsers.add_parser(name, help=summary, description=summary)
        if every_command or name == chosen:
            importlib.import_module(f"freecell_arena.commands.{name}").add_arguments(command_parser)
    return parser


def command_named_in(argv: Sequence[str]) -> str | None:
    """The subcommand `argv` asks for: the first word that is not an option (the top level has no option that
    takes a value), if it is a command."""
    first = next((word for word in argv if not word.startswith("-")), None)
    return first if first in COMMANDS else None


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    run = getattr(args, "run", None)
    if run is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(run(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
