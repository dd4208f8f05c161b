"""A websocket player for the room benches (bench/room_fanout.py, bench/cluster.py): requests by id, events queued,
and every `progress` frame noted (with when it arrived) instead of queued."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

TIMEOUT_S = 30.0


class WsPlayer:
    def __init__(self, url: str, name: str) -> None:
        self.url, self.name = url, name
        self.websocket: Any = None
        self.player_id = ""
        self.progress_frames = 0
        self.progress_seen: dict[int, float] = {}
        """perf_counter() at the first progress frame with this many moves."""
        self._ids = 0
        self._replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._reader: asyncio.Task[None] | None = None

    async def open(self) -> None:
        from websockets.asyncio.client import connect

        self.websocket = await connect(self.url, max_queue=None, proxy=None)
        self._reader = asyncio.create_task(self._read())
        welcome = await self.request({"type": "hello", "name": self.name, "bot": True})
        self.player_id = welcome["player_id"]

    async def _read(self) -> None:
        async for frame in self.websocket:
            data = json.loads(frame)
            if data.get("type") == "progress":
                self.progress_frames += 1
                self.progress_seen.setdefault(data["progress"]["moves"], time.perf_counter())
            elif (future := self._replies.pop(data.get("id"), None)) is not None:
                future.set_result(data)
            else:
                self._events.put_nowait(data)

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        self._ids += 1
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._replies[self._ids] = future
        await self.websocket.send(json.dumps({**message, "id": self._ids}))
        async with asyncio.timeout(TIMEOUT_S):
            return await future

    async def expect(self, kind: str) -> dict[str, Any]:
        async with asyncio.timeout(TIMEOUT_S):
            while (event := await self._events.get()).get("type") != kind:
                pass
        return event

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.websocket.close()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await self._reader


def pick_move(game: Any, rng: Any) -> Any:
    """A random legal move of `game` (an engine `Game`), foundation moves first; None when there is none."""
    from freecell_arena.engine import FOUNDATION

    moves = list(game.board.legal_moves)
    if not moves:
        return None
    home = [move for move in moves if move.to_zone == FOUNDATION]
    return rng.choice(home or moves)
