"""Which build of the package this process runs: `compiled` (mypyc's C extensions of the engine and its solver,
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
    "core/clock.py",  # a move reads the clock once and works out its playing time
    "core/effects.py",
    "core/live/play.py",
    "core/live/player_game.py",
    "core/live/changes.py",
    "core/live/shared_state.py",
    "protocol/trusted.py",  # the reply to every move, as wire text
)
"""What setup.py hands mypyc (paths in the package: a module, or a package with its subpackages)."""
# Not compiled, though on a move's path: the connection, its outbox, the effects' runner and the group commit.
# Compiled in a trial (2026-11-28) they measured 3-9 % less server CPU per move at 1,000 connections, but a full
# CI run of that build showed an exception of the group commit's retry (a compiled coroutine that awaits inside its
# `except` block) as the `__context__` of a later test's AssertionError in the same process, which interpreted
# code does not do; small reproductions did not show it, so these coroutines stay interpreted until it is understood.
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
