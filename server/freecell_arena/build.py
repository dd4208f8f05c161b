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
    "core/clock.py",  # a move reads the clock once and works out its playing time
    "core/effects.py",
    "core/live/play.py",
    "core/live/player_game.py",
    "core/live/changes.py",
    "core/live/shared_state.py",
    # the connection's part of a move (reading the frame, the effect's run, the reply's write) and the group
    # commit: 3-9 % less server CPU per move at 1,000 connections (bench/load.py, alternating with these modules
    # interpreted, 7 pairs, lower in each; 2026-11-28). Their coroutines await after an exception's handler, never
    # in it (`suspends_while_handling`, which setup.py enforces)
    "net/connection.py",
    "net/game_socket.py",  # the bytes in (websockets' parser fed) and the frames out (framed here when plain)
    "net/inbox.py",
    "net/outbox.py",
    "net/effects.py",
    "net/ratelimit.py",
    "protocol/trusted.py",  # the reply to every move, as wire text
    "store/group_commit.py",
    # and what a move passes through beside them: the room's fan-out, the SQLite writer and its statements. With
    # the block above: 0.94 x the CPU per move of engine and core alone, on the means of 4 alternating pairs at
    # 1,000 connections (2026-12-01; within the runs' noise pair by pair). Not net/app.py: glue over third-party
    # objects whose types at run time differ from their stubs (a list where a tuple is declared), which compiled
    # code checks and refuses; nor store/record_writes.py, whose generic class mypyc cannot build
    "net/coalesce.py",
    "core/events.py",
    "core/ports/move_record.py",  # a move's record, made every move
    "store/statements.py",
    "store/sqlite_writer.py",
    # a race's life around its moves: a room opened, joined, left, counted down, dealt and finished. A room of 4
    # formed by hand in core (bench/tournament_pairing.py's baseline: create, 3 joins, start): 341-353 us against
    # 399-408 with these interpreted, 0.85 x (three alternating runs, 2026-12-02). A name they import from an
    # interpreted module is looked up in their globals at each call, so a test may still replace it there
    # (`lobby.new_room_code`, tests/server/test_cluster_model.py)
    "core/live/lobby.py",
    "core/live/room.py",
    "core/live/races.py",
    "core/live/room_messages.py",
    "core/live/race_clock.py",
    "core/live/rooms.py",
    "core/live/seats.py",
    "core/live/games.py",
    "core/records/ranking.py",
    "core/live/daily_play.py",
    "core/live/players.py",
)
"""What setup.py hands mypyc (paths in the package: a module, or a package with its subpackages)."""
INTERPRETED: Final = {  # modules of those that mypyc cannot compile as they are; nothing on a move's path
    "engine/errors.py": "an error that is both a ValueError and a KeyError (multiple builtin bases)",
}
"""The packages' __init__.py stay interpreted too: a compiled package runs its body before Python gives it a
__path__, so it could not import a sibling that is not compiled. They only gather names."""


def suspends_while_handling(source: str) -> list[str]:
    """Where a coroutine (or generator) of `source` would suspend while it handles an exception: an `await`,
    `async for`, `async with`, `yield` in an `except` or `finally` block, and an `async with` other than
    `asyncio.timeout(...)` (its exit runs while the body's exception is handled, and may await). Compiled by mypyc
    (2.4), such a suspension leaves the exception set as the thread's handled exception while the event loop runs
    other tasks: every exception they raise meanwhile gets it as its `__context__` (a full CI run of a trial build
    showed a group commit's retry error inside a later test's AssertionError), and `sys.exc_info()` there sees it
    (mypyc/mypyc#1114, in a `finally` block: an exception lost). tests/test_build.py shows the first with a
    compiled probe. So setup.py refuses to compile a module with one: the code awaits after its handler instead.
    One line a finding: `LINE: what`."""
    import ast

    suspending = {ast.Await: "await", ast.AsyncFor: "async for", ast.AsyncWith: "async with", ast.Yield: "yield",
                  ast.YieldFrom: "yield from"}  # fmt: skip

    def inside(blocks: list[ast.stmt], where: str) -> list[str]:
        return [f"{node.lineno}: {suspending[type(node)]} in {where}"
                for block in blocks for node in ast.walk(block)
                if type(node) in suspending and isinstance(node, ast.expr | ast.stmt)]  # fmt: skip

    findings: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Try | ast.TryStar):
            handlers = [statement for handler in node.handlers for statement in handler.body]
            findings += inside(handlers, "an except block")
            findings += inside(node.finalbody, "a finally block")
        elif isinstance(node, ast.AsyncWith) and not all(map(_never_awaits_on_exit, node.items)):
            findings.append(f"{node.lineno}: async with (its exit may await while the body's exception is handled)")
    return sorted(findings, key=lambda finding: int(finding.partition(":")[0]))


def _never_awaits_on_exit(item: object) -> bool:
    """`asyncio.timeout(...)` and `asyncio.timeout_at(...)`: their `__aexit__` returns without suspending."""
    import ast

    call = getattr(item, "context_expr", None)
    function = call.func if isinstance(call, ast.Call) else None
    return (isinstance(function, ast.Attribute) and function.attr in ("timeout", "timeout_at")
            and isinstance(function.value, ast.Name) and function.value.id == "asyncio")  # fmt: skip


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
