"""Which build of the package this process runs: `compiled` (mypyc's C extensions of a move's path, `COMPILED`,
as setup.py builds them when asked: `FREECELL_ARENA_COMPILE=1 pip install .`) or `interpreted` (the same modules
as Python sources: the default install, an editable one, or `FREECELL_ARENA_PURE_PYTHON=1`). `freecell-arena
--version`, serve's first line and `/metrics` (`freecell_arena_build_info`) say it, so an operator knows what a
figure was measured on."""

from __future__ import annotations

import importlib.machinery
from pathlib import Path
from typing import Final, Literal

Build = Literal["compiled", "interpreted"]

COMPILED: Final = (
    "engine",  # with its subpackage engine.solver: every move's validation, apply and autoplay
    # core's part of a move, from the request to its effect: 10-12 % less server CPU per move than the engine
    # alone (bench/load.py, 200 connections, alternating both builds, 2026-11-28); the rest of core runs a few
    # times a race, not a move, and stays interpreted
    "core/arena.py",
    "core/effects.py",
    "core/live/play.py",
    "core/live/player_game.py",
    "core/live/changes.py",
    "core/live/shared_state.py",
    # the connection's part of a move (reading the frame, the effect's run, the reply's write) and the group
    # commit: 3-9 % less server CPU per move at 1,000 connections (bench/load.py, alternating with these modules
    # interpreted, 7 pairs, lower in each; 2026-11-28). More of core (rooms, races, seats, the race clock) compiled
    # too made no difference beyond the runs' noise: a game's setup is a few hundred moves apart
    "net/connection.py",
    "net/outbox.py",
    "net/direct_write.py",
    "net/effects.py",
    "net/ratelimit.py",
    "protocol/trusted.py",
    "store/group_commit.py",
)
"""What setup.py hands mypyc (paths in the package: a module, or a package with its subpackages)."""
INTERPRETED: Final = {  # modules of those that mypyc cannot compile as they are; nothing on a move's path
    "engine/errors.py": "an error that is both a ValueError and a KeyError (multiple builtin bases)",
}
"""The packages' __init__.py stay interpreted too: a compiled package runs its body before Python gives it a
__path__, so it could not import a sibling that is not compiled. They only gather names."""


def compiled_paths(package: Path) -> list[str]:
    """The modules the compiled build compiles, as paths in `package` (engine/board.py, ...)."""
    found: list[Path] = []
    for part in COMPILED:
        found += [package / part] if part.endswith(".py") else sorted((package / part).rglob("*.py"))
    paths = (path.relative_to(package).as_posix() for path in found if path.name != "__init__.py")
    return sorted(path for path in paths if path not in INTERPRETED)


def compiled_modules(package: Path) -> list[str]:
    """The same, as module names (freecell_arena.engine.board, ...)."""
    return ["freecell_arena." + path.removesuffix(".py").replace("/", ".") for path in compiled_paths(package)]


def running_build() -> Build:
    """Judged on the engine's board, the module every move goes through: loaded from a C extension or not."""
    from freecell_arena.engine import board

    loader = getattr(board.__spec__, "loader", None)
    return "compiled" if isinstance(loader, importlib.machinery.ExtensionFileLoader) else "interpreted"
