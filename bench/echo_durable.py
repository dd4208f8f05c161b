"""The durable echo: the floor for acknowledging only durable moves on this stack (bench/load.py --echo durable).

The asyncio echo (`echo_server.py`) answers at once; the game server answers a move only once it is committed.
This echo does the least a server must do for that: each move frame is appended to a SQLite file (WAL,
synchronous=FULL, as the server's store opens it) by one writer thread, gathered into group commits with the
server's own window (`FREECELL_ARENA_COMMIT_DELAY_MS`: the first frame of a batch waits that long for company,
and frames that arrive while a commit runs go into the next one), and the reply goes out after COMMIT. No
parsing, no rules, no rooms. The game server's CPU per move beside this one's is what its game logic, protocol
and bookkeeping cost on top of the durable round trip (issue 25's targets).

    python bench/load.py --connections 1000 --echo durable         # the game server, then this echo
    python bench/echo_durable.py --port 0 --replies replies.json
    python bench/load.py --connections 1024 --room-size 64 --echo durable   # rooms of 64: progress to the others

With `--room-size` N the connections race in rooms of N, as the load client seats them (`create_room`, then
`join_room` by the code this echo made up), and after each durable move the mover's progress goes to the rest of
its room the way the game server's coalescing sends it (`progress_window_ms`: at once when the room's window is
closed, else the latest of each racer when it closes), each frame formatted once and written straight to the
members' sockets (websockets' `broadcast`: no wait, no task). So the server's CPU per move beside this one's is
what its game logic costs in a room, fan-out included on both sides.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from echo_server import MOVE_REQUEST, arguments_and_answer, until_stopped
from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.protocol import State

from freecell_arena.net.compression import serve_options
from freecell_arena.settings import Settings
from freecell_arena.store.engine import sqlite_pragmas

PROGRESS = ('{{"type":"progress","code":"{code}","progress":{{"player_id":"p_{racer:016x}","name":"load-{racer}",'
            '"status":"playing","cards_on_foundations":{home},"moves":{moves},"time_ms":{moves}000}}}}')
"""A `progress` frame shaped like the game server's (its counts made up)."""


class DurableLog:
    """Append-only frames in SQLite, group-committed by one thread; `append` returns once the frame is durable."""

    def __init__(self, path: Path, window_s: float) -> None:
        self.window_s = window_s
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="durable-echo")
        self._pending: list[tuple[str, asyncio.Future[None]]] = []
        self._wake = asyncio.Event()
        self._connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        for pragma in sqlite_pragmas():  # as the server's store opens its file
            self._connection.execute(pragma)
        self._connection.execute("CREATE TABLE frames (id INTEGER PRIMARY KEY, frame TEXT NOT NULL)")
        self._task = asyncio.get_running_loop().create_task(self._commit_forever())

    async def append(self, frame: str) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((frame, done))
        self._wake.set()
        await done

    async def _commit_forever(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self._wake.wait()
            if self.window_s:
                await asyncio.sleep(self.window_s)  # the server's window: the first write waits for company
            batch, self._pending = self._pending, []
            self._wake.clear()
            try:
                await loop.run_in_executor(self._executor, self._commit, [(frame,) for frame, _ in batch])
            except Exception as error:  # the load client sees the failure instead of waiting forever
                for _, done in batch:
                    if not done.done():
                        done.set_exception(error)
                continue
            for _, done in batch:
                if not done.done():
                    done.set_result(None)

    def _commit(self, rows: list[tuple[str]]) -> None:
        self._connection.execute("BEGIN IMMEDIATE")
        self._connection.executemany("INSERT INTO frames (frame) VALUES (?)", rows)
        self._connection.execute("COMMIT")

    def close(self) -> None:
        self._task.cancel()
        self._executor.shutdown(wait=True)
        self._connection.close()


class EchoRooms:
    """Room mode: who is in which room, and each room's progress window (as net/coalesce.py opens and closes
    them)."""

    def __init__(self, window_s: float) -> None:
        self.window_s = window_s
        self.members: dict[str, list[ServerConnection]] = {}
        self.room_of: dict[ServerConnection, str] = {}
        self.moves: dict[ServerConnection, int] = {}
        self.windows: dict[str, dict[ServerConnection, str]] = {}
        self.dropped = 0

    def seat(self, websocket: ServerConnection, frame: str) -> str | None:
        """The reply to a `create_room` or `join_room` (a room of the echo's own); None for any other frame."""
        if not frame.startswith(('{"type": "create_room"', '{"type": "join_room"')):
            return None
        request = json.loads(frame)
        code = request.get("code") or f"E{len(self.members) + 1}"
        self.members.setdefault(code, []).append(websocket)
        self.room_of[websocket] = code
        return json.dumps({"type": "room", "id": request.get("id"), "room": {"code": code}})

    def moved(self, websocket: ServerConnection) -> None:
        code = self.room_of.get(websocket)
        if code is None:
            return
        moves = self.moves[websocket] = self.moves.get(websocket, 0) + 1
        text = PROGRESS.format(code=code, racer=id(websocket), home=moves // 4, moves=moves)
        window = self.windows.get(code)
        if window is not None and self.window_s > 0:
            window[websocket] = text
            return
        self._to_others(code, websocket, text)
        self._open(code)

    def _open(self, code: str) -> None:
        if self.window_s > 0:
            self.windows[code] = {}
            asyncio.get_running_loop().call_later(self.window_s, self._close, code)

    def _close(self, code: str) -> None:
        pending = self.windows.pop(code, None)
        if pending:
            for racer, text in pending.items():
                self._to_others(code, racer, text)
            self._open(code)

    def _to_others(self, code: str, racer: ServerConnection, text: str) -> None:
        others = [member for member in self.members[code] if member is not racer]
        reading = [member for member in others if member.state is State.OPEN]
        self.dropped += len(others) - len(reading)  # a member whose socket is closing: the bench tolerates a gap
        broadcast(reading, text)


async def main() -> None:
    args, answer = arguments_and_answer(__doc__.splitlines()[0])
    settings = Settings()
    with tempfile.TemporaryDirectory(prefix="freecell-arena-durable-echo-") as directory:
        log = DurableLog(Path(directory) / "frames.db", settings.store.commit_delay_ms / 1000)

        rooms = EchoRooms(settings.rooms.progress_window_ms / 1000) if args.room_size > 1 else None

        async def echo(websocket: ServerConnection) -> None:
            async for frame in websocket:
                if not isinstance(frame, str):
                    await websocket.send(frame)
                    continue
                if frame.startswith(MOVE_REQUEST):
                    await log.append(frame)
                    await websocket.send(answer(frame))
                    if rooms is not None:
                        rooms.moved(websocket)
                    continue
                await websocket.send((rooms and rooms.seat(websocket, frame)) or answer(frame))

        try:
            async with serve(
                echo, args.host, args.port,
                max_size=settings.connection.max_message_bytes * 4, ping_interval=settings.connection.ping_interval_s,
                **serve_options(settings.connection.compression, settings.connection.compression_min_bytes),
                ping_timeout=settings.connection.ping_timeout_s, close_timeout=2,
            ) as server:  # fmt: skip
                port = server.sockets[0].getsockname()[1]
                print(f"echo: listening on ws://{args.host}:{port}/", flush=True)
                await until_stopped()
        finally:
            log.close()


if __name__ == "__main__":
    from freecell_arena.commands.serve import loop_factory

    with asyncio.Runner(loop_factory=loop_factory(Settings().process.event_loop)) as runner:  # the server's loop too
        runner.run(main())
