"""Fuzzing the protocol (issue 16): frames generated from docs/schema/protocol.json (every client request) plus
mutations, sent to a real server over a real websocket. No frame may get `internal_error`, put a traceback in
the log, close the connection, or change anything when it is refused.

CI runs a small batch; the nightly-sized run (>= 100,000 frames) is
`FREECELL_ARENA_FUZZ_FRAMES=100000 python3 -m pytest tests/server/test_fuzz.py`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from arena_server import start_arena
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from schema_strategies import from_schema
from websockets.asyncio.client import connect

from freecell_arena.net.app import ArenaServer
from freecell_arena.protocol.registry import CLIENT_MESSAGES
from freecell_arena.store import migrate

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs" / "schema" / "protocol.json").read_text())
REQUESTS = sorted(name for name in SCHEMA["$defs"] if name.endswith("Request"))
FRAMES_PER_EXAMPLE = 20
FRAMES = int(os.environ.get("FREECELL_ARENA_FUZZ_FRAMES", "2000"))


VALID_REQUESTS = st.one_of(*(from_schema(SCHEMA["$defs"][name], SCHEMA["$defs"]) for name in REQUESTS))

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**80), max_value=2**80) | st.floats() | st.text(max_size=40),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@st.composite
def frames(draw: st.DrawFn) -> str:
    """A schema-valid request, then maybe a mutation: a key dropped, a value replaced, a key added, the type
    changed, the text cut or wrapped in deep nesting."""
    message: Any = draw(VALID_REQUESTS)
    mutation = draw(st.sampled_from(["none", "drop", "replace", "add", "type", "cut", "nest", "raw"]))
    if mutation == "drop" and message:
        message.pop(draw(st.sampled_from(sorted(message))))
    elif mutation == "replace" and message:
        message[draw(st.sampled_from(sorted(message)))] = draw(json_values)
    elif mutation == "add":
        message[draw(st.text(min_size=1, max_size=10))] = draw(json_values)
    elif mutation == "type":
        message["type"] = draw(json_values)
    text = json.dumps(message, allow_nan=True)
    if mutation == "cut":
        text = text[: draw(st.integers(0, max(0, len(text) - 1)))]
    elif mutation == "nest":
        depth = draw(st.integers(100, 3000))
        text = "[" * depth + text + "]" * depth
    elif mutation == "raw":
        text = draw(st.text(max_size=200))
    return text


class ServerThread:
    """One real server for the whole fuzz run, on its own event loop in a thread (Hypothesis drives the test
    synchronously, an example at a time)."""

    def __init__(self, database_url: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server: ArenaServer = self.run(start_arena(database_url))

    def run(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=60)

    def close(self) -> None:
        self.run(self.server.shutdown())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def fuzzed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    database_url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('fuzz') / 'arena.db'}"
    asyncio.run(migrate(database_url))
    thread = ServerThread(database_url)
    try:
        yield thread
    finally:
        thread.close()


def snapshot(server: ArenaServer, player_id: str) -> tuple[Any, ...]:
    state = server.arena.players[player_id]
    game = server.arena.games.get(state.game_id or "")
    return (state.room_code, state.game_id, len(server.arena.rooms), len(server.arena.games),
            None if game is None else len(game.game.board.move_stack))  # fmt: skip


async def send_and_check(server: ArenaServer, batch: list[str]) -> None:
    async with asyncio.timeout(30):
        async with connect(f"ws://127.0.0.1:{server.port}/", max_size=None) as websocket:
            await websocket.send(json.dumps({"type": "hello", "name": "fuzzer"}))
            player_id = json.loads(await websocket.recv())["player_id"]
            for number, frame in enumerate(batch):
                before = snapshot(server, player_id)
                await websocket.send(frame)
                fence = f"fence-{number}"
                await websocket.send(json.dumps({"type": "get_state", "id": fence}))
                replies = []
                while (reply := json.loads(await websocket.recv())).get("id") != fence:
                    replies.append(reply)
                errors = [reply for reply in replies if reply.get("type") == "error"]
                assert not [error for error in errors if error["code"] == "internal_error"], (frame, errors)
                if errors and not [reply for reply in replies if reply.get("type") != "error"]:
                    assert snapshot(server, player_id) == before, f"a refused frame changed state: {frame!r}"


@pytest.mark.timeout(120 + FRAMES // 100)  # about 250 frames a second here; the nightly size takes minutes
@settings(max_examples=max(1, FRAMES // FRAMES_PER_EXAMPLE), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture])
@given(batch=st.lists(frames(), min_size=FRAMES_PER_EXAMPLE, max_size=FRAMES_PER_EXAMPLE))
def test_fuzzed_frames_never_break_the_server(fuzzed_server: ServerThread, batch: list[str],
                                              caplog: pytest.LogCaptureFixture) -> None:  # fmt: skip
    caplog.set_level(logging.WARNING)
    fuzzed_server.run(send_and_check(fuzzed_server.server, batch))
    tracebacks = [record for record in caplog.records if record.exc_info]
    assert not tracebacks, tracebacks[0].getMessage()


@pytest.mark.parametrize("name", REQUESTS)
def test_the_generator_reaches_past_validation_for_every_request(name: str) -> None:
    """The fuzz is worth running only if its unmutated frames are requests the server accepts as such: for
    every request the schema names, some generated value parses as that very message. Derandomized: the same search
    every run (a random one missed CreateTournamentRequest's cross-field rules once in a full run)."""
    search = settings(database=None, derandomize=True, max_examples=2000)
    model = CLIENT_MESSAGES.validate_python(
        find(from_schema(SCHEMA["$defs"][name], SCHEMA["$defs"]), valid_message, settings=search)
    )
    assert type(model).__name__ == name


def valid_message(value: Any) -> bool:
    try:
        CLIENT_MESSAGES.validate_python(value)
    except ValidationError:
        return False
    return True
