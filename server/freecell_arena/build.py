"""Which build of the package this process runs: `compiled` (mypyc's C extensions of the engine and its solver,
as setup.py builds them when asked: `FREECELL_ARENA_COMPILE=1 pip install .`) or `interpreted` (the same modules
as Python sources: the default install, an editable one, or `FREECELL_ARENA_PURE_PYTHON=1`). `freecell-arena
--version`, serve's first line and `/metrics` (`freecell_arena_build_info`) say it, so an operator knows what a
figure was measured on."""

from __future__ import annotations

import importlib.machinery
from typing import Literal

Build = Literal["compiled", "interpreted"]


def running_build() -> Build:
    """Judged on the engine's board, the module every move goes through: loaded from a C extension or not."""
    from freecell_arena.engine import board

    loader = getattr(board.__spec__, "loader", None)
    return "compiled" if isinstance(loader, importlib.machinery.ExtensionFileLoader) else "interpreted"
