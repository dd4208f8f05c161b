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
        connection = server.settings.connection
        assert connection.compression == "large" and connection.compression_min_bytes == MIN_BYTES
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


async def sdk_game_through(tap: WireTap, **options: Any) -> None:
    """The Python SDK's client, through the relay: a race alone, two moves, the whole state (1.5 KB and more)."""
    from freecell_arena.engine import variant_by_id
    from freecell_arena.engine.view import board_from_view
    from freecell_arena.protocol.rooms import RaceStartedMessage, RoomOptions
    from freecell_arena_client import ArenaClient as SdkClient

    async with await SdkClient.connect(f"ws://127.0.0.1:{tap.port}/", name="Sdk", **options) as client:
        await client.create_room("freecell-four-deck", seed=5, options=RoomOptions(countdown_s=0))
        await client.start_race()
        await client.wait_for(RaceStartedMessage, 10)
        for _ in range(2):
            state = await client.get_state()
            assert state.game is not None
            board = board_from_view(variant_by_id("freecell-four-deck"), state.game.view)
            accepted = await client.move(next(iter(board.legal_moves)))
            assert accepted.game_id == state.game.game_id


async def test_the_sdk_sends_its_small_frames_plain_and_reads_large_ones_compressed(sqlite_url: str) -> None:
    """The SDK's policy (`connect_options("large")`): it offers the extension, so the large frames reach it
    compressed, and sends its own frames, all small, as they are; the server reads them alike."""
    async with started_arena(sqlite_url) as server, wire_tap(server.port) as tap:
        await sdk_game_through(tap)
        extension = negotiated(tap)
    assert "permessage-deflate" in extension and "client_no_context_takeover" in extension
    assert "permessage-deflate" in tap.upgrade_requests[0].lower()
    sent = [frame for frame in tap.client_frames if frame.opcode == 1]
    assert len(sent) >= 7 and not any(frame.compressed for frame in sent), sent  # hello ... the last move
    received = tap.data_frames()
    assert any(frame.compressed for frame in received), received  # the states
    assert all(frame.wire_bytes < MIN_BYTES for frame in received if not frame.compressed)


async def test_a_client_that_compresses_every_frame_is_read_alike(sqlite_url: str) -> None:
    """A browser, or the SDK told `compression="deflate"` (websockets' default), compresses all it sends: the
    same game is played, each frame of it deflated on the wire."""
    async with started_arena(sqlite_url) as server, wire_tap(server.port) as tap:
        await sdk_game_through(tap, compression="deflate")
    sent = [frame for frame in tap.client_frames if frame.opcode == 1]
    assert len(sent) >= 7 and all(frame.compressed for frame in sent), sent
