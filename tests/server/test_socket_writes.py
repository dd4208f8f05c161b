"""What the server's connection writes (net/game_socket.py), against a real listener and a real websockets client on
a loopback port: frames written at once, one or many in one write, arrive whole (compressed or not) and in order
with `send`'s frames; a transport over its write limit, a closing and a closed connection each make `write_now`
refuse, so the caller's `send` waits or raises; the outbox (net/outbox.py) writes its queue in batches without a
task while the socket takes it, and hands a slow reader to a sender task. Each test runs on the standard event loop
and on uvloop (what the server runs on where it is installed)."""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
import uvloop
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.http11 import Request, Response

from freecell_arena.net.compression import DEFAULT_MIN_BYTES, Compression, extensions, plain_below
from freecell_arena.net.game_socket import UNLIMITED, GameListener, GameSocket, SocketTerms, text_frame
from freecell_arena.net.outbox import BATCH_BYTES, Outbox
from freecell_arena.protocol.trusted import Encoded

LOOPS: dict[str, Callable[[], asyncio.AbstractEventLoop]] = {
    "asyncio": asyncio.new_event_loop,
    "uvloop": uvloop.new_event_loop,
}
OnLoop = Callable[[Coroutine[Any, Any, None]], None]


@pytest.fixture(params=sorted(LOOPS))
def on_loop(request: pytest.FixtureRequest) -> OnLoop:
    """Runs a test's scenario on the event loop of the parameter."""

    def run(scenario: Coroutine[Any, Any, None]) -> None:
        with asyncio.Runner(loop_factory=LOOPS[request.param]) as runner:
            runner.run(scenario)

    return run


@dataclass
class FrameCounts:
    """What an outbox counts (the server's are its metrics')."""

    errors: Counter[str] = field(default_factory=Counter)
    frames_dropped: int = 0


async def no_http(address: str, request: Request) -> Response | None:
    return None  # every request is a websocket handshake


@asynccontextmanager
async def pair(
    policy: Compression = "deflate", client_compression: str | None = "deflate", write_limit: int = 2**15
) -> AsyncIterator[tuple[GameSocket, ClientConnection]]:
    """A server connection under a compression policy and the client at its other end, which offers websockets'
    own deflate unless told otherwise."""
    accepted: asyncio.Future[GameSocket] = asyncio.get_running_loop().create_future()
    done = asyncio.Event()

    async def live() -> None:
        await done.wait()

    def handle(socket: GameSocket) -> Coroutine[Any, Any, None]:
        accepted.set_result(socket)
        return live()

    terms = SocketTerms(answer_http=no_http, handle=handle, extensions=extensions(policy),
                        plain_below=plain_below(policy), write_limit=write_limit)  # fmt: skip
    listener = GameListener(terms)
    await listener.start("127.0.0.1", 0)
    try:
        async with connect(f"ws://127.0.0.1:{listener.port}/", compression=client_compression) as client:
            socket = await asyncio.wait_for(accepted, 5)
            try:
                yield socket, client
            finally:
                done.set()
    finally:
        await asyncio.wait_for(listener.close(), 10)


@pytest.mark.parametrize("policy", ["deflate", "none"])
def test_a_frame_written_at_once_arrives_whole_and_in_order_with_sent_ones(
    on_loop: OnLoop, policy: Compression
) -> None:
    async def scenario() -> None:
        async with pair(policy) as (socket, client):
            assert socket.plain_below == (0 if policy == "deflate" else UNLIMITED)
            texts = [f'{{"type":"move_accepted","id":{i},"changes":"{"ü" * i}"}}' for i in range(50)]
            for i, text in enumerate(texts):
                if i % 3 == 0:
                    await socket.send(text)
                else:
                    assert socket.write_now([text])
            received = [await asyncio.wait_for(client.recv(), 5) for _ in texts]
            assert received == texts

    on_loop(scenario())


def test_many_frames_in_one_write_arrive_in_order_and_none_when_refused(on_loop: OnLoop) -> None:
    async def scenario() -> None:
        async with pair() as (socket, client):
            batch = [f"progress {i}" for i in range(100)]
            assert socket.write_now(batch)
            assert socket.write_now([])
            await socket.send("after the batch")
            assert [await asyncio.wait_for(client.recv(), 5) for _ in range(101)] == [*batch, "after the batch"]
            await client.close()
            await asyncio.wait_for(socket.closed(), 5)
            assert not socket.write_now(batch)

    on_loop(scenario())


def test_a_full_transport_is_left_to_send_which_waits_for_the_client(on_loop: OnLoop) -> None:
    async def scenario() -> None:
        async with pair("none", None, write_limit=4096) as (socket, client):
            client.transport.pause_reading()  # the client stops reading: the kernel's buffers, then the server's, fill
            chunk = os.urandom(16_384).hex()
            written = 0
            while socket.write_now([chunk]):
                written += 1
                assert written < 10_000, "the transport never paused"
            assert socket.paused
            assert not socket.write_now(["refused while paused"])
            late = asyncio.create_task(socket.send("last"))
            await asyncio.sleep(0.2)
            assert not late.done()  # send waits for the buffer, as websockets' did
            client.transport.resume_reading()
            for _ in range(written):
                assert await asyncio.wait_for(client.recv(), 10) == chunk
            assert await asyncio.wait_for(client.recv(), 10) == "last"
            await asyncio.wait_for(late, 10)
            assert not socket.paused
            assert socket.write_now(["flowing again"])
            assert await asyncio.wait_for(client.recv(), 5) == "flowing again"

    on_loop(scenario())


def test_a_closed_connection_is_left_to_send_which_raises(on_loop: OnLoop) -> None:
    async def scenario() -> None:
        async with pair() as (socket, client):
            await client.close()
            await asyncio.wait_for(socket.closed(), 5)
            assert not socket.write_now(["too late"])
            with pytest.raises(ConnectionClosed):
                await socket.send("too late")

    on_loop(scenario())


def test_a_closing_connection_is_left_to_send(on_loop: OnLoop) -> None:
    async def scenario() -> None:
        async with pair() as (socket, client):
            closing = asyncio.create_task(socket.close(4000, "bye"))  # the close frame is out, the client's not back
            await asyncio.sleep(0)
            assert not socket.write_now(["after the close frame"])
            await asyncio.wait_for(client.wait_closed(), 5)
            await asyncio.wait_for(closing, 5)
            assert (client.close_code, client.close_reason) == (4000, "bye")

    on_loop(scenario())


def test_an_outbox_writes_its_queue_in_batches_in_order_without_a_task(on_loop: OnLoop) -> None:
    async def scenario() -> None:
        async with pair() as (socket, client):
            outbox = Outbox(socket, 10_000_000, FrameCounts())
            texts = [Encoded("progress", f'{{"type":"progress","n":{i},"pad":"{"x" * 1000}"}}') for i in range(300)]
            tasks_before = len(asyncio.all_tasks())
            for text in texts:  # 300 KB queued in one turn of the loop: several batches of BATCH_BYTES
                assert outbox.put(text)
            assert sum(len(text.text) for text in texts) > 3 * BATCH_BYTES
            assert outbox.frames, "written on the loop's next turn, not by put"
            received = [await asyncio.wait_for(client.recv(), 5) for _ in texts]
            assert received == [text.text for text in texts]
            assert outbox.queued_bytes == 0 and not outbox.frames and not outbox.overflowed
            assert len(asyncio.all_tasks()) == tasks_before, "a socket that takes the frames needs no sender task"
            await asyncio.wait_for(outbox.close(), 5)
            assert not outbox.put(Encoded("progress", '{"type":"progress","n":-1}')), "nobody sends after close"

    on_loop(scenario())


def test_an_outbox_hands_a_slow_reader_to_a_sender_task_which_ends_when_the_queue_is_written(on_loop: OnLoop) -> None:
    async def scenario() -> None:
        async with pair("none", None, write_limit=4096) as (socket, client):
            outbox = Outbox(socket, 100_000_000, FrameCounts())
            client.transport.pause_reading()  # the client stops reading: the kernel's buffers, then the server's, fill
            chunk = os.urandom(16_384).hex()
            texts = [Encoded("progress", f'{{"n":{i},"pad":"{chunk}"}}') for i in range(400)]  # 13 MB
            for text in texts:
                assert outbox.put(text)
            for _ in range(200):
                await asyncio.sleep(0.01)
                if socket.paused:
                    break
            assert socket.paused, "the transport never paused"
            sender = outbox._sender
            assert sender is not None and not sender.done(), "a socket that must wait gets a sender task"
            client.transport.resume_reading()
            received = [await asyncio.wait_for(client.recv(), 10) for _ in texts]
            assert received == [text.text for text in texts]
            await asyncio.wait_for(sender, 5)
            assert outbox._sender is None and not outbox.frames and outbox.queued_bytes == 0
            late = Encoded("progress", '{"after":"the queue"}')
            assert outbox.put(late)
            assert await asyncio.wait_for(client.recv(), 5) == late.text
            assert outbox._sender is None

    on_loop(scenario())


def test_an_outbox_past_its_limit_cuts_the_client_off_once(on_loop: OnLoop) -> None:
    async def scenario() -> None:
        async with pair("none", None, write_limit=4096) as (socket, client):
            outbox = Outbox(socket, 100_000, metrics := FrameCounts())
            client.transport.pause_reading()
            texts = [Encoded("progress", f'{{"n":{i},"pad":"{"x" * 10_000}"}}') for i in range(100)]  # 1 MB
            taken = [outbox.put(text) for text in texts]
            assert taken.count(False) > 0 and outbox.overflowed
            assert metrics.frames_dropped == taken.count(False), "every frame dropped is counted"
            closed = await asyncio.wait_for(socket.closed(), 5)
            assert closed.sent is None and closed.rcvd is None, "aborted: no close handshake behind unread frames"

    on_loop(scenario())


@pytest.mark.parametrize("length", [0, 1, 125, 126, 127, 1023, 1024, 65535, 65536, 70_000])
def test_a_frame_framed_here_is_byte_for_byte_websockets_own(length: int) -> None:
    payload = ("é" * length).encode()[:length]
    assert text_frame(payload) == Frame(Opcode.TEXT, payload).serialize(mask=False, extensions=[])


@pytest.mark.parametrize("policy", ["large", "deflate", "none"])
def test_only_frames_no_extension_would_change_skip_websockets_framing(
    on_loop: OnLoop, policy: Compression, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under each compression policy: which frames `write_now` frames itself (none compressed), which it leaves to
    websockets (whatever the negotiated extension compresses), and that the client reads them all alike."""
    serialized: list[int] = []
    serialize = Frame.serialize

    def counting(frame: Frame, **options: Any) -> bytes:
        serialized.append(len(frame.data))
        return serialize(frame, **options)

    async def scenario() -> None:
        async with pair(policy) as (socket, client):
            below = socket.plain_below
            assert below == {"large": DEFAULT_MIN_BYTES, "deflate": 0, "none": UNLIMITED}[policy]
            texts = ["x" * size for size in (10, 500, DEFAULT_MIN_BYTES - 1, DEFAULT_MIN_BYTES, 5000, 70_000)]
            monkeypatch.setattr(Frame, "serialize", counting)
            assert socket.write_now(texts)
            monkeypatch.setattr(Frame, "serialize", serialize)
            assert [await asyncio.wait_for(client.recv(), 5) for _ in texts] == texts
            assert serialized == [len(text) for text in texts if len(text) >= below]

    on_loop(scenario())


def test_replies_go_ahead_of_what_is_published_after_them_when_the_socket_must_wait_too(on_loop: OnLoop) -> None:
    """The effect runner's order (net/effects.py): the replies, then the publications. Written at once when the
    socket takes them; else the reader waits for them to be written, and what is published meanwhile waits behind."""

    async def scenario() -> None:
        async with pair("none", None, write_limit=4096) as (socket, client):
            outbox = Outbox(socket, 100_000_000, FrameCounts())
            assert outbox.reply([Encoded("move_accepted", '{"n":1}')]) is None, "written at once"
            assert outbox.put(Encoded("progress", '{"p":1}'))
            assert [await asyncio.wait_for(client.recv(), 5) for _ in range(2)] == ['{"n":1}', '{"p":1}']
            client.transport.pause_reading()
            chunk = os.urandom(16_384).hex()
            while socket.write_now([chunk]):  # the transport's buffer fills
                pass
            writing = outbox.reply([Encoded("move_accepted", '{"n":2}'), Encoded("game_over", '{"n":3}')])
            assert writing is not None, "the socket must wait: the reader awaits the replies"
            assert outbox.put(Encoded("progress", '{"p":2}'))
            waiting = asyncio.create_task(writing)
            await asyncio.sleep(0.1)
            assert not waiting.done()
            client.transport.resume_reading()
            await asyncio.wait_for(waiting, 10)
            received = []
            while len(received) < 3:
                if (text := await asyncio.wait_for(client.recv(), 10)) != chunk:
                    received.append(text)
            assert received == ['{"n":2}', '{"n":3}', '{"p":2}']

    on_loop(scenario())
