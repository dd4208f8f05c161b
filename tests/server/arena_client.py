"""A small test client over a real websocket: send requests, wait for replies and events, with timeouts."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

TIMEOUT_S = 10.0


class ArenaClient:
    """Keeps every received frame (`frames`) and a queue of those not yet consumed by `expect`."""

    _ids = itertools.count(1)

    def __init__(self, websocket: ClientConnection) -> None:
        self.websocket = websocket
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.pending: list[dict[str, Any]] = []
        self.player_id: str | None = None
        self.token: str | None = None

    @classmethod
    async def open(cls, url: str, **options: Any) -> ArenaClient:
        async with asyncio.timeout(TIMEOUT_S):
            # max_queue=None: a test client that stops reading must not stall the server's sends (or its close)
            websocket = await connect(url, open_timeout=TIMEOUT_S, max_queue=None, **options)
        return cls(websocket)

    async def close(self) -> None:
        async with asyncio.timeout(TIMEOUT_S):
            await self.websocket.close()

    async def send_raw(self, text: str | bytes) -> None:
        async with asyncio.timeout(TIMEOUT_S):
            await self.websocket.send(text)

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_raw(json.dumps(message))

    async def _receive(self) -> dict[str, Any]:
        text = await self.websocket.recv()
        assert isinstance(text, str)
        frame = json.loads(text)
        self.raw.append(text)
        self.frames.append(frame)
        return frame

    async def expect(self, type_: str, *, timeout: float = TIMEOUT_S, **fields: Any) -> dict[str, Any]:
        """The first unconsumed frame of this type (and these field values); others stay queued."""

        def matches(frame: dict[str, Any]) -> bool:
            return frame.get("type") == type_ and all(frame.get(key) == value for key, value in fields.items())

        for frame in self.pending:
            if matches(frame):
                self.pending.remove(frame)
                return frame
        async with asyncio.timeout(timeout):
            while True:
                frame = await self._receive()
                if matches(frame):
                    return frame
                self.pending.append(frame)

    async def request(self, message: dict[str, Any], *, timeout: float = TIMEOUT_S) -> dict[str, Any]:
        """Send with a fresh id; return the reply carrying that id (a result or an error)."""
        request_id = next(self._ids)
        await self.send({**message, "id": request_id})
        for frame in self.pending:
            if frame.get("id") == request_id:
                self.pending.remove(frame)
                return frame
        async with asyncio.timeout(timeout):
            while True:
                frame = await self._receive()
                if frame.get("id") == request_id:
                    return frame
                self.pending.append(frame)

    async def hello(self, name: str, *, token: str | None = None, bot: bool = False) -> dict[str, Any]:
        message: dict[str, Any] = {"type": "hello", "name": name, "bot": bot}
        if token is not None:
            message["token"] = token
        welcome = await self.request(message)
        assert welcome["type"] == "welcome", welcome
        self.player_id = welcome["player_id"]
        self.token = welcome["token"]
        return welcome


async def connect_player(url: str, name: str, **options: Any) -> ArenaClient:
    client = await ArenaClient.open(url, **options)
    await client.hello(name)
    return client


async def admitted(client: ArenaClient) -> bool:
    """True when the server took the connection (a new player's hello is welcomed); False when it closed it for the
    per-address connection limit."""
    try:
        welcome = await client.request({"type": "hello", "name": "someone"})
    except ConnectionClosed as closed:
        assert closed.rcvd is not None and "too many connections from your address" in closed.rcvd.reason
        return False
    assert welcome["type"] == "welcome", welcome
    return True
