"""The compiled engine and the interpreted one play every game alike, and a process says which one it runs
(setup.py, freecell_arena/build.py, docs/performance.md).

The comparison replays the seeded games of tests/engine_trace.py (legal moves, undos, refused moves, autoplay,
node-limited solves) once on each build and compares the two traces line by line. Under an interpreted install
(README's editable one, CI) it first compiles the engine with setup.py into a temporary folder, as
`FREECELL_ARENA_COMPILE=1 pip install .` would (about a minute on two cores, nothing cached); under a compiled
install it compares that install with `FREECELL_ARENA_PURE_PYTHON=1`.
"""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from freecell_arena import __version__
from freecell_arena.build import compiled_modules, running_build

REPO = Path(__file__).resolve().parents[1]
TRACE = Path(__file__).with_name("engine_trace.py")
PROBE = """
import importlib.machinery, sys
import freecell_arena.core.arena, freecell_arena.engine.solver.solve
from freecell_arena.build import compiled_modules, running_build
ours = {name: module for name, module in sys.modules.items() if name.startswith("freecell_arena.")}
extensions = sorted(name for name, module in ours.items()
                    if isinstance(getattr(module.__spec__, "loader", None), importlib.machinery.ExtensionFileLoader))
print(running_build(), len(ours), " ".join(extensions))
"""


def run(*command: str | Path, timeout: float = 120, pythonpath: str = "", **env: str) -> str:
    """`command` from the checkout, `pythonpath` ahead of the PYTHONPATH the tests run with."""
    paths = os.pathsep.join(path for path in (pythonpath, os.environ.get("PYTHONPATH", "")) if path)
    result = subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=timeout,
                            env={**os.environ, **env, "PYTHONPATH": paths}, cwd=REPO)  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result.stdout


@pytest.fixture(scope="module")
def compiled_path(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A PYTHONPATH under which the engine runs compiled: the installed package if it is compiled, else the
    checkout's package with the extensions setup.py builds into a temporary folder."""
    if running_build() == "compiled":
        yield ""
        return
    work = tmp_path_factory.mktemp("compiled")
    library = work / "lib"
    run(sys.executable, "setup.py", "-q", "build_ext", "--build-lib", library, "--build-temp", work / "temp",
        timeout=900, FREECELL_ARENA_COMPILE="1", FREECELL_ARENA_MYPYC_DIR=str(work / "c"))  # fmt: skip
    shutil.copytree(REPO / "server" / "freecell_arena", library / "freecell_arena", dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    yield str(library)


def trace(pythonpath: str, **env: str) -> list[str]:
    return run(sys.executable, TRACE, "--games", "30", pythonpath=pythonpath, **env).splitlines()


def test_both_builds_play_every_game_alike(compiled_path: str) -> None:
    compiled = trace(compiled_path)
    interpreted = trace("", FREECELL_ARENA_PURE_PYTHON="1")
    assert (compiled[0], interpreted[0]) == ("# build compiled", "# build interpreted")
    assert len(compiled) == len(interpreted) > 15_000
    for number, (left, right) in enumerate(zip(compiled, interpreted, strict=True)):
        if number:
            assert left == right, f"line {number + 1} differs"
    assert sum(line.startswith("solve ") and ": solved nodes=" in line for line in compiled) >= 5
    assert sum(": refused IllegalMoveError" in line for line in compiled) > 1000


def probe(pythonpath: str = "", **env: str) -> tuple[str, int, list[str]]:
    build, count, *extensions = run(sys.executable, "-c", PROBE, pythonpath=pythonpath, **env).split()
    return build, int(count), extensions


def test_the_compiled_build_imports_what_setup_compiles_and_nothing_else(compiled_path: str) -> None:
    build, count, extensions = probe(compiled_path)
    assert build == "compiled"
    assert {"freecell_arena.engine.board", "freecell_arena.engine.moves", "freecell_arena.engine.autoplay",
            "freecell_arena.engine.solver.search", "freecell_arena.core.live.play"} <= set(extensions), extensions
    shared = "freecell_arena._native__mypyc"  # the library that holds every compiled module's code
    compiled = set(compiled_modules(REPO / "server" / "freecell_arena"))
    assert {name for name in extensions if name != shared} <= compiled, extensions
    assert count > 40


def test_pure_python_imports_every_module_from_its_source(compiled_path: str) -> None:
    build, count, extensions = probe(compiled_path, FREECELL_ARENA_PURE_PYTHON="1")
    assert (build, extensions) == ("interpreted", [])
    assert count > 40


def test_version_says_the_build(compiled_path: str) -> None:
    for pure, build in (("0", "compiled"), ("1", "interpreted")):
        said = run(sys.executable, "-m", "freecell_arena", "--version", pythonpath=compiled_path,
                   FREECELL_ARENA_PURE_PYTHON=pure)  # fmt: skip
        assert said.strip() == f"freecell-arena {__version__} ({build})"


def test_running_build_reads_the_loader() -> None:
    from freecell_arena.engine import board

    compiled = isinstance(board.__spec__.loader, importlib.machinery.ExtensionFileLoader)
    assert running_build() == ("compiled" if compiled else "interpreted")
