"""Write a text frame to an open websocket at once, without websockets' asyncio send path.

`ServerConnection.send` wraps every frame in an async context manager (`send_context`), a coroutine and a
`drain()`: under load that machinery cost the server about as much CPU as the write itself. When the connection
is open, no fragmented message is being sent and the transport is not paused by flow control, `send` would do
nothing but `protocol.send_text` (websockets' sans-I/O core: framing, permessage-deflate) and `send_data`
(`transport.write` of what the core produced) and then return without waiting; `write_now` does exactly that
and nothing else. In every other case (closing, closed, paused by a full buffer) it does nothing and returns
False, and the caller awaits `send`, which waits for the buffer or raises `ConnectionClosed` as usual.

The attributes used are those of websockets 17.4's `asyncio.connection.Connection` (requirements/server.lock pins
the version); tests/server/test_direct_write.py pins the behaviour relied on, so an upgrade that changes it
fails there, not in production.
"""

from __future__ import annotations

from websockets.asyncio.connection import Connection
from websockets.protocol import OPEN


def write_now(websocket: Connection, text: str) -> bool:
    """Write `text` as one text frame now (True), or do nothing (False) when `send` would have to wait or fail."""
    if (
        websocket.protocol.state is not OPEN
        or websocket.paused
        or websocket.send_in_progress is not None
        or websocket.transport.is_closing()
    ):
        return False
    websocket.protocol.send_text(text.encode())
    websocket.send_data()
    return True
