"""FreeCell Arena: a server-authoritative FreeCell racing server.

Where setup.py compiled the engine and its solver with mypyc, each compiled module's C extension sits beside its
source and Python imports the extension. `FREECELL_ARENA_PURE_PYTHON=1` imports the sources instead (the same
code, interpreted), for a comparison or a suspicion: the finder below answers for this package's modules with
their `.py` files only.
"""

from __future__ import annotations

import os

__version__ = "0.1.0"

if os.environ.get("FREECELL_ARENA_PURE_PYTHON") == "1":
    import importlib.machinery
    import sys
    from collections.abc import Sequence
    from types import ModuleType

    class _SourcesOnly:
        """A meta path finder for freecell_arena.*: the module's source file, never its extension."""

        @staticmethod
        def find_spec(
            name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
        ) -> importlib.machinery.ModuleSpec | None:
            if not name.startswith(__name__ + ".") or not path:
                return None
            loaders = [(importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)]
            for entry in path:
                spec = importlib.machinery.FileFinder(entry, *loaders).find_spec(name, target)
                if spec is not None:
                    return spec
            return None

    sys.meta_path.insert(0, _SourcesOnly())
