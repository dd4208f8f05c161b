"""The baseline of bench/load.py: a raw websockets server that answers every frame at once, nothing else.

Same library, same `serve` settings and the same event loop as the game server (it reads the same
FREECELL_ARENA_* settings: frame size limit, pings, compression, event loop), so the difference between the
two is the game server's own work. With `--replies FILE` (what bench/load.py passes after its server run) each
reply is the next of the game server's own move replies recorded by the load client, with the request's `id`
put in: same bytes, same JSON for the client to parse, same data for deflate to compress. Otherwise each reply
is the request padded with `x` to `--reply-bytes` (it compresses to almost nothing and parses as one string,
which flatters the echo: kept for `--target echo` alone).

    python bench/echo_server.py --port 0 --replies replies.json  # prints "echo: listening on ws://HOST:PORT/"
    python bench/echo_server.py --port 0 --reply-bytes 1500
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import re
import signal
from collections.abc import Callable

from websockets.asyncio.server import ServerConnection, serve

from freecell_arena.net.compression import serve_options
from freecell_arena.settings import Settings


def padded(frame: str, size: int) -> str:
    """`{..."id": 7}` -> `{..."id": 7,"pad":"xxxx"}` of `size` characters (or the frame as it is if longer)."""
    room = size - len(frame) - len(',"pad":""')
    if room <= 0 or not frame.endswith("}"):
        return frame
    return f'{frame[:-1]},"pad":"{"x" * room}"}}'


MOVE_REQUEST = '{"type": "move",'
REPLY_ID = re.compile(r'"id":\s*-?\d+')


def replaying(samples: list[str]) -> Callable[[str], str]:
    """A reply function that answers each move request with the next sample, the request's `id` in place of the
    sample's, and any other request with itself. The load client's requests start with their type and end with
    `"id": N}`, so the type is matched and the id cut out, not parsed."""
    templates = []
    for sample in samples:
        match = REPLY_ID.search(sample)
        if match is None:
            raise ValueError(f"a recorded reply has no id: {sample[:80]!r}")
        templates.append((sample[: match.start()] + '"id":', sample[match.end() :]))
    cycle = itertools.cycle(templates)

    def reply(frame: str) -> str:
        if not frame.startswith(MOVE_REQUEST):
            return frame
        head, tail = next(cycle)
        return head + frame[frame.rindex(":") + 1 : -1].strip() + tail

    return reply


def arguments_and_answer(description: str) -> tuple[argparse.Namespace, Callable[[str], str]]:
    """The command line of both echoes, and the reply function it asks for."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--reply-bytes", type=int, default=0, help="pad replies to this many characters")
    parser.add_argument("--replies", help="a JSON list of recorded replies to answer with, in turn")
    parser.add_argument("--room-size", type=int, default=1,
                        help="durable echo: rooms of this many connections, each move's progress to the others")
    args = parser.parse_args()
    if args.replies:
        with open(args.replies, encoding="utf-8") as file:
            return args, replaying(json.load(file))
    size = args.reply_bytes
    return args, lambda frame: padded(frame, size)


async def until_stopped() -> None:
    """Until SIGTERM or SIGINT (bench/load.py terminates its servers)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await stop.wait()


async def main() -> None:
    args, answer = arguments_and_answer(__doc__.splitlines()[0])
    settings = Settings()

    async def echo(websocket: ServerConnection) -> None:
        async for frame in websocket:
            await websocket.send(answer(frame) if isinstance(frame, str) else frame)

    async with serve(
        echo, args.host, args.port,
        max_size=settings.connection.max_message_bytes * 4, ping_interval=settings.connection.ping_interval_s,
        **serve_options(settings.connection.compression, settings.connection.compression_min_bytes),
        ping_timeout=settings.connection.ping_timeout_s, close_timeout=2,
    ) as server:  # fmt: skip
        port = server.sockets[0].getsockname()[1]
        print(f"echo: listening on ws://{args.host}:{port}/", flush=True)
        await until_stopped()


if __name__ == "__main__":
    from freecell_arena.commands.serve import loop_factory

    with asyncio.Runner(loop_factory=loop_factory(Settings().process.event_loop)) as runner:  # the server's loop too
        runner.run(main())
