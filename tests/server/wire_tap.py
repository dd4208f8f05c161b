"""A loopback TCP relay in front of a server that reads the websocket frames the server sends, as they are on the
wire: which ones are compressed (RSV1), how many bytes each takes. Clients (the Python one, or Chromium) connect to
the relay's port instead of the server's; it forwards both ways unchanged.

Frames from a server are never masked (RFC 6455, 5.1), so after the handshake's HTTP response the byte stream
is read as frame headers and payloads; the relay does not decompress anything.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

TEXT = 0x1
BINARY = 0x2


@dataclass(frozen=True)
class WireFrame:
    opcode: int
    compressed: bool  # RSV1: the permessage-deflate bit of a message's first frame
    wire_bytes: int  # the payload as sent
    socket: int = 0  # which upgraded connection it went on: 0 for the first, in the order of their handshakes


@dataclass
class WireTap:
    port: int = 0
    handshake_responses: list[str] = field(default_factory=list)
    frames: list[WireFrame] = field(default_factory=list)

    def data_frames(self) -> list[WireFrame]:
        return [frame for frame in self.frames if frame.opcode in (TEXT, BINARY)]

    def read(self, stream: bytearray, socket: int | None) -> int | None:
        """Consume the handshake's response, then whole frames, from the front of `stream`; the connection's
        number once it is upgraded, None before (a connection that answered plain HTTP is not read further: the
        server answers one request per connection)."""
        if socket is None:
            end = stream.find(b"\r\n\r\n")
            if end < 0:
                return None
            response = stream[:end].decode("latin-1")
            del stream[: end + 4]
            if not response.startswith("HTTP/1.1 101"):  # a plain HTTP answer (a page, a file): no frames follow
                stream.clear()
                return None
            socket = len(self.handshake_responses)
            self.handshake_responses.append(response)
        while True:
            if len(stream) < 2:
                return socket
            length = stream[1] & 0x7F
            header = 2
            if length == 126:
                header, length = 4, int.from_bytes(stream[2:4], "big") if len(stream) >= 4 else -1
            elif length == 127:
                header, length = 10, int.from_bytes(stream[2:10], "big") if len(stream) >= 10 else -1
            if length < 0 or len(stream) < header + length:
                return socket
            self.frames.append(WireFrame(stream[0] & 0x0F, bool(stream[0] & 0x40), length, socket))
            del stream[: header + length]


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, tap: WireTap | None) -> None:
    pending = bytearray()
    socket: int | None = None
    try:
        while data := await reader.read(65536):
            if tap is not None:  # read before forwarding: once a client has a frame, the tap has counted it
                pending += data
                socket = tap.read(pending, socket)
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


@contextlib.asynccontextmanager
async def wire_tap(server_port: int) -> AsyncIterator[WireTap]:
    """A relay on a free loopback port to `server_port`, recording what the server sends; closed on exit."""
    tap = WireTap()
    pipes: set[asyncio.Task[None]] = set()

    async def relay(client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", server_port)
        for task in (asyncio.create_task(_pipe(client_reader, server_writer, None)),
                     asyncio.create_task(_pipe(server_reader, client_writer, tap))):  # fmt: skip
            pipes.add(task)
            task.add_done_callback(pipes.discard)

    relay_server = await asyncio.start_server(relay, "127.0.0.1", 0)
    tap.port = relay_server.sockets[0].getsockname()[1]
    try:
        yield tap
    finally:
        relay_server.close()
        for task in list(pipes):
            task.cancel()
        await asyncio.wait_for(asyncio.gather(*pipes, return_exceptions=True), 5)
        await asyncio.wait_for(relay_server.wait_closed(), 5)
