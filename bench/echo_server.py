"""The baseline of bench/load.py: a raw websockets server that answers every frame at once, nothing else.

Same library, same `serve` settings and the same event loop as the game server (it reads the same
FREECELL_ARENA_* settings: frame size limit, pings, compression, event loop), so the difference between the
two is the game server's own work. Each reply is the request padded to `--reply-bytes`,
the size of the game server's move replies, so both move the same bytes; it still carries the request's `id`
(the padding goes inside the JSON object), so the load client matches replies the same way for both.

    python bench/echo_server.py --port 0 --reply-bytes 1500    # prints "echo: listening on ws://HOST:PORT/"
"""

from __future__ import annotations

import argparse
import asyncio
import signal

from websockets.asyncio.server import ServerConnection, serve

from server.settings import Settings


def padded(frame: str, size: int) -> str:
    """`{..."id": 7}` -> `{..."id": 7,"pad":"xxxx"}` of `size` characters (or the frame as it is if longer)."""
    room = size - len(frame) - len(',"pad":""')
    if room <= 0 or not frame.endswith("}"):
        return frame
    return f'{frame[:-1]},"pad":"{"x" * room}"}}'


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--reply-bytes", type=int, default=0, help="pad replies to this many characters")
    args = parser.parse_args()
    settings = Settings()

    async def echo(websocket: ServerConnection) -> None:
        async for frame in websocket:
            await websocket.send(padded(frame, args.reply_bytes) if isinstance(frame, str) else frame)

    async with serve(
        echo, args.host, args.port,
        max_size=settings.max_message_bytes * 4, ping_interval=settings.ping_interval_s,
        compression=None if settings.compression == "none" else "deflate",
        ping_timeout=settings.ping_timeout_s, close_timeout=2,
    ) as server:  # fmt: skip
        port = server.sockets[0].getsockname()[1]
        print(f"echo: listening on ws://{args.host}:{port}/", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        await stop.wait()


if __name__ == "__main__":
    from server.commands.serve import loop_factory

    with asyncio.Runner(loop_factory=loop_factory(Settings().event_loop)) as runner:  # the server's event loop too
        runner.run(main())
