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
from freecell_arena.build import compiled_modules, compiled_paths, running_build, suspends_while_handling

REPO = Path(__file__).resolve().parents[1]
TRACE = Path(__file__).with_name("engine_trace.py")
PROBE = """
import importlib.machinery, sys
import freecell_arena.core.arena, freecell_arena.engine.solver.solve
from freecell_arena.build import compiled_modules, compiled_paths, running_build, suspends_while_handling
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


SUSPENDING = '''
import asyncio


class Refused(Exception):
    pass


async def fail() -> None:
    await asyncio.sleep(0)
    raise Refused("the first write")


async def in_handler(hold: asyncio.Event) -> None:
    try:
        await fail()
    except Refused:
        await hold.wait()


async def after_handler(hold: asyncio.Event) -> None:
    failed = False
    try:
        await fail()
    except Refused:
        failed = True
    if failed:
        await hold.wait()
'''
WATCHER = """
import asyncio, sys
import suspending
async def other(hold):
    await asyncio.sleep(0.01)
    try:
        raise AssertionError("another task's own error")
    except AssertionError as error:
        seen = error.__context__
    hold.set()
    return seen
async def main():
    for shape in (suspending.in_handler, suspending.after_handler):
        hold = asyncio.Event()
        _, seen = await asyncio.gather(shape(hold), other(hold))
        print(shape.__name__, repr(seen))
print("compiled" if suspending.__file__.endswith((".so", ".pyd")) else "interpreted")
asyncio.run(main())
"""


def test_no_compiled_module_suspends_while_handling_an_exception() -> None:
    package = REPO / "server" / "freecell_arena"
    findings = {path: suspends_while_handling((package / path).read_text()) for path in compiled_paths(package)}
    assert {path: found for path, found in findings.items() if found} == {}
    assert "net/connection.py" in findings and "store/group_commit.py" in findings


def test_the_rule_finds_each_suspension_while_handling() -> None:
    source = '''
import asyncio
async def shapes(lock: asyncio.Lock) -> None:
    try:
        await asyncio.sleep(0)
    except ValueError:
        await asyncio.sleep(0)
    finally:
        async with lock:
            pass
    async with asyncio.timeout(1):
        await asyncio.sleep(0)
    async with lock:
        pass
def generator() -> object:
    try:
        yield 1
    except KeyError:
        yield 2
'''
    assert suspends_while_handling(source) == [
        "7: await in an except block",
        "9: async with in a finally block",
        "9: async with (its exit may await while the body's exception is handled)",
        "13: async with (its exit may await while the body's exception is handled)",
        "19: yield in an except block",
    ]
    assert suspends_while_handling(SUSPENDING) == ["18: await in an except block"]  # after_handler's shape passes


def test_why_compiled_coroutines_await_after_their_handler(tmp_path: Path) -> None:
    """mypyc's build of `in_handler` hands the exception it handles to another task as its error's context while
    it waits; `after_handler`, the shape the rule asks for, hands nothing on. Interpreted, neither does."""
    (tmp_path / "suspending.py").write_text(SUSPENDING)
    (tmp_path / "watcher.py").write_text(WATCHER)
    interpreted = subprocess.run([sys.executable, "watcher.py"], capture_output=True, text=True, timeout=60,
                                 cwd=tmp_path, check=True).stdout.split("\n")  # fmt: skip
    assert interpreted[:3] == ["interpreted", "in_handler None", "after_handler None"]
    mypyc = subprocess.run([sys.executable, "-m", "mypyc", "suspending.py"], capture_output=True, text=True,
                           timeout=300, cwd=tmp_path)  # fmt: skip
    assert mypyc.returncode == 0, mypyc.stdout[-2000:] + mypyc.stderr[-2000:]
    compiled = subprocess.run([sys.executable, "watcher.py"], capture_output=True, text=True, timeout=60,
                              cwd=tmp_path, check=True).stdout.split("\n")  # fmt: skip
    assert compiled[0] == "compiled"
    assert compiled[2] == "after_handler None"
    if compiled[1] == "in_handler None":
        pytest.skip("this mypyc no longer leaks the handled exception: build.py's rule could be relaxed")
    assert compiled[1] == "in_handler Refused('the first write')"
