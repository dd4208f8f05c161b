"""Chromium negotiates the server's compression policy and reads both kinds of frame (docs/server.md,
"Compression"): the app, served through a relay that reads each frame's RSV1 bit on the wire (tests/server/
wire_tap.py), gets its large frames (a Four Deck race's start, its whole board) compressed and the small ones as
they are, and plays on them."""

from __future__ import annotations

import asyncio
from typing import Any

from serverprocess import ServerProcess
from webpages import NewPlayer
from wire_tap import wire_tap

MIN_BYTES = 1024  # the server's default FREECELL_ARENA_COMPRESSION_MIN_BYTES


async def test_the_browser_gets_large_frames_compressed_and_small_ones_plain(
    server: ServerProcess, new_player: NewPlayer
) -> None:
    async with wire_tap(server.port) as tap:
        player = await new_player("Deflate", f"http://127.0.0.1:{tap.port}")
        received: list[int] = []  # the size of each text frame as the page's socket decoded it, in order

        def watch(websocket: Any) -> None:
            websocket.on("framereceived", lambda payload: received.append(len(payload.encode())))

        player.page.on("websocket", watch)
        await player.open("/")
        await player.create_race("freecell-four-deck", deal=5)
        await player.start_race()
        await player.page.reload()  # a resumed welcome with the running game, on a new socket
        await player.wait_for_board()
        frames = tap.data_frames()
        responses = list(tap.handshake_responses)
        for _ in range(100):  # the page is told of a frame after it crossed the tap: wait for it to catch up
            if len(received) >= len(frames):
                break
            await asyncio.sleep(0.05)
        seen = received[: len(frames)]  # a frame sent after the tap's count, seen by both, is not compared

    assert len(responses) == 2 and all("permessage-deflate" in response for response in responses), responses
    assert all("client_no_context_takeover" in response for response in responses)
    assert len(frames) == len(seen), (frames, seen)
    sent = [(size, frame.compressed) for size, frame in zip(seen, frames, strict=True)]
    assert [compressed for _, compressed in sent] == [size >= MIN_BYTES for size, _ in sent], sent
    assert any(compressed for _, compressed in sent) and any(not compressed for _, compressed in sent), sent
