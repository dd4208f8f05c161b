"""A loopback TCP relay in front of a server that reads the websocket frames both sides send, as they are on the
wire: which ones are compressed (RSV1), how many bytes each takes. Clients (the Python ones, or Chromium) connect
to the relay's port instead of the server's; it forwards both ways unchanged.

After the handshake (the client's upgrade request, the server's 101 response) each byte stream is read as frame
headers and payloads: a server's frames are never masked, a client's always are (RFC 6455, 5.1), and the mask
only follows the length. The relay does not unmask or decompress anything.
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
    """What the server sent."""
    upgrade_requests: list[str] = field(default_factory=list)
    client_frames: list[WireFrame] = field(default_factory=list)
    """What the clients sent, numbered by their upgrade requests."""

    def data_frames(self) -> list[WireFrame]:
        return [frame for frame in self.frames if frame.opcode in (TEXT, BINARY)]

    def read(self, stream: bytearray, socket: int | None, *, from_client: bool = False) -> int | None:
        """Consume the handshake's request or response, then whole frames, from the front of `stream`; the
        connection's number once it is upgraded, None before (a plain HTTP request or answer is not read further:
        the server answers one request per connection)."""
        if socket is None:
            end = stream.find(b"\r\n\r\n")
            if end < 0:
                return None
            head = stream[:end].decode("latin-1")
            del stream[: end + 4]
            upgrade = "upgrade: websocket" in head.lower() if from_client else head.startswith("HTTP/1.1 101")
            if not upgrade:  # a page, a file, an API call: no frames follow
                stream.clear()
                return None
            handshakes = self.upgrade_requests if from_client else self.handshake_responses
            socket = len(handshakes)
            handshakes.append(head)
        frames = self.client_frames if from_client else self.frames
        while True:
            if len(stream) < 2:
                return socket
            length = stream[1] & 0x7F
            header = 2
            if length == 126:
                header, length = 4, int.from_bytes(stream[2:4], "big") if len(stream) >= 4 else -1
            elif length == 127:
                header, length = 10, int.from_bytes(stream[2:10], "big") if len(stream) >= 10 else -1
            header += 4 if stream[1] & 0x80 else 0  # the masking key
            if length < 0 or len(stream) < header + length:
                return socket
            frames.append(WireFrame(stream[0] & 0x0F, bool(stream[0] & 0x40), length, socket))
            del stream[: header + length]


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, tap: WireTap, *, from_client: bool) -> None:
    pending = bytearray()
    socket: int | None = None
    try:
        while data := await reader.read(65536):
            pending += data  # read before forwarding: once the other side has a frame, the tap has counted it
            socket = tap.read(pending, socket, from_client=from_client)
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


@contextlib.asynccontextmanager
async def wire_tap(server_port: int) -> AsyncIterator[WireTap]:
    """A relay on a free loopback port to `server_port`, recording what both sides send; closed on exit."""
    tap = WireTap()
    pipes: set[asyncio.Task[None]] = set()

    async def relay(client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", server_port)
        for task in (asyncio.create_task(_pipe(client_reader, server_writer, tap, from_client=True)),
                     asyncio.create_task(_pipe(server_reader, client_writer, tap, from_client=False))):  # fmt: skip
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
