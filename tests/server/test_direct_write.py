"""Pins the websockets behaviour net/direct_write.py relies on, against a real websockets server and client on a
loopback port: frames written at once, one or many in one write, arrive whole (compressed or not) and in order
with `send`'s frames; a paused transport, a fragmented message being sent and a closed connection each make
`write_now` refuse, so the caller's `send` waits or raises as before. An upgrade of websockets that changes any of
it fails here. Each test runs on the standard event loop and on uvloop (what `serve` uses where it is installed)."""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any

import pytest
import uvloop
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from freecell_arena.net.direct_write import write_now
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


@asynccontextmanager
async def pair(
    client_compression: str | None = None, **options: Any
) -> AsyncIterator[tuple[ServerConnection, ClientConnection]]:
    """A real server connection and the client at its other end, which offers what `client_compression` says
    (by default, what the server's `compression` option says)."""
    accepted: asyncio.Future[ServerConnection] = asyncio.get_running_loop().create_future()
    done = asyncio.Event()

    async def handler(websocket: ServerConnection) -> None:
        accepted.set_result(websocket)
        await done.wait()

    async with serve(handler, "127.0.0.1", 0, **options) as server:
        port = server.sockets[0].getsockname()[1]
        offer = client_compression or options.get("compression", "deflate")
        async with connect(f"ws://127.0.0.1:{port}/", compression=offer) as client:
            websocket = await asyncio.wait_for(accepted, 5)
            try:
                yield websocket, client
            finally:
                done.set()


@pytest.mark.parametrize("compression", ["deflate", None])
def test_a_frame_written_at_once_arrives_whole_and_in_order_with_sent_ones(
    on_loop: OnLoop, compression: str | None
) -> None:
    async def scenario() -> None:
        async with pair(compression=compression) as (websocket, client):
            assert bool(websocket.protocol.extensions) == (compression is not None)
            texts = [f'{{"type":"move_accepted","id":{i},"changes":"{"ü" * i}"}}' for i in range(50)]
            for i, text in enumerate(texts):
                if i % 3 == 0:
                    await websocket.send(text)
                else:
                    assert write_now(websocket, [text])
            received = [await asyncio.wait_for(client.recv(), 5) for _ in texts]
            assert received == texts

    on_loop(scenario())


def test_many_frames_in_one_write_arrive_in_order_and_none_when_refused(on_loop: OnLoop) -> None:
    async def scenario() -> None:
        async with pair() as (websocket, client):
            batch = [f"progress {i}" for i in range(100)]
            assert write_now(websocket, batch)
            assert write_now(websocket, [])
            await websocket.send("after the batch")
            assert [await asyncio.wait_for(client.recv(), 5) for _ in range(101)] == [*batch, "after the batch"]
            await client.close()
            await asyncio.wait_for(websocket.wait_closed(), 5)
            assert not write_now(websocket, batch)

    on_loop(scenario())


def test_a_paused_transport_is_left_to_send_which_waits_for_the_client(on_loop: OnLoop) -> None:
    async def scenario() -> None:
        async with pair(compression=None, write_limit=4096) as (websocket, client):
            client.transport.pause_reading()  # the client stops reading: the kernel's buffers, then the server's, fill
            chunk = os.urandom(16_384).hex()
            written = 0
            while write_now(websocket, [chunk]):
                written += 1
                assert written < 10_000, "the transport never paused"
            assert websocket.paused
            assert not write_now(websocket, ["refused while paused"])
            late = asyncio.create_task(websocket.send("last"))
            await asyncio.sleep(0.2)
            assert not late.done()  # send waits for the buffer, as it always did
            client.transport.resume_reading()
            for _ in range(written):
                assert await asyncio.wait_for(client.recv(), 10) == chunk
            assert await asyncio.wait_for(client.recv(), 10) == "last"
            await asyncio.wait_for(late, 10)
            assert not websocket.paused
            assert write_now(websocket, ["flowing again"])
            assert await asyncio.wait_for(client.recv(), 5) == "flowing again"

    on_loop(scenario())


def test_a_fragmented_message_in_progress_is_not_interleaved(on_loop: OnLoop) -> None:
    async def scenario() -> None:
        async with pair() as (websocket, client):
            between = asyncio.Event()
            resume = asyncio.Event()

            async def fragments() -> AsyncIterator[str]:
                yield "first half, "
                between.set()
                await resume.wait()
                yield "second half"

            sending = asyncio.create_task(websocket.send(fragments()))
            await asyncio.wait_for(between.wait(), 5)
            assert not write_now(websocket, ["would split the message"])
            resume.set()
            await asyncio.wait_for(sending, 5)
            assert write_now(websocket, ["after it"])
            assert await asyncio.wait_for(client.recv(), 5) == "first half, second half"
            assert await asyncio.wait_for(client.recv(), 5) == "after it"

    on_loop(scenario())


def test_a_closed_connection_is_left_to_send_which_raises(on_loop: OnLoop) -> None:
    async def scenario() -> None:
        async with pair() as (websocket, client):
            await client.close()
            await asyncio.wait_for(websocket.wait_closed(), 5)
            assert not write_now(websocket, ["too late"])
            with pytest.raises(ConnectionClosed):
                await websocket.send("too late")

    on_loop(scenario())


def test_a_closing_connection_is_left_to_send(on_loop: OnLoop) -> None:
    async def scenario() -> None:
        async with pair() as (websocket, client):
            closing = asyncio.create_task(websocket.close())  # the close frame is out, the client's not back yet
            await asyncio.sleep(0)
            assert not write_now(websocket, ["after the close frame"])
            await asyncio.wait_for(client.wait_closed(), 5)
            await asyncio.wait_for(closing, 5)

    on_loop(scenario())


def test_an_outbox_writes_its_queue_in_batches_in_order_without_a_task(on_loop: OnLoop) -> None:
    async def scenario() -> None:
        async with pair() as (websocket, client):
            overflowed: list[bool] = []
            outbox = Outbox(
                websocket, 10_000_000, lambda: overflowed.append(True), functools.partial(write_now, websocket)
            )
            texts = [Encoded("progress", f'{{"type":"progress","n":{i},"pad":"{"x" * 1000}"}}') for i in range(300)]
            tasks_before = len(asyncio.all_tasks())
            for text in texts:  # 300 KB queued in one turn of the loop: several batches of BATCH_BYTES
                assert outbox.put(text)
            assert sum(len(text.text) for text in texts) > 3 * BATCH_BYTES
            assert outbox.frames, "written on the loop's next turn, not by put"
            received = [await asyncio.wait_for(client.recv(), 5) for _ in texts]
            assert received == [text.text for text in texts]
            assert outbox.queued_bytes == 0 and not outbox.frames and not overflowed
            assert len(asyncio.all_tasks()) == tasks_before, "a socket that takes the frames needs no sender task"
            await asyncio.wait_for(outbox.close(), 5)
            assert not outbox.put(Encoded("progress", '{"type":"progress","n":-1}')), "nobody sends after close"

    on_loop(scenario())


def test_an_outbox_hands_a_slow_reader_to_a_sender_task_which_ends_when_the_queue_is_written(on_loop: OnLoop) -> None:
    async def scenario() -> None:
        async with pair(compression=None, write_limit=4096) as (websocket, client):
            outbox = Outbox(websocket, 100_000_000, lambda: None, functools.partial(write_now, websocket))
            client.transport.pause_reading()  # the client stops reading: the kernel's buffers, then the server's, fill
            chunk = os.urandom(16_384).hex()
            texts = [Encoded("progress", f'{{"n":{i},"pad":"{chunk}"}}') for i in range(400)]  # 13 MB
            for text in texts:
                assert outbox.put(text)
            for _ in range(200):
                await asyncio.sleep(0.01)
                if websocket.paused:
                    break
            assert websocket.paused, "the transport never paused"
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


def test_a_websockets_without_the_attributes_relied_on_writes_nothing_and_send_takes_over() -> None:
    """Another websockets release, installed by hand: `write_now` declines, and every frame goes through `send`."""
    from types import SimpleNamespace

    from freecell_arena.net.direct_write import write_now

    assert write_now(SimpleNamespace(transport=None), ["{}"]) is False  # type: ignore[arg-type]


@pytest.mark.parametrize("length", [0, 1, 125, 126, 127, 1023, 1024, 65535, 65536, 70_000])
def test_a_frame_framed_here_is_byte_for_byte_websockets_own(length: int) -> None:
    from websockets.frames import Frame, Opcode

    from freecell_arena.net.direct_write import text_frame

    payload = ("é" * length).encode()[:length]
    assert text_frame(payload) == Frame(Opcode.TEXT, payload).serialize(mask=False, extensions=[])


@pytest.mark.parametrize("policy", ["large", "deflate", "none"])
def test_only_frames_no_extension_would_change_skip_websockets_framing(
    on_loop: OnLoop, policy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under each compression policy: which frames `write_now` frames itself (none compressed), which it leaves to
    websockets (whatever the negotiated extension compresses), and that the client reads them all alike."""
    from websockets.frames import Frame

    from freecell_arena.net.compression import DEFAULT_MIN_BYTES, serve_options
    from freecell_arena.net.direct_write import UNLIMITED, plain_below

    serialized: list[int] = []
    serialize = Frame.serialize

    def counting(frame: Frame, **options: Any) -> bytes:
        serialized.append(len(frame.data))
        return serialize(frame, **options)

    async def scenario() -> None:
        options = serve_options(policy)  # type: ignore[arg-type]
        async with pair("deflate", **options) as (websocket, client):
            below = plain_below(websocket.protocol.extensions)
            assert below == {"large": DEFAULT_MIN_BYTES, "deflate": 0, "none": UNLIMITED}[policy]
            texts = ["x" * size for size in (10, 500, DEFAULT_MIN_BYTES - 1, DEFAULT_MIN_BYTES, 5000, 70_000)]
            monkeypatch.setattr(Frame, "serialize", counting)
            assert write_now(websocket, texts)
            monkeypatch.setattr(Frame, "serialize", serialize)
            assert [await asyncio.wait_for(client.recv(), 5) for _ in texts] == texts
            assert serialized == [len(text) for text in texts if len(text) >= below]

    on_loop(scenario())
