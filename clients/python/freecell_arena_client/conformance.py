"""Replay a conformance transcript (clients/conformance/) against a server: the frames it sends, and the frames it
expects back on each connection, in order, exactly, but for its placeholders. The same transcripts are replayed by
the JavaScript client (clients/javascript/conformance.mjs): both languages are held to one contract.

A transcript is JSON: `{"name", "description", "settings", "steps"}`. `settings` are the server's environment
(`FREECELL_ARENA_*`) to start it with. Each step names a connection (`as`) and does one thing:

- `{"as": "ada", "connect": true}`: open a websocket;
- `{"as": "ada", "send": {...}}`: send a frame (placeholders put in); `{"as": "ada", "send_text": "...",
  "repeat": n}`: send raw text (repeated n times: a frame too large, or not JSON);
- `{"as": "ada", "expect": {...}}`: the next frame this connection receives must match;
- `{"as": "ada", "closed": 4000}`: the server closes this connection with that code next;
- `{"as": "ada", "close": true}`: close it from the client's side.

Placeholders, in an expected or a sent frame: the string `"$*"` matches any value; a string `"$name"` names a
variable: the first frame that has it binds it to the value found there, and every later use must be (or, in a
frame sent, is replaced by) that value: a player's id, a token, a room's code, a drawn seed. Everything else must
be equal, and an object must have exactly the keys expected (no more, no fewer).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from freecell_arena.protocol.registry import SERVER_MESSAGES

ANY = "$*"
FRAME_TIMEOUT_S = 10.0
QUIET_S = 0.3
"""After the last step, how long a connection must stay silent: a frame nobody expected is a failure."""


class ConformanceError(AssertionError):
    """The server's frame (or close) differs from the transcript: which step, what was expected, what came."""


def load(path: Path) -> dict[str, Any]:
    transcript: dict[str, Any] = json.loads(path.read_text())
    return transcript


def substitute(value: Any, variables: Mapping[str, Any]) -> Any:
    """A frame to send, its variables put in."""
    if isinstance(value, str) and value.startswith("$") and value != ANY:
        if value not in variables:
            raise ConformanceError(f"{value} is sent before any frame bound it")
        return variables[value]
    if isinstance(value, dict):
        return {key: substitute(item, variables) for key, item in value.items()}
    if isinstance(value, list):
        return [substitute(item, variables) for item in value]
    return value


def match(expected: Any, actual: Any, variables: dict[str, Any], where: str = "") -> None:
    """Raise `ConformanceError` where `actual` differs from `expected`; bind the variables met first here."""
    if expected == ANY:
        return
    if isinstance(expected, str) and expected.startswith("$"):
        if expected in variables:
            if variables[expected] != actual:
                raise ConformanceError(f"{where or '(frame)'}: {expected} is {variables[expected]!r}, got {actual!r}")
        else:
            variables[expected] = actual
        return
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            raise ConformanceError(f"{where or '(frame)'}: expected an object, got {actual!r}")
        if set(expected) != set(actual):
            missing, extra = sorted(set(expected) - set(actual)), sorted(set(actual) - set(expected))
            raise ConformanceError(f"{where or '(frame)'}: missing keys {missing}, unexpected keys {extra}")
        for key, item in expected.items():
            match(item, actual[key], variables, f"{where}.{key}")
        return
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            raise ConformanceError(f"{where or '(frame)'}: expected {len(expected)} items, got {actual!r}")
        for index, (item, got) in enumerate(zip(expected, actual, strict=True)):
            match(item, got, variables, f"{where}[{index}]")
        return
    if type(expected) is not type(actual) or expected != actual:  # 1 is not 1.0, nor true
        raise ConformanceError(f"{where or '(frame)'}: expected {expected!r}, got {actual!r}")


class Player:
    """One transcript's connections and variables, replayed step by step."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.connections: dict[str, ClientConnection] = {}
        self.variables: dict[str, Any] = {}

    async def run(self, transcript: Mapping[str, Any]) -> None:
        try:
            for number, step in enumerate(transcript["steps"], 1):
                try:
                    await self.step(step)
                except ConformanceError as error:
                    where = f"{transcript['name']}, step {number} {json.dumps(step)[:300]}"
                    raise ConformanceError(f"{where}: {error}") from None
            await self.quiet(transcript["name"])
        finally:
            for connection in self.connections.values():
                await connection.close()

    async def step(self, step: Mapping[str, Any]) -> None:
        name = step["as"]
        if step.get("connect"):
            self.connections[name] = await connect(self.url, open_timeout=FRAME_TIMEOUT_S, max_queue=None)
        elif "send" in step:
            await self.connections[name].send(json.dumps(substitute(step["send"], self.variables)))
        elif "send_text" in step:
            await self.connections[name].send(step["send_text"] * step.get("repeat", 1))
        elif "expect" in step:
            match(step["expect"], await self.receive(name), self.variables)
        elif "closed" in step:
            await self.closed(name, step["closed"])
        elif step.get("close"):
            await self.connections.pop(name).close()
        else:
            raise ConformanceError(f"a step this player does not know: {step}")

    async def receive(self, name: str) -> Any:
        try:
            async with asyncio.timeout(FRAME_TIMEOUT_S):
                text = await self.connections[name].recv()
        except TimeoutError:
            raise ConformanceError(f"{name} received nothing in {FRAME_TIMEOUT_S:g} s") from None
        except ConnectionClosed as closed:
            raise ConformanceError(f"{name}'s connection closed ({closed.rcvd}) where a frame was expected") from None
        assert isinstance(text, str)
        SERVER_MESSAGES.validate_json(text)  # the SDK's models read every frame, as a bot's client would
        return json.loads(text)

    async def closed(self, name: str, code: int) -> None:
        connection = self.connections.pop(name)
        try:
            async with asyncio.timeout(FRAME_TIMEOUT_S):
                text = await connection.recv()
            raise ConformanceError(f"{name} expected close {code}, got a frame: {str(text)[:300]}")
        except ConnectionClosed:
            pass
        got = connection.close_code
        if got != code:
            raise ConformanceError(f"{name} closed with {got} ({connection.close_reason!r}), expected {code}")

    async def quiet(self, transcript: str) -> None:
        """No connection received a frame the transcript does not expect."""
        await asyncio.sleep(QUIET_S)
        for name, connection in self.connections.items():
            try:
                async with asyncio.timeout(0.01):
                    text = await connection.recv()
            except (TimeoutError, ConnectionClosed):
                continue
            raise ConformanceError(f"{transcript}: {name} received a frame the transcript does not expect: {text!r}")


async def replay(url: str, transcript: Mapping[str, Any]) -> dict[str, Any]:
    """Replay `transcript` against the server at `url`; its variables as bound, or `ConformanceError`."""
    player = Player(url)
    await player.run(transcript)
    return player.variables
