"""The `freecell-arena` command line: every module in `freecell_arena/commands/` that defines `register` is a
subcommand.

A command registers its parser and sets `run`, a function from the parsed arguments to an exit code. User errors
print one clear line on stderr and exit 2; illegal moves in `replay` exit 1; no user input ever shows a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

import freecell_arena.commands
from freecell_arena import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="freecell-arena",
        description="FreeCell Arena: deals, replays and the game server for five FreeCell variants.",
    )
    parser.add_argument("--version", action="version", version=f"freecell-arena {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_info in sorted(pkgutil.iter_modules(freecell_arena.commands.__path__), key=lambda info: info.name):
        module = importlib.import_module(f"freecell_arena.commands.{module_info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
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
