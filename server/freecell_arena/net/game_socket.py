"""The server's websocket connection: websockets' sans-I/O `ServerProtocol` fed by an asyncio `Protocol`, as
websockets documents for integrating it into one's own I/O (its "Integrate the Sans-I/O layer" guide), with none
of websockets' asyncio layer around it: no subclass of its classes, only its documented calls.

One `GameSocket` per accepted TCP connection:
- bytes in: `data_received` feeds them to the protocol (`receive_data`), writes at once what it answers by itself
  (a pong, the close handshake's reply, a protocol error's close), and hands its events on: the handshake's request
  starts the connection's task, a data frame goes to the inbox (net/inbox.py), a pong settles the keepalive ping.
  Each frame is parsed once, by websockets.
- the handshake: `answer_http` (net/http_front.py) answers a plain HTTP request; a websocket handshake is
  accepted (`accept`), or refused with a 503 while the server shuts down, as websockets' server did. Unless the
  answer is sent within `open_timeout_s` of the TCP connection, the transport is aborted.
- bytes out: `write_now` writes text frames at once, several in one write, unless the transport's buffer is over
  its limit; `send` writes one and then waits while it is (`pause_writing`, `resume_writing`); `ping`; `close`.
  A frame no negotiated extension would change is framed here, as websockets' `Frame.serialize` frames it on the
  server's side (websockets' interpreted framing was 4-5 % of the server's CPU per move); the rest go through the
  protocol's `send_text`.
- the end: once the protocol expects the TCP connection to close (`close_expected`: a close sent or received, a
  plain HTTP answer sent), it must close within `close_timeout_s` or is aborted; `connection_lost` ends the protocol
  (`receive_eof`), the inbox (its reader then gets the close as websockets' `ConnectionClosed`), the keepalive ping
  and the writers waiting.

`GameListener` accepts the connections (`loop.create_server`, uvloop's where the settings say so), knows the open
ones and their tasks, and closes them at a shutdown: what websockets' `serve` and `Server` did.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import struct
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any, cast

from websockets.exceptions import ConnectionClosed
from websockets.extensions.base import ServerExtensionFactory
from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import SERVER, Request, Response
from websockets.protocol import State
from websockets.server import ServerProtocol

from freecell_arena.net.client_address import Network, ProxyHeaderError, ProxyPreamble, Refusals, client_address
from freecell_arena.net.inbox import Inbox

log = logging.getLogger(__name__)

UNLIMITED = 1 << 62
"""`SocketTerms.plain_below` when no extension can change a frame."""
SHORT_HEADERS = [bytes((0x81, length)) for length in range(126)]
"""A text frame's header for each payload length the second byte holds itself (FIN, opcode 1, unmasked)."""
INTERNAL_ERROR_TEXT = "Failed to open a WebSocket connection.\nSee server log for more information.\n"


HttpAnswer = Callable[[str, Request], Awaitable[Response | None]]
"""Given the client's address, a plain HTTP request's answer; None for a websocket handshake, which is accepted."""
Handler = Callable[["GameSocket"], Coroutine[Any, Any, None] | None]
"""The open connection's life, run as its task; None when it is refused at once (the call closed it)."""


@dataclass(frozen=True)
class SocketTerms:
    """What every connection of a listener is handed (lila-ws's `Deps`): the handshake's terms and the two calls
    into the server."""

    answer_http: HttpAnswer
    """net/http_front.py's `process_request`."""
    handle: Handler
    """net/app.py's: the per-address limit, then a `Connection`."""
    extensions: Sequence[ServerExtensionFactory] = ()
    """What the compression policy offers (net/compression.py)."""
    plain_below: int = 0
    """Once an extension is negotiated, payloads shorter than this leave it unchanged (the `large` policy's
    threshold; 0 for websockets' own deflate): they are framed here."""
    max_size: int = 2**20
    """The largest message taken, in bytes: past it websockets closes with 1009."""
    trusted: tuple[Network, ...] = ()
    """The proxies whose PROXY header and X-Forwarded-For are believed (net/client_address.py)."""
    open_timeout_s: float = 10.0
    close_timeout_s: float = 2.0
    max_queue: int = 16
    """Messages received and not read before reading pauses (resumed at a quarter of it): websockets' default."""
    write_limit: int = 2**15
    """Bytes in the transport's buffer before writing waits: websockets' default."""


def text_frame(payload: bytes) -> bytes:
    """A whole, unmasked text frame of `payload` (RFC 6455 section 5.2), byte for byte `Frame.serialize`'s."""
    length = len(payload)
    if length < 126:
        return SHORT_HEADERS[length] + payload
    if length < 65536:
        return b"\x81\x7e" + length.to_bytes(2, "big") + payload
    return b"\x81\x7f" + length.to_bytes(8, "big") + payload


class GameSocket:
    """An asyncio protocol by its methods (asyncio and uvloop call them by name), not by class: the compiled build
    makes it a native class, whose attributes and calls from the connection's compiled code cost no dictionary."""

    def __init__(self, terms: SocketTerms, listener: GameListener, loop: asyncio.AbstractEventLoop) -> None:
        self.terms = terms
        self.listener = listener
        self.loop = loop
        """The listener's loop (asked once: `asyncio.get_running_loop()` asks the kernel for the process id)."""
        self.protocol = ServerProtocol(extensions=terms.extensions, max_size=terms.max_size)
        self.transport: asyncio.Transport
        self.inbox: Inbox
        self.address = "unknown"
        """The client's IP address (net/client_address.py), known once the handshake's request is read."""
        self.plain_below = 0
        """Payloads shorter than this are framed here (the handshake decides it)."""
        self.paused = False
        """The transport's buffer is over its limit: writing waits."""
        self.latency = 0.0
        """The last keepalive ping's round trip, in seconds."""
        self.task: asyncio.Task[None] | None = None
        self._peer: tuple[str, int] | None = None
        self._preamble: ProxyPreamble | None = None
        self._proxied: tuple[str, int] | None = None
        self._opening: asyncio.TimerHandle | None = None
        self._closing: asyncio.TimerHandle | None = None
        self._ping: tuple[bytes, float, asyncio.Future[float]] | None = None
        self._drained: list[asyncio.Future[None]] = []
        self._lost: asyncio.Future[None] = loop.create_future()
        self._failure: BaseException | None = None  # what broke the connection: the close exception's cause

    # ------------------------------------------------------------------ asyncio's calls

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's TCP transport is one, but not by class
        terms = self.terms
        self.transport.set_write_buffer_limits(terms.write_limit)
        peer = transport.get_extra_info("peername")
        self._peer = (str(peer[0]), int(peer[1])) if isinstance(peer, tuple) else None
        if terms.trusted:
            self._preamble = ProxyPreamble(self._peer, terms.trusted)
        self.inbox = Inbox(self.loop, terms.max_queue, terms.max_queue // 4, self.transport.pause_reading,
                           self.transport.resume_reading, self._invalid_text)  # fmt: skip
        self._opening = self.loop.call_later(terms.open_timeout_s, self.transport.abort)
        self.listener.sockets.add(self)

    def data_received(self, data: bytes) -> None:
        if self._preamble is not None and not (data := self._after_preamble(data)):
            return
        protocol = self.protocol
        protocol.receive_data(data)
        events = protocol.events_received()
        self._flush()
        for event in events:
            if isinstance(event, Frame):
                opcode = event.opcode
                if opcode is Opcode.TEXT or opcode is Opcode.BINARY or opcode is Opcode.CONT:
                    self.inbox.put_frame(event)
                elif opcode is Opcode.PONG:
                    self._pong(bytes(event.data))
            elif isinstance(event, Request):
                self._begin(event)

    def eof_received(self) -> None:
        self.protocol.receive_eof()
        self._flush()  # the end of this side's stream too: the TCP connection is closed once it is written

    def connection_lost(self, exc: Exception | None) -> None:
        self.protocol.receive_eof()  # idempotent: the protocol is CLOSED from here on
        if self._failure is None:
            self._failure = exc
        for timer in (self._opening, self._closing):
            if timer is not None:
                timer.cancel()
        self.inbox.close()
        if self._ping is not None:
            self._ping[2].cancel()
            self._ping = None
        self._lost.set_result(None)
        self._wake_writers()
        self.listener.sockets.discard(self)

    def pause_writing(self) -> None:
        self.paused = True

    def resume_writing(self) -> None:
        self.paused = False
        self._wake_writers()

    # ------------------------------------------------------------------ the handshake

    def _after_preamble(self, data: bytes) -> bytes:
        """What of `data` comes after a trusted proxy's PROXY header (net/client_address.py); b"" while the header
        is incomplete, or once one that cannot be believed closed the connection."""
        assert self._preamble is not None
        try:
            data = self._preamble.take(data)
        except ProxyHeaderError as error:
            self.listener.refusals.refused(self._peer, str(error))
            self._preamble = None
            self.transport.abort()
            return b""
        if self._preamble.done:
            self._proxied = self._preamble.source
            self._preamble = None
        return data

    def _begin(self, request: Request) -> None:
        trusted = self.terms.trusted
        forwarded = request.headers.get_all("X-Forwarded-For") if trusted else []
        self.address = client_address(self._peer, self._proxied, forwarded, trusted)
        self.task = self.loop.create_task(self._answer(request), name="connection")
        self.listener.tasks.add(self.task)
        self.task.add_done_callback(self.listener.tasks.discard)

    async def _answer(self, request: Request) -> None:
        """The handshake's answer, then the open connection's life in a task of its own (the listener's task for
        the connection: this one ends here)."""
        response = await self._response(request)
        protocol = self.protocol
        if protocol.state is not State.CONNECTING or self._lost.done():
            return  # the client left meanwhile
        protocol.send_response(response)
        self._flush()
        if self._opening is not None:
            self._opening.cancel()
            self._opening = None
        if response.status_code != HTTPStatus.SWITCHING_PROTOCOLS:
            return  # a plain HTTP answer (or a refused handshake): the client closes, or is closed past the timeout
        self.plain_below = self.terms.plain_below if "Sec-WebSocket-Extensions" in response.headers else UNLIMITED
        life = self.terms.handle(self)
        if life is not None:
            self.task = self.loop.create_task(life, name="connection")
            self.listener.tasks.add(self.task)
            self.task.add_done_callback(self._ended)

    async def _response(self, request: Request) -> Response:
        failed = False
        response: Response | None = None
        try:
            response = await self.terms.answer_http(self.address, request)
        except Exception:
            log.error("answering an HTTP request failed", exc_info=True)
            failed = True
        protocol = self.protocol
        if failed:
            response = protocol.reject(HTTPStatus.INTERNAL_SERVER_ERROR, INTERNAL_ERROR_TEXT)
        elif response is None:
            response = protocol.accept(request)
            if response.status_code == HTTPStatus.SWITCHING_PROTOCOLS and not self.listener.serving:
                response = protocol.reject(HTTPStatus.SERVICE_UNAVAILABLE, "Server is shutting down.\n")
        assert response is not None
        response.headers["Server"] = SERVER
        return response

    def _ended(self, task: asyncio.Task[None]) -> None:
        """The connection's life is over: the connection closes (1000, or 1011 after a failure), as websockets'
        server closed a connection once its handler returned."""
        self.listener.tasks.discard(task)
        if task.cancelled():
            self.transport.abort()
            return
        failure = task.exception()
        if failure is not None:
            log.error("connection handler failed", exc_info=failure)
        self.close_now(CloseCode.NORMAL_CLOSURE if failure is None else CloseCode.INTERNAL_ERROR)

    # ------------------------------------------------------------------ writing

    def write_now(self, texts: Sequence[str]) -> bool:
        """Write each of `texts` as a text frame now, in order and in one write (True), or none of them (False)
        when the connection is not open or the transport's buffer is over its limit: the caller then `send`s."""
        if self.paused or self.protocol.state is not State.OPEN or self.transport.is_closing():
            return False
        self._write(texts)
        return True

    async def send(self, text: str) -> None:
        """Write a text frame, then wait while the transport's buffer is over its limit (written before the first
        wait, so frames keep their order, as websockets' `send`); `ConnectionClosed` once the connection is
        closing or closed (raised when it is closed)."""
        if self.protocol.state is not State.OPEN or self.transport.is_closing():
            raise await self.closed()
        self._write([text])
        if self.paused:
            waiter = self.loop.create_future()
            self._drained.append(waiter)
            try:
                await waiter
            finally:
                self._drained.remove(waiter)

    def _write(self, texts: Sequence[str]) -> None:
        protocol = self.protocol
        writes = protocol.data_to_send()  # anything the protocol queued (a pong) goes first
        below = self.plain_below
        for text in texts:
            payload = text.encode()
            if len(payload) < below:
                writes.append(text_frame(payload))
            else:
                protocol.send_text(payload)
                writes.extend(protocol.data_to_send())
        self.transport.writelines(writes)  # an open connection's frames: never the end of stream (b"")

    def ping(self) -> asyncio.Future[float] | None:
        """Send a keepalive ping: the future is its round trip once answered (cancelled if the connection ends
        first); None when the connection is not open."""
        if self.protocol.state is not State.OPEN:
            return None
        data = struct.pack("!I", random.getrandbits(32))
        answered: asyncio.Future[float] = self.loop.create_future()
        self._ping = (data, self.loop.time(), answered)
        self.protocol.send_ping(data)
        self._flush()
        return answered

    def _pong(self, data: bytes) -> None:
        ping = self._ping
        if ping is not None and ping[0] == data:  # another pong is unsolicited: ignored
            self._ping = None
            self.latency = self.loop.time() - ping[1]
            if not ping[2].done():
                ping[2].set_result(self.latency)

    # ------------------------------------------------------------------ closing

    async def close(self, code: int = CloseCode.NORMAL_CLOSURE, reason: str = "") -> None:
        """The close handshake: returns once the connection is closed (within the close timeout)."""
        self.close_now(code, reason)
        await asyncio.shield(self._lost)

    def close_now(self, code: int = CloseCode.NORMAL_CLOSURE, reason: str = "") -> None:
        """Begin the close handshake (an open connection), or end a connection still in its handshake."""
        state = self.protocol.state
        if state is State.OPEN:
            self.protocol.send_close(code, reason)
            self._flush()
        elif state is State.CONNECTING:
            self.transport.abort()

    def abort(self) -> None:
        """Close the TCP connection at once: a client that stops reading (the outbox's limit, net/outbox.py)."""
        self.transport.abort()

    async def closed(self) -> ConnectionClosed:
        """Once the connection is closed: the exception websockets' `recv` raised then (its close codes and
        reasons; its cause what broke it)."""
        await asyncio.shield(self._lost)
        closed = self.protocol.close_exc
        if self._failure is not None:
            closed.__cause__ = self._failure
        return closed

    def _invalid_text(self, error: UnicodeDecodeError) -> None:
        """A text message that is not UTF-8 (net/inbox.py): the connection fails with 1007, as websockets' `recv`
        failed it."""
        if self._failure is None:
            self._failure = error
        if self.protocol.state is State.OPEN:
            self.protocol.fail(CloseCode.INVALID_DATA, f"{error.reason} at position {error.start}")
            self._flush()

    def _flush(self) -> None:
        """Write what the protocol has to send; once it expects the TCP connection to close, see that it does."""
        transport = self.transport
        try:
            for data in self.protocol.data_to_send():
                if data:
                    transport.write(data)
                elif transport.can_write_eof():
                    with contextlib.suppress(Exception):  # uvloop may raise RuntimeError: the abort below settles it
                        transport.write_eof()
                else:
                    transport.close()
        except Exception as error:
            if self._failure is None:
                self._failure = error
        if self._closing is None and self.protocol.close_expected() and not self._lost.done():
            self._closing = self.loop.call_later(self.terms.close_timeout_s, self._close_timed_out)

    def _close_timed_out(self) -> None:
        if self._failure is None:
            self._failure = TimeoutError("timed out while closing connection")
        self.transport.abort()

    def _wake_writers(self) -> None:
        for waiter in self._drained:
            if not waiter.done():
                waiter.set_result(None)


class GameListener:
    """The listening socket and every connection it accepted: open ones, their tasks, a shutdown's closing."""

    def __init__(self, terms: SocketTerms) -> None:
        self.terms = terms
        self.sockets: set[GameSocket] = set()
        """Every connection not lost yet, in its handshake or open."""
        self.tasks: set[asyncio.Task[None]] = set()
        """Each connection's task: its handshake, then its life."""
        self.serving = False
        self.port = 0
        """The port bound (the settings may say 0), once started."""
        self.refusals = Refusals()
        self._server: asyncio.Server | None = None

    async def start(self, host: str, port: int, *, reuse_port: bool = False) -> None:
        loop = asyncio.get_running_loop()
        # uvloop's server is an asyncio.Server in all but class, and its `sockets` a list, not the stubs' tuple
        # (which the compiled build checks): read as it is
        def new_socket() -> asyncio.Protocol:
            return cast(asyncio.Protocol, GameSocket(self.terms, self, loop))  # an asyncio protocol by its methods

        server: Any = await loop.create_server(new_socket, host, port, reuse_port=reuse_port)
        self._server = server
        self.port = int(server.sockets[0].getsockname()[1])
        self.serving = True
        log.debug("server listening on %s:%d", host, self.port)

    def stop_accepting(self) -> None:
        """No new connection; a handshake under way is refused with a 503, an open connection goes on."""
        if self.serving:
            log.debug("server closing")
        self.serving = False
        if self._server is not None:
            self._server.close()

    async def close(self, code: int = CloseCode.GOING_AWAY, reason: str = "") -> None:
        """Close every connection (each open one with `code`, one that sent no request yet at once), then wait for
        their tasks and for their TCP connections to close (each within the close timeout)."""
        self.stop_accepting()
        for socket in list(self.sockets):
            if socket.task is None or socket.protocol.state is not State.CONNECTING:
                socket.close_now(code, reason)
        if self.tasks:
            await asyncio.wait(list(self.tasks))
        lost = [socket.closed() for socket in list(self.sockets)]
        if lost:
            await asyncio.gather(*lost)
        if self._server is not None:
            await self._server.wait_closed()
