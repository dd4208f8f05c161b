"""A move's road through the package: the modules one move frame runs code in, and how often it goes back into a
module it had already left.

    python3 bench/move_road.py                                        # the package on the path (this checkout)
    PYTHONPATH=/path/to/other/checkout/server python3 bench/move_road.py   # another checkout's, for a baseline

A real server runs in this process (a fresh SQLite file in a temporary folder, its event loop, uvloop where the
settings say so, in a thread of its own); a websockets client in the main thread says hello, opens a one-player
race on Microsoft deal 1 and plays a few legal moves to warm everything up. Then `sys.setprofile` watches the
server's thread while one more move goes through: from the call of the `data_received` that brings its bytes to
the transport's write of its reply (the group commit's write runs in the SQLite writer's own thread and is not
watched; what the reader does after the reply is written, its metrics and its wait for the next frame, is not
counted). Only the move's own work is counted: callbacks, the connection's reader task, the group commit's task
and any task begun meanwhile; the server's other tasks (the tick, the watch, the sweepers) are not.

What is counted, over the package's modules (`freecell_arena.*`): a module is *entered* when one of its functions
is called, or one of its coroutines resumed, from code of another module (asyncio's loop included); a *re-entry*
is an entry into a module the move had entered before. A call within a module is no entry, and a return is none:
a layered road (a caller that calls each module below it once) has no re-entries, a coroutine suspended and
resumed re-enters every module on its await chain, and a helper module called from three places is re-entered
twice. The sources are imported, not the compiled build's extensions (`FREECELL_ARENA_PURE_PYTHON=1`, set here):
compiled code runs no Python frames, so it would be invisible. Figures, not timings: the same code gives the same
counts on any machine (tests/server/test_move_road.py holds them under the aim of issue 50).
"""

from __future__ import annotations

import os

os.environ["FREECELL_ARENA_PURE_PYTHON"] = "1"  # before the package is imported: see the docstring

import argparse
import asyncio
import json
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

PACKAGE = "freecell_arena"
LAYERS = ("net", "protocol", "core", "engine", "store")
LIBRARY = "engine"
WARM_UP_MOVES = 6
SETTLE_S = 0.3
"""Before the watched move: time for the server to finish with the last one (its reader waits for the next frame)."""
TIMEOUT_S = 120.0
"""A loaded machine (a suite alongside) can take most of a minute to start the server."""


@dataclass
class Road:
    """The module entries of one move, in order."""

    entries: list[str] = field(default_factory=list)

    @property
    def modules(self) -> list[str]:
        return list(dict.fromkeys(self.entries))

    @property
    def reentries(self) -> Counter[str]:
        counts = Counter(self.entries)
        return Counter({module: count - 1 for module, count in counts.items() if count > 1})

    def layer(self, name: str) -> Road:
        """The entries into one layer's modules (`net`, `core`, `store`, `protocol`, `engine`)."""
        return Road([module for module in self.entries if module.partition(".")[0] == name])


def module_of(frame: FrameType | None) -> str:
    return "" if frame is None else str(frame.f_globals.get("__name__", ""))


def in_package(module: str) -> bool:
    return module == PACKAGE or module.startswith(PACKAGE + ".")


def unit_of(module: str) -> str:
    """The part of the road a module is: itself, but the engine is one (a library of pure rules under core, whose
    modules call each other for every card: its inner structure is the rules', not the road's)."""
    name = module.removeprefix(PACKAGE + ".")
    return LIBRARY if name == LIBRARY or name.startswith(LIBRARY + ".") else name


def await_chain(coroutine: Any) -> Iterator[Any]:
    """Each coroutine a task's coroutine awaits, outermost first."""
    while coroutine is not None and hasattr(coroutine, "cr_code"):
        yield coroutine
        coroutine = coroutine.cr_await


def reader_of(task: asyncio.Task[Any]) -> Any:
    """The connection (net/connection.py's `Connection`) whose reader is `task`, or None."""
    for coroutine in await_chain(task.get_coro()):
        code: CodeType = coroutine.cr_code
        if code.co_name == "run" and code.co_filename.endswith("connection.py"):
            return coroutine.cr_frame.f_locals["self"]
    return None


class WriteSpy:
    """The connection's transport, telling the watch when something is written (the reply, in the watched move)."""

    def __init__(self, transport: Any, watch: Watch) -> None:
        self._transport = transport
        self._watch = watch

    def write(self, data: bytes) -> None:
        self._watch.ended = True
        self._transport.write(data)

    def writelines(self, data: Any) -> None:
        self._watch.ended = True
        self._transport.writelines(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class Watch:
    """`sys.setprofile`'s function on the server's thread: the entries of the move's own work, once it began."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.road = Road()
        self.begun = False
        self.background: set[asyncio.Task[Any]] = set()
        self.ended = False
        """The reply is written: nothing more is counted."""
        """The server's tasks that are not the move's (the tick, the watch, ...), found when the watch is armed."""

    def arm(self) -> None:
        """In the loop's thread: every task but the connection's reader and the group commit's is background, and
        the connection's transport tells when the reply is written."""
        for task in asyncio.all_tasks(self.loop):
            reader = reader_of(task)
            if reader is not None:
                socket = reader.websocket
                socket.transport = WriteSpy(socket.transport, self)
            elif task.get_name() != "group-commit-writer":
                self.background.add(task)
        sys.setprofile(self.profile)

    def disarm(self) -> None:
        sys.setprofile(None)

    def profile(self, frame: FrameType, event: str, _arg: object) -> None:
        if self.ended or event != "call":
            return
        module = module_of(frame)
        if not in_package(module):
            return
        if not self.begun:
            if frame.f_code.co_name != "data_received":
                return
            self.begun = True
        if asyncio.current_task(self.loop) in self.background:
            return
        unit = unit_of(module)
        if unit_of(module_of(frame.f_back)) != unit:
            self.road.entries.append(unit)


class ServerThread:
    """A server on a free loopback port, its loop in a thread of its own."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.loop: asyncio.AbstractEventLoop | None = None
        self.port = 0
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name="server", daemon=True)

    def start(self) -> None:
        self._thread.start()
        if not self._ready.wait(TIMEOUT_S):
            raise RuntimeError("the server did not start")

    def stop(self) -> None:
        if self.loop is not None and self._stop is not None:
            self.loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(TIMEOUT_S)

    def call(self, function: Any) -> None:
        """Run `function` in the server's thread, at its loop's next turn."""
        assert self.loop is not None
        self.loop.call_soon_threadsafe(function)

    def _run(self) -> None:
        from freecell_arena.commands.serve import loop_factory
        from freecell_arena.settings import Settings

        with asyncio.Runner(loop_factory=loop_factory(Settings().process.event_loop)) as runner:
            runner.run(self._serve())

    async def _serve(self) -> None:
        from freecell_arena.net.app import ArenaServer
        from freecell_arena.settings import Settings
        from freecell_arena.store import GroupCommitWriter, SqlStore, migrate

        url = f"sqlite+aiosqlite:///{self.folder / 'road.db'}"
        await migrate(url)
        settings = Settings(host="127.0.0.1", port=0, database_url=url, daily_prepare_interval_s=0,
                            par_at_race_end=False, tick_interval_s=0.02)  # fmt: skip
        store = SqlStore(url)
        server = ArenaServer(settings, store, GroupCommitWriter(store))
        await server.start()
        self.loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        self.port = server.port
        self._ready.set()
        try:
            await self._stop.wait()
        finally:
            await server.shutdown()


class Player:
    """A websockets client (its sync API: its own thread reads) playing legal moves the engine picks."""

    def __init__(self, websocket: Any) -> None:
        self.websocket = websocket
        self.ids = 0
        self.game: Any = None
        self.rng = random.Random(1)

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        self.ids += 1
        self.websocket.send(json.dumps({**message, "id": self.ids}))
        return self.expect(lambda frame: frame.get("id") == self.ids)

    def expect(self, wanted: Any) -> dict[str, Any]:
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            frame = json.loads(self.websocket.recv(timeout=max(0.0, deadline - time.monotonic())))
            if wanted(frame):
                return dict(frame)

    def start_race(self) -> None:
        from freecell_arena.engine import Game, variant_by_id

        self.request({"type": "hello", "name": "road", "bot": True})
        options = {"countdown_s": 0, "autoplay": True}
        created = self.request({"type": "create_room", "variant": "freecell", "deal": 1, "options": options})
        assert created["type"] == "room", created
        self.request({"type": "start_race"})
        started = self.expect(lambda frame: frame.get("type") == "race_started")
        self.game = Game(variant_by_id("freecell"), int(started["game"]["seed"]), autoplay=True)

    def move_frame(self) -> str:
        """The next move's frame (the engine's choice, foundation moves first), played on the client's copy."""
        from freecell_arena.engine import FOUNDATION, format_move

        moves = sorted(self.game.board.legal_moves, key=str)
        home = [move for move in moves if move.to_zone == FOUNDATION]
        move = self.rng.choice(home or moves)
        self.game.play(move)
        self.ids += 1
        return json.dumps({"type": "move", "move": format_move(self.game.variant, move), "id": self.ids})

    def move(self) -> dict[str, Any]:
        self.websocket.send(self.move_frame())
        reply = self.expect(lambda frame: frame.get("id") == self.ids)
        assert reply["type"] == "move_accepted", reply
        return reply


def trace_one_move() -> Road:
    from websockets.sync.client import connect

    with tempfile.TemporaryDirectory(prefix="freecell-arena-road-") as folder:
        server = ServerThread(Path(folder))
        server.start()
        try:
            with connect(f"ws://127.0.0.1:{server.port}/", proxy=None) as websocket:
                return traced(Player(websocket), server)
        finally:
            server.stop()


def traced(player: Player, server: ServerThread) -> Road:
    """The road of one move of `player`'s, after a race's start and a few moves."""
    player.start_race()
    for _ in range(WARM_UP_MOVES):
        player.move()
    time.sleep(SETTLE_S)
    assert server.loop is not None
    watch = Watch(server.loop)
    armed = threading.Event()
    server.call(lambda: (watch.arm(), armed.set()))
    armed.wait(TIMEOUT_S)
    player.move()
    disarmed = threading.Event()
    server.call(lambda: (watch.disarm(), disarmed.set()))
    disarmed.wait(TIMEOUT_S)
    return watch.road


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--road", action="store_true", help="print every entry, in order")
    args = parser.parse_args()
    import freecell_arena

    road = trace_one_move()
    print(f"package: {Path(freecell_arena.__file__).parent}")
    if args.road:
        for number, module in enumerate(road.entries, 1):
            print(f"{number:4} {module}")
    print("modules, in the order first entered: " + ", ".join(road.modules))
    reentered = ", ".join(f"{module} {count}" for module, count in road.reentries.most_common())
    print(f"re-entered: {reentered or 'none'}")
    for layer in LAYERS:
        part = road.layer(layer)
        print(f"{layer}: {len(part.modules)} modules, {sum(part.reentries.values())} re-entries")
    print(f"modules: {len(road.modules)}  re-entries: {sum(road.reentries.values())}")


if __name__ == "__main__":
    main()
