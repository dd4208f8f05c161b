"""A second baseline for bench/load.py: the same echo on websockets' sans-I/O core, with no task per connection.

`bench/echo_server.py` uses websockets' asyncio server, as the game server does: a task per connection, a
queue between the socket and `recv()`, an async context manager around every `send()`. This one feeds the bytes
of an `asyncio.Protocol` straight into a `websockets.server.ServerProtocol` and writes what it has to send from
the same callback: the same handshake, framing, masking and compression policy (net/compression.py), pings
answered by the protocol, no HTTP routes. It answers each move with the
game server's recorded replies, like the other echo. What it costs per round trip, beside the asyncio echo's, is
what a game server built on the sans-I/O core directly could save per move (docs/performance.md).

    python bench/load.py --connections 1000 --echo sansio      # the game server, then this echo
    python bench/echo_sansio.py --port 0 --replies replies.json
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from echo_server import arguments_and_answer, until_stopped
from websockets.frames import Opcode
from websockets.http11 import Request
from websockets.protocol import State
from websockets.server import ServerProtocol

from freecell_arena.net.compression import extensions
from freecell_arena.settings import Settings


class SansIoEcho(asyncio.Protocol):
    def __init__(self, answer: Callable[[str], str], max_size: int, settings: Settings) -> None:
        connection = settings.connection
        offered = extensions(connection.compression, connection.compression_min_bytes)  # the server's policy
        self.protocol = ServerProtocol(extensions=offered, max_size=max_size)
        self.answer = answer
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's TCP transport is not an asyncio.Transport

    def data_received(self, data: bytes) -> None:
        protocol = self.protocol
        protocol.receive_data(data)
        for event in protocol.events_received():
            if isinstance(event, Request):
                protocol.send_response(protocol.accept(event))
            elif event.opcode is Opcode.TEXT and protocol.state is State.OPEN:  # the load sends whole frames
                protocol.send_text(self.answer(event.data.decode()).encode())
        self._flush()

    def eof_received(self) -> bool | None:
        self.protocol.receive_eof()
        self._flush()
        return None

    def _flush(self) -> None:
        assert self.transport is not None
        for data in self.protocol.data_to_send():
            if data:
                self.transport.write(data)
            else:
                self.transport.close()
                return


async def main() -> None:
    args, answer = arguments_and_answer(__doc__.splitlines()[0])
    settings = Settings()
    loop = asyncio.get_running_loop()
    server: Any = await loop.create_server(
        lambda: SansIoEcho(answer, settings.connection.max_message_bytes * 4, settings),
        args.host, args.port,
    )
    port = server.sockets[0].getsockname()[1]
    print(f"echo (sans-I/O): listening on ws://{args.host}:{port}/", flush=True)
    await until_stopped()
    server.close()


if __name__ == "__main__":
    from freecell_arena.commands.serve import loop_factory

    with asyncio.Runner(loop_factory=loop_factory(Settings().process.event_loop)) as runner:
        runner.run(main())
