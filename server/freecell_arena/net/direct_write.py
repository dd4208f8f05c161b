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

The attributes used are those of websockets 17.4's `asyncio.connection.Connection` (requirements/server.lock pins
the version); tests/server/test_direct_write.py pins the behaviour relied on, so an upgrade that changes it
fails there, not in production.
"""

from __future__ import annotations

from collections.abc import Sequence

from websockets.asyncio.connection import Connection
from websockets.protocol import OPEN


def write_now(websocket: Connection, texts: Sequence[str]) -> bool:
    """Write each of `texts` as a text frame now, in order (True), or none of them (False) when `send` would have
    to wait or fail, or when this websockets does not have the attributes relied on (a release other than the
    locked one, installed by hand: every frame then takes `send`, as before this module)."""
    try:
        protocol = websocket.protocol
        ready = not (websocket.paused or websocket.send_in_progress is not None)
        transport = websocket.transport
    except AttributeError:
        return False
    if protocol.state is not OPEN or not ready or transport.is_closing():
        return False
    for text in texts:
        protocol.send_text(text.encode())
    transport.writelines(protocol.data_to_send())  # an open connection's frames: never the end of stream (b"")
    return True
