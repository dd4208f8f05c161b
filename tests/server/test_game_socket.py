"""The server's connection reads frames as websockets' own asyncio server does (net/game_socket.py, net/inbox.py):
two echo servers on loopback ports, one of `GameSocket`s read through their inbox, one of websockets' own
`ServerConnection`s read with `recv()`, get the same bytes from a raw client (sequences of frames Hypothesis draws,
cut at points it draws: whole and compressed messages, fragments, pings, a close, and the frames websockets
refuses) and must answer alike: the same messages echoed, the pings answered, the same close code and reason."""

from __future__ import annotations

import asyncio
import itertools
import os
import struct
import zlib
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import pytest
import uvloop
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.asyncio.server import ServerConnection, serve
from websockets.client import ClientProtocol
from websockets.exceptions import ConnectionClosed
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import enable_client_permessage_deflate
from websockets.frames import Close, Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import OPEN
from websockets.protocol import Event as ProtocolEvent
from websockets.uri import parse_uri

from freecell_arena.net.compression import Compression, extensions, plain_below
from freecell_arena.net.game_socket import GameListener, GameSocket, SocketTerms

MAX_SIZE = 4096
EXAMPLES = int(os.environ.get("FREECELL_ARENA_SOCKET_EXAMPLES", "40"))


def echoed(message: str | bytes) -> str:
    """What both echo servers answer: a text as it came, a binary message as text (the game server sends text)."""
    return message if isinstance(message, str) else f"binary:{message.hex()}"


async def no_http(address: str, request: Request) -> Response | None:
    return None  # every request is a websocket handshake


async def echo_from_inbox(socket: GameSocket) -> None:
    inbox = socket.inbox
    try:
        while True:
            message = inbox.pop()
            if message is None:
                message = await inbox.next()
            if message is None:
                raise await socket.closed()
            await socket.send(echoed(message))
    except ConnectionClosed:
        pass


async def echo_from_recv(websocket: ServerConnection) -> None:
    try:
        while True:
            await websocket.send(echoed(await websocket.recv()))
    except ConnectionClosed:
        pass


@asynccontextmanager
async def echo_servers(compression: Compression) -> AsyncIterator[tuple[int, int]]:
    """The two echo servers (ours, websockets'), each under the compression policy: their ports."""
    terms = SocketTerms(answer_http=no_http, handle=echo_from_inbox, extensions=extensions(compression),
                        plain_below=plain_below(compression), max_size=MAX_SIZE)  # fmt: skip
    ours = GameListener(terms)
    await ours.start("127.0.0.1", 0)
    options = {"compression": None, "max_size": MAX_SIZE, "ping_interval": None, "close_timeout": 2}
    try:
        async with serve(echo_from_recv, "127.0.0.1", 0, extensions=extensions(compression), **options) as plain:
            yield ours.port, plain.sockets[0].getsockname()[1]
    finally:
        await ours.close()


# ---------------------------------------------------------------------------- frames, as a client writes them

SIMPLE = ("text", "compressed_text", "binary", "compressed_binary")
"""Whole messages, compressed ones as the negotiated extension compresses them."""
FATAL = ("invalid_utf8", "unmasked", "reserved_bit", "bad_opcode", "oversized", "corrupt_deflate", "deflate_bomb",
         "stray_continuation", "close", "cut_short")  # fmt: skip
"""Kinds after which the connection ends."""


def raw_frame(head1: int, payload: bytes, masked: bool = True, declared: int | None = None) -> bytes:
    """A frame built by hand, reserved bits and all (websockets' `Frame.serialize` refuses to write bad ones)."""
    length = len(payload) if declared is None else declared
    if length < 126:
        header = struct.pack("!BB", head1, (0x80 if masked else 0) | length)
    elif length < 65536:
        header = struct.pack("!BBH", head1, (0x80 if masked else 0) | 126, length)
    else:
        header = struct.pack("!BBQ", head1, (0x80 if masked else 0) | 127, length)
    if not masked:
        return header + payload
    mask = os.urandom(4)
    return header + mask + bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))


@dataclass
class Script:
    """One connection's bytes after the handshake, and what an echo server must answer to them."""

    data: bytes
    messages: list[str]  # echoed, in order, when the connection does not fail before them
    pings_before_end: int  # pings answered for sure (sent before the frame that ends the connection)
    pings_after_invalid: int  # pings after a text that is not UTF-8, which websockets may still answer
    ends_by: str | None  # the FATAL kind that ends it, or None (the client closes once every echo is in)


def script_of(kinds: list[tuple[str, str]], extension: Extension | None) -> Script:
    parts: list[bytes] = []
    messages: list[str] = []
    pings_before = pings_after_invalid = 0
    ends_by: str | None = None
    for kind, text in kinds:
        data = text.encode()
        compressed = kind.startswith("compressed") and extension is not None
        if kind in ("text", "compressed_text", "binary", "compressed_binary"):
            opcode = Opcode.TEXT if kind.endswith("text") else Opcode.BINARY
            parts.append(Frame(opcode, data).serialize(mask=True, extensions=[extension] if compressed else []))
            if ends_by is None:
                messages.append(echoed(text if opcode is Opcode.TEXT else data))
        elif kind == "fragmented":
            first, rest = data[: len(data) // 2], data[len(data) // 2 :]
            parts.append(Frame(Opcode.TEXT, first, fin=False).serialize(mask=True))
            parts.append(Frame(Opcode.PING, b"between").serialize(mask=True))
            parts.append(Frame(Opcode.CONT, rest).serialize(mask=True))
            if ends_by is None:
                messages.append(text)
                pings_before += 1
            elif ends_by == "invalid_utf8":
                pings_after_invalid += 1
        elif kind == "ping":
            parts.append(Frame(Opcode.PING, data[:100]).serialize(mask=True))
            if ends_by is None:
                pings_before += 1
            elif ends_by == "invalid_utf8":
                pings_after_invalid += 1
        elif ends_by is None:  # a FATAL kind: the first one ends the connection, the bytes after it are sent anyway
            ends_by = kind
            parts.append(fatal_frame(kind, data, extension))
            if kind == "cut_short":
                break
    return Script(b"".join(parts), messages, pings_before, pings_after_invalid, ends_by)


def fatal_frame(kind: str, data: bytes, extension: Extension | None) -> bytes:
    if kind == "invalid_utf8":
        return raw_frame(0x81, data + b"\xff\xfe")
    if kind == "unmasked":
        return raw_frame(0x81, data, masked=False)
    if kind == "reserved_bit":
        return raw_frame(0x81 | 0x20, data)
    if kind == "bad_opcode":
        return raw_frame(0x83, data)
    if kind == "oversized":
        return raw_frame(0x81, data, declared=MAX_SIZE + 1 + len(data))  # the rest never comes: refused on its header
    if kind == "corrupt_deflate":
        return raw_frame(0x81 | 0x40, b"\x00not deflate" + data)
    if kind == "deflate_bomb":
        squeeze = zlib.compressobj(wbits=-12)
        return raw_frame(0x81 | 0x40, squeeze.compress(b"a" * (4 * MAX_SIZE)) + squeeze.flush(zlib.Z_SYNC_FLUSH)[:-4])
    if kind == "stray_continuation":
        return raw_frame(0x80, data)
    if kind == "close":
        return Frame(Opcode.CLOSE, Close(4000, "bye " + data.decode()[:20]).serialize()).serialize(mask=True)
    assert kind == "cut_short"
    whole = Frame(Opcode.TEXT, data + b" and more").serialize(mask=True)
    return whole[: len(whole) - 3]


# ---------------------------------------------------------------------------- a raw client


@dataclass
class Answer:
    messages: list[str | bytes]
    pongs: int
    close: tuple[int, str] | None  # the server's close frame, None when it closed without one (1006)


async def converse(
    port: int, compression: Compression, kinds: list[tuple[str, str]], cuts: list[float]
) -> tuple[Answer, Script]:
    offered = list(enable_client_permessage_deflate(None)) if compression != "none" else []
    client = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/"), max_size=None, extensions=offered)
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 5)
    client.send_request(client.connect())
    request = b"".join(client.data_to_send())
    writer.write(request)
    while client.state is not OPEN:
        chunk = await asyncio.wait_for(reader.read(65536), 5)
        assert chunk, "the server closed during the handshake"
        client.receive_data(chunk)
        client.events_received()  # the response
    negotiated = client.extensions[0] if client.extensions else None
    script = script_of(kinds, negotiated)
    data = script.data
    points = sorted({int(cut * len(data)) for cut in cuts} | {0, len(data)})
    for start, end in itertools.pairwise(points):
        writer.write(data[start:end])
        await writer.drain()
        await asyncio.sleep(0.002)
    if script.ends_by == "cut_short":
        writer.write_eof()
    events: list[ProtocolEvent] = []
    if script.ends_by is None:  # every echo in, then the client's close (one sent earlier would cut the echoes)
        while sum(isinstance(event, Frame) and event.opcode in (Opcode.TEXT, Opcode.BINARY) for event in events) < (
            len(script.messages)
        ):
            client.receive_data(await asyncio.wait_for(reader.read(65536), 10))
            events += client.events_received()
        writer.write(Frame(Opcode.CLOSE, Close(1000, "done").serialize()).serialize(mask=True))
    while True:
        chunk = await asyncio.wait_for(reader.read(65536), 10)
        if not chunk:
            break
        client.receive_data(chunk)
        events += client.events_received()
    writer.close()
    messages: list[str | bytes] = []
    pongs = 0
    close: tuple[int, str] | None = None
    for event in events:
        assert isinstance(event, Frame)
        if event.opcode is Opcode.TEXT:
            messages.append(event.data.decode())
        elif event.opcode is Opcode.BINARY:
            messages.append(bytes(event.data))
        elif event.opcode is Opcode.PONG:
            pongs += 1
        elif event.opcode is Opcode.CLOSE:
            parsed = Close.parse(event.data)
            close = (parsed.code, parsed.reason)
    return Answer(messages, pongs, close), script


# ---------------------------------------------------------------------------- the property

texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=300)
kinds = st.lists(
    st.tuples(st.sampled_from((*SIMPLE, *SIMPLE, "fragmented", "ping", *FATAL)), texts), min_size=1, max_size=12
)
cuts = st.lists(st.floats(0, 1), max_size=6)


@pytest.fixture(params=["large", "deflate", "none"])
def servers(request: pytest.FixtureRequest) -> Iterator[tuple[asyncio.Runner, int, int, Compression]]:
    compression: Compression = request.param
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        context = echo_servers(compression)
        ours, plain = runner.run(context.__aenter__())
        try:
            yield runner, ours, plain, compression
        finally:
            runner.run(context.__aexit__(None, None, None))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kinds=kinds, cuts=cuts)
def test_frames_are_read_as_websockets_reads_them(
    servers: tuple[asyncio.Runner, int, int, Compression], kinds: list[tuple[str, str]], cuts: list[float]
) -> None:
    runner, our_port, plain_port, compression = servers
    ours, script = runner.run(converse(our_port, compression, kinds, cuts))
    theirs, _ = runner.run(converse(plain_port, compression, kinds, cuts))
    assert ours.close == theirs.close
    if script.ends_by is None:
        assert ours.close == (1000, "done")
        assert ours.messages == theirs.messages == script.messages
    else:  # what was echoed before the end depends on when each read happened: a prefix of the messages, in order
        for answer in (ours, theirs):
            assert answer.messages == script.messages[: len(answer.messages)]
    for answer in (ours, theirs):
        assert script.pings_before_end <= answer.pongs <= script.pings_before_end + script.pings_after_invalid


def test_reading_pauses_while_messages_wait_and_resumes_once_read() -> None:
    """A client that sends faster than its messages are read fills its own buffers, not the server's memory."""

    async def scenario() -> None:
        accepted: asyncio.Future[GameSocket] = asyncio.get_running_loop().create_future()
        release = asyncio.Event()

        async def echo_once_released(socket: GameSocket) -> None:
            accepted.set_result(socket)
            await release.wait()
            while (message := await socket.inbox.next()) is not None:
                assert isinstance(message, str)
                await socket.send(message)

        listener = GameListener(SocketTerms(answer_http=no_http, handle=echo_once_released, max_queue=8))
        await listener.start("127.0.0.1", 0)
        try:
            port = listener.port
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            client = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/"))
            client.send_request(client.connect())
            writer.write(b"".join(client.data_to_send()))
            while client.state is not OPEN:
                client.receive_data(await asyncio.wait_for(reader.read(65536), 5))
            socket = await asyncio.wait_for(accepted, 5)
            writer.write(b"".join(Frame(Opcode.TEXT, f"m{i}".encode()).serialize(mask=True) for i in range(30)))
            await writer.drain()
            for _ in range(100):
                await asyncio.sleep(0.01)
                if len(socket.inbox.messages) == 30:
                    break
            assert len(socket.inbox.messages) == 30  # one read brought them all: paused after it
            assert not socket.transport.is_reading()
            release.set()
            received: list[str] = []
            while len(received) < 30:
                client.receive_data(await asyncio.wait_for(reader.read(65536), 5))
                received += [event.data.decode() for event in client.events_received() if isinstance(event, Frame)]
            assert received == [f"m{i}" for i in range(30)]
            assert socket.transport.is_reading()
            writer.close()
        finally:
            await asyncio.wait_for(listener.close(), 10)

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(scenario())
