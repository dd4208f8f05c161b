"""The compression policy as a client sees it on the wire (docs/server.md, "Compression"): permessage-deflate only
with a client that offers it, on frames of at least `compression_min_bytes`, each compressed on its own; every
frame with `deflate`; none with `none`. The frames pass through a relay that reads their RSV1 bit (wire_tap.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from arena_client import ArenaClient
from arena_server import started_arena
from racing import choose_move, open_race, server_board, wire_form
from wire_tap import WireTap, wire_tap

from freecell_arena.net.app import ArenaServer

MIN_BYTES = 1024


async def play_and_read_state(server: ArenaServer, tap: WireTap, **client_options: Any) -> list[tuple[int, bool]]:
    """Say hello, race alone, play a few moves, ask for the whole state; each text frame's size (as the client
    decoded it) beside whether it came compressed."""
    client = await ArenaClient.open(f"ws://127.0.0.1:{tap.port}/", **client_options)
    try:
        await client.hello("Deflate")
        _, games = await open_race(client, [], "freecell-four-deck", seed=5)
        game_id = games[client.player_id]["game_id"]
        rng = random.Random(3)
        for _ in range(3):
            move = choose_move(server_board(server, game_id), rng)
            assert move is not None
            reply = await client.request({"type": "move", "move": wire_form("freecell-four-deck", move, False)})
            assert reply["type"] == "move_accepted", reply
        state = await client.request({"type": "get_state"})
        assert state["type"] == "game_state", state
        sizes = [len(text.encode()) for text in client.raw]
    finally:
        await client.close()
    frames = tap.data_frames()
    assert len(frames) == len(sizes), (frames, sizes)
    return [(size, frame.compressed) for size, frame in zip(sizes, frames, strict=True)]


def negotiated(tap: WireTap) -> str:
    (response,) = tap.handshake_responses
    lines = [line for line in response.lower().split("\r\n") if line.startswith("sec-websocket-extensions:")]
    return lines[0] if lines else ""


async def test_large_frames_only_each_on_its_own(sqlite_url: str) -> None:
    """The default: small frames as they are, large ones compressed, no context kept on either side."""
    async with started_arena(sqlite_url) as server, wire_tap(server.port) as tap:
        assert server.settings.compression == "large" and server.settings.compression_min_bytes == MIN_BYTES
        frames = await play_and_read_state(server, tap)
        extension = negotiated(tap)
    assert "permessage-deflate" in extension
    assert "server_no_context_takeover" in extension and "client_no_context_takeover" in extension
    assert [compressed for _, compressed in frames] == [size >= MIN_BYTES for size, _ in frames], frames
    assert any(compressed for _, compressed in frames), f"no frame reached {MIN_BYTES} bytes: {frames}"
    assert any(not compressed for _, compressed in frames)


async def test_threshold_is_a_setting(sqlite_url: str) -> None:
    async with started_arena(sqlite_url, compression_min_bytes=0) as server, wire_tap(server.port) as tap:
        frames = await play_and_read_state(server, tap)
    assert all(compressed for _, compressed in frames), frames


@pytest.mark.parametrize("policy", ["deflate", "none"])
async def test_every_frame_or_none(sqlite_url: str, policy: str) -> None:
    async with started_arena(sqlite_url, compression=policy) as server, wire_tap(server.port) as tap:
        frames = await play_and_read_state(server, tap)
        extension = negotiated(tap)
    assert all(compressed == (policy == "deflate") for _, compressed in frames), frames
    assert ("permessage-deflate" in extension) == (policy == "deflate")
    assert ("no_context_takeover" in extension) is False


async def test_a_client_that_does_not_offer_it_gets_plain_frames(sqlite_url: str) -> None:
    async with started_arena(sqlite_url) as server, wire_tap(server.port) as tap:
        frames = await play_and_read_state(server, tap, compression=None)
        extension = negotiated(tap)
    assert extension == ""
    assert not any(compressed for _, compressed in frames), frames
    assert any(size >= MIN_BYTES for size, _ in frames)
