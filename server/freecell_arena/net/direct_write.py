"""Write text frames to an open websocket at once, in one write, without websockets' asyncio send path.

`ServerConnection.send` wraps every frame in an async context manager (`send_context`), a coroutine and a
`drain()`: under load that machinery cost the server about as much CPU as the write itself. When the connection
is open, no fragmented message is being sent and the transport is not paused by flow control, `send` would do
nothing but `protocol.send_text` (websockets' sans-I/O core: framing, permessage-deflate) and `send_data`
(`transport.write` of what the core produced) and then return without waiting; `write_now` does exactly that
and nothing else, for several frames in one `transport.writelines` (one system call for what a connection's queue
holds, instead of one per frame: a member of a busy room receives many progress frames at a time). In every
other case (closing, closed, paused by a full buffer) it does nothing and returns
False, and the caller awaits `send`, which waits for the buffer or raises `ConnectionClosed` as usual.

A frame no extension would change (no extension negotiated, or the `large` policy's deflate and a message under
its threshold: net/compression.py) is framed here, compiled, as websockets' `Frame.serialize` frames it on the
server's side (FIN, the text opcode, the length, no mask); the rest go through `protocol.send_text`. That path of
interpreted websockets was 4-5 % of the server's CPU per move (py-spy, 1,000 connections, 2026-12-02).

The attributes used are those of websockets 17.4's `asyncio.connection.Connection` and its sans-I/O `Protocol`
(`debug`, `expect_continuation_frame`, `extensions`, `writes` through `data_to_send`) (requirements/server.lock pins
the version); tests/server/test_direct_write.py pins the behaviour relied on, so an upgrade that changes it
fails there, not in production.
"""

from __future__ import annotations

from collections.abc import Sequence

from websockets.asyncio.connection import Connection
from websockets.extensions.base import Extension
from websockets.protocol import OPEN

from freecell_arena.net.compression import LargeFramesDeflate

UNLIMITED = 1 << 62
SHORT_HEADERS = [bytes((0x81, length)) for length in range(126)]
"""A text frame's header for each payload length the second byte holds itself (FIN, opcode 1, unmasked)."""


def plain_below(extensions: Sequence[Extension]) -> int:
    """Payloads shorter than this leave the negotiated extensions unchanged: framed here without websockets."""
    if not extensions:
        return UNLIMITED
    if len(extensions) == 1:
        extension = extensions[0]
        if isinstance(extension, LargeFramesDeflate):
            return extension.min_bytes
    return 0


def text_frame(payload: bytes) -> bytes:
    """A whole, unmasked text frame of `payload` (RFC 6455 section 5.2), byte for byte `Frame.serialize`'s."""
    length = len(payload)
    if length < 126:
        return SHORT_HEADERS[length] + payload
    if length < 65536:
        return b"\x81\x7e" + length.to_bytes(2, "big") + payload
    return b"\x81\x7f" + length.to_bytes(8, "big") + payload


def write_now(websocket: Connection, texts: Sequence[str], plain_below_bytes: int | None = None) -> bool:
    """Write each of `texts` as a text frame now, in order (True), or none of them (False) when `send` would have
    to wait or fail, or when this websockets does not have the attributes relied on (a release other than the
    locked one, installed by hand: every frame then takes `send`, as before this module). `plain_below_bytes`:
    `plain_below` of the connection's extensions, which the handshake fixes (a connection works it out once)."""
    try:
        protocol = websocket.protocol
        ready = not (websocket.paused or websocket.send_in_progress is not None)
        transport = websocket.transport
        # frames logged, or a fragmented message's continuation expected (send_text refuses): websockets' own
        framed_here = not (protocol.debug or protocol.expect_continuation_frame)
        if not framed_here:
            below = 0
        elif plain_below_bytes is None:
            below = plain_below(protocol.extensions)
        else:
            below = plain_below_bytes
    except AttributeError:
        return False
    if protocol.state is not OPEN or not ready or transport.is_closing():
        return False
    writes = protocol.data_to_send()  # anything websockets queued (a pong) goes first, as it would have
    for text in texts:
        payload = text.encode()
        if len(payload) < below:
            writes.append(text_frame(payload))
        else:
            protocol.send_text(payload)
            writes.extend(protocol.data_to_send())
    transport.writelines(writes)  # an open connection's frames: never the end of stream (b"")
    return True
