"""The server's websocket connection: websockets' asyncio `ServerConnection` (handshake, HTTP routes, pings,
closing, writing), whose received messages go to an `Inbox` the reader takes them from (net/inbox.py).

Once the handshake is done and nothing arrived behind its request, received bytes are cut at frame boundaries here: the
whole simple frames (a game client's every request) are read by `take_frames`, and every other frame is handed
to websockets' own `data_received` whole, as received, so its parser is always at a frame boundary and answers
it as it always does: pings, pongs, a close, fragments, a protocol error, an oversized frame. After a frame that
moves the connection out of OPEN, or one declaring more than the size limit, every byte goes to websockets.

The attributes relied on are websockets 17.4's (`protocol.state`, `protocol.reader.buffer`,
`protocol.current_size`, `protocol.extensions`, `protocol.max_message_size`, `max_queue_high`), as
net/direct_write.py's are; tests/server/test_game_socket.py holds the two paths to the same answers.
"""

from __future__ import annotations

import asyncio
import sys

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.frames import DATA_OPCODES, CloseCode, Frame
from websockets.protocol import OPEN, Event

from freecell_arena.net.inbox import OVERSIZED, Inbox, frame_end, stateless_window_bits, take_frames

REQUEST_LIMIT = 65536
"""Bytes of a handshake's request kept to check nothing came behind it; a longer one is websockets' to the end."""
DEFAULT_HIGH = 16
"""Messages waiting before reading pauses when websockets' `max_queue` says no limit (its own default)."""


class GameConnection(ServerConnection):
    inbox: Inbox

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        high = self.max_queue_high or DEFAULT_HIGH
        low = self.max_queue_low if self.max_queue_low is not None else high // 4
        self.inbox = Inbox(self.loop, high, low, self.transport.pause_reading, self.transport.resume_reading,
                           self._invalid_text)
        self._framing: bool | None = None  # None: the handshake is not done; True: frames are cut here
        self._request = b""  # what arrived before the connection opened (`_only_request`)
        self._held = b""  # the start of a frame whose rest has not arrived
        self._max_size = sys.maxsize  # the size limit and the stateless deflate, read once the connection opens
        self._window_bits = 0

    def data_received(self, data: bytes) -> None:
        if self._framing is None:
            if self.protocol.state is not OPEN:  # the handshake: its request, and websockets' answer to it
                self._request = self._request + data if len(self._request) < REQUEST_LIMIT else b""
                super().data_received(data)
                return
            self._framing = self._only_request()
            self._request = b""
            protocol = self.protocol  # what the handshake settled, fixed for the connection's life
            self._max_size = min(size for size in (protocol.max_message_size, protocol.max_fragment_size, sys.maxsize)
                                 if size is not None)  # fmt: skip
            self._window_bits = stateless_window_bits(protocol.extensions)
        if self._held:
            data, self._held = self._held + data, b""
        if self._framing:
            if self.protocol.state is OPEN:
                self._cut_frames(data)
                return
            self._framing = False  # closing (this side began it, or a message was not UTF-8): websockets' now
        super().data_received(data)

    def _only_request(self) -> bool:
        """Whether the bytes websockets got before the connection opened were its request and nothing more: then
        its parser waits at the first frame's first byte, and frames can be cut here from the next byte on. A
        client that sent frames before the handshake's answer stays with websockets' parser to the end."""
        end = self._request.find(b"\r\n\r\n")
        return end >= 0 and end + 4 == len(self._request)

    def _cut_frames(self, data: bytes) -> None:
        protocol, max_size, window_bits = self.protocol, self._max_size, self._window_bits
        offset = take_frames(self.inbox, data, 0, max_size, window_bits) if protocol.current_size is None else 0
        while offset < len(data):
            end = frame_end(data, offset, max_size)
            if end == OVERSIZED:
                self._framing = False
                super().data_received(data[offset:])
                return
            if end < 0:
                self._held = data[offset:]
                return
            super().data_received(data[offset:end])
            if protocol.state is not OPEN:
                self._framing = False
                if end < len(data):
                    super().data_received(data[end:])
                return
            offset = take_frames(self.inbox, data, end, max_size, window_bits) if protocol.current_size is None else end

    def eof_received(self) -> None:
        if self._held:  # a frame cut short: websockets fails the connection for it (1006), as it would have
            held, self._held = self._held, b""
            super().data_received(held)
        super().eof_received()

    def process_event(self, event: Event) -> None:
        if isinstance(event, Frame) and event.opcode in DATA_OPCODES:
            self.inbox.put_frame(event)
        else:
            super().process_event(event)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.inbox.close()

    def _invalid_text(self, error: UnicodeDecodeError) -> None:
        """A text message that is not UTF-8: the connection fails with 1007, as websockets' `recv` fails it."""
        self.set_connection_exc(error)
        self.protocol.fail(CloseCode.INVALID_DATA, f"{error.reason} at position {error.start}")
        try:
            self.send_data()
        except Exception as failure:
            self.set_connection_exc(failure)

    async def closed(self) -> ConnectionClosed:
        """The exception that ends the reader once the inbox is empty and closed: websockets' `ConnectionClosed`,
        once the connection is lost (what `recv` raises)."""
        await asyncio.shield(self.connection_lost_waiter)
        return self.close_exc
