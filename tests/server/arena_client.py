"""A small test client over a real websocket: send requests, wait for replies and events, with timeouts.

It also holds the server to its wire contract in every test that uses it: each frame must be one of the server's
messages as `docs/schema/protocol.json` describes it, I-JSON (no integer beyond +-(2^53 - 1)), and each reply to a
request one that `freecell_arena.protocol.contract` lists for it (an error, one of the codes listed).
"""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from freecell_arena.protocol.contract import EXCHANGES
from freecell_arena.protocol.registry import SERVER_MESSAGES
from freecell_arena.protocol.wire import MAX_SAFE_INTEGER

TIMEOUT_S = 10.0


def unsafe_integers(value: object, where: str = "") -> list[str]:
    """Where `value` (parsed JSON) holds an integer no JavaScript number holds exactly (I-JSON's limit)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [where or "(frame)"] if abs(value) > MAX_SAFE_INTEGER else []
    if isinstance(value, dict):
        return [spot for key, item in value.items() for spot in unsafe_integers(item, f"{where}.{key}")]
    if isinstance(value, list):
        return [spot for index, item in enumerate(value) for spot in unsafe_integers(item, f"{where}[{index}]")]
    return []


def check_frame(text: str) -> dict[str, Any]:
    """A server frame, parsed, once it is shown to be what the contract says every frame is."""
    frame: dict[str, Any] = json.loads(text)
    assert not unsafe_integers(frame), f"integers beyond I-JSON's range at {unsafe_integers(frame)}: {text[:300]}"
    SERVER_MESSAGES.validate_json(text)  # raises on a frame the models (and so the schema) do not describe
    return frame


def check_reply(request: dict[str, Any], reply: dict[str, Any]) -> None:
    """The reply to `request` is one the contract lists for it (for an error: a code it lists)."""
    exchange = EXCHANGES.get(request.get("type"))  # type: ignore[arg-type]
    if exchange is None:
        return  # a deliberately unknown or malformed request: its error is checked by its test
    if reply["type"] == "error":
        declared = {code.value for code in exchange.may_fail_with()}
        assert reply["code"] in declared, f"{exchange.type_name} got {reply['code']!r}, not in contract.py: {reply}"
    else:
        declared = {reply_model.model_fields["type"].default for reply_model in exchange.replies}
        assert reply["type"] in declared, f"{exchange.type_name} answered {reply['type']!r}, not in contract.py"


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
        frame = check_frame(text)
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
                check_reply(message, frame)
                return frame
        async with asyncio.timeout(timeout):
            while True:
                frame = await self._receive()
                if frame.get("id") == request_id:
                    check_reply(message, frame)
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
