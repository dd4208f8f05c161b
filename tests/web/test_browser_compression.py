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
        received: list[list[int]] = []  # per socket, in the order opened: each text frame's size as the page decoded it

        def watch(websocket: Any) -> None:
            sizes: list[int] = []
            received.append(sizes)
            websocket.on("framereceived", lambda payload: sizes.append(len(payload.encode())))

        player.page.on("websocket", watch)
        await player.open("/")
        await player.create_race("freecell-four-deck", deal=5)
        await player.start_race()
        await player.page.reload()  # a resumed welcome with the running game, on a new socket
        await player.wait_for_board()
        frames = tap.data_frames()
        responses = list(tap.handshake_responses)
        resumed = [frame for frame in frames if frame.socket == 1]
        for _ in range(100):  # the page is told of a frame after it crossed the tap: wait for it to catch up
            if len(received) == 2 and len(received[1]) >= len(resumed):
                break
            await asyncio.sleep(0.05)
        await player.page.close()  # before the tap closes: a page that lost its socket would try again, and fail

    assert len(responses) == 2 and all("permessage-deflate" in response for response in responses), responses
    assert all("client_no_context_takeover" in response for response in responses)
    assert len(received) == 2, "one socket before the reload, one after"
    sent: list[tuple[int, bool]] = []
    for socket, sizes in enumerate(received):
        on_wire = [frame for frame in frames if frame.socket == socket]
        # The first socket's last frames may cross the tap as the page unloads, never to be decoded by it: that
        # socket is compared as far as the page read it. The resumed socket is compared whole.
        assert len(sizes) <= len(on_wire) if socket == 0 else len(sizes) >= len(on_wire), (socket, on_wire, sizes)
        sent += [(size, frame.compressed) for size, frame in zip(sizes, on_wire, strict=False)]
    assert [compressed for _, compressed in sent] == [size >= MIN_BYTES for size, _ in sent], sent
    assert any(compressed for _, compressed in sent) and any(not compressed for _, compressed in sent), sent
