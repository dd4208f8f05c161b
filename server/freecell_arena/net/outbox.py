"""A connection's outgoing frames, in the order they were produced.

Messages published to a connection (room events, other players' progress) are queued here, so a publisher never
waits for a slow client; a client that stops reading is cut off once its queue passes a byte limit, instead of
growing it forever. What is queued goes out from one callback on the next turn of the loop, in one write when
the socket takes it at once (the common case); only a socket that must wait gets a sender task, which ends when
the queue is written. An idle connection has no task of its own here: a task per connection, waiting for frames
that mostly never come, cost about 1.5 KiB of each idle connection's memory. The replies to the request being
handled are written at once when nothing is queued before them (one task switch less per request); what is
published after them waits behind them (`reply`). The outbox counts what it sends and drops, for the metrics: the
error messages by code, and the frames nobody will send (a client cut off, a connection ended).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter, deque
from collections.abc import Coroutine, Sequence
from typing import Any, Protocol

from websockets.exceptions import ConnectionClosed

from freecell_arena.protocol.errors import ErrorMessage
from freecell_arena.protocol.trusted import Reply, wire_text

log = logging.getLogger(__name__)

_last_encoded: list[tuple[Reply, str]] = []


def encoded(message: Reply) -> str:
    """A published message goes to every member in a row: encode it once, not once per connection."""
    if _last_encoded and _last_encoded[0][0] is message:
        return _last_encoded[0][1]
    text = wire_text(message)
    _last_encoded[:] = [(message, text)]
    return text


class Socket(Protocol):
    """What the outbox writes to (net/game_socket.py's `GameSocket`)."""

    def write_now(self, texts: Sequence[str]) -> bool:
        """Write the frames at once, in one write (True), or none of them (False): the socket must wait."""
        ...

    async def send(self, text: str) -> None:
        """Write a frame, then wait until the socket takes more; `ConnectionClosed` once it is closed."""
        ...

    def abort(self) -> None:
        """Cut the client off (a close handshake would wait behind the frames it does not read)."""
        ...


class FrameCounts(Protocol):
    """Where the outbox counts (net/metrics.py's `ServerMetrics`)."""

    errors: Counter[str]
    """Error replies sent, by code."""
    frames_dropped: int
    """Frames not sent: the client stopped reading and was cut off, or the connection had ended."""


BATCH_BYTES = 65_536
"""The most the sender task hands to one `write_now`: a slow client's transport buffer grows past its write limit
by at most this much before `send` waits for it (the rest stays queued, under the outbox's limit)."""


class Outbox:
    def __init__(self, socket: Socket, limit_bytes: int, counts: FrameCounts) -> None:
        """Once the queue would pass `limit_bytes`, the client is cut off (`socket.abort`, once). Frames are written
        at once, in one write, while the socket takes them (`socket.write_now`), else through `socket.send`, one by
        one."""
        self.socket = socket
        self.write_now = socket.write_now
        self.limit_bytes = limit_bytes
        self.on_overflow = socket.abort
        self.counts = counts
        self.frames: deque[str] = deque()
        self.queued_bytes = 0  # their size in UTF-8: the limit counts bytes (a frame may be 100 bytes or 6 KB)
        self.overflowed = False
        self._sender: asyncio.Task[None] | None = None  # only while a socket that must wait has frames queued
        self._flush_due = False  # `_flush` is scheduled for the loop's next turn
        self._replying = False  # the reader is writing its replies: queued frames wait behind them
        self._stopping = False  # the connection ends: what is queued goes out, then nothing more is taken

    def put(self, message: Reply) -> bool:
        """Queue a frame; False (and the frame dropped) once the client has stopped reading or the connection
        has ended."""
        self._count(message)
        if self._stopping and self._sender is None and not self._flush_due and not self.frames:
            self.counts.frames_dropped += 1
            return False  # `close` has written the last frames: nobody sends these
        text = encoded(message)
        size = _utf8_size(text)
        if self.queued_bytes + size > self.limit_bytes:
            self.counts.frames_dropped += 1
            if not self.overflowed:
                self.overflowed = True
                log.warning("dropping a connection that does not read its messages (%d bytes queued)",
                            self.queued_bytes)  # fmt: skip
                self.on_overflow()
            return False
        self.frames.append(text)
        self.queued_bytes += size
        if not self._replying:
            self._wake_sender()
        return True

    def reply(self, replies: Sequence[Reply]) -> Coroutine[Any, Any, None] | None:
        """The replies to the request being handled, ahead of whatever is published after this call. Written now
        when nothing is queued and the socket takes them (None); queued behind what is (None); else what writes
        them once the socket takes them, which the reader awaits (a client that does not read its replies is not
        read either), and what is published meanwhile waits behind them."""
        if self.frames or self._stopping or self._replying:
            for reply in replies:
                self.put(reply)
            return None
        texts = []
        for reply in replies:
            self._count(reply)
            texts.append(wire_text(reply))
        if not texts or self.write_now(texts):
            return None
        self._replying = True
        return self._send_replies(texts)

    def _count(self, message: Reply) -> None:
        if type(message) is ErrorMessage:
            self.counts.errors[message.code.value] += 1

    async def _send_replies(self, texts: list[str]) -> None:
        try:
            for text in texts:
                await self.socket.send(text)  # waits only while the client's buffer is full
        finally:
            self._replying = False
            if self.frames:
                self._wake_sender()

    async def close(self) -> None:
        """The connection ends (its reader is done): write what is queued, then take nothing more. A peer gone
        meanwhile drops the rest."""
        self._stopping = True
        try:
            if self._sender is not None:
                await self._sender
            await self._send_queued()
        except ConnectionClosed:
            self._forget_queue()

    def _wake_sender(self) -> None:
        """Frames are queued and the reader is not replying: write them on the loop's next turn (several
        publications of this turn in one write), unless a sender task already works through the queue."""
        if self._sender is None and not self._flush_due and not self._stopping:  # `close` writes them itself
            self._flush_due = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        """Write the queue at once, in batches, while the socket takes it without waiting; what is left goes to a
        sender task (a client reading slowly)."""
        self._flush_due = False
        if self._sender is None and not self._write_batches_now():
            self._sender = asyncio.get_running_loop().create_task(self._send_then_end())

    async def _send_then_end(self) -> None:
        """The sender task: write the queue, in order, then end."""
        try:
            await self._send_queued()
        except ConnectionClosed:
            self._forget_queue()  # the reader sees the close and ends the connection
        finally:
            self._sender = None

    async def _send_queued(self) -> None:
        frames = self.frames
        while not self._write_batches_now():
            text = frames.popleft()
            self.queued_bytes -= _utf8_size(text)
            await self.socket.send(text)  # written before send() first yields: order kept

    def _write_batches_now(self) -> bool:
        """Write queued frames in batches while the socket takes them at once; False when it must wait with
        frames still queued (the reader's replies go first: while it replies, nothing is written here)."""
        frames = self.frames
        while frames and not self._replying:
            batch = self._batch()
            if not self.write_now(batch):
                return False
            for _ in batch:
                self.queued_bytes -= _utf8_size(frames.popleft())
        return True

    def _forget_queue(self) -> None:
        self.frames.clear()
        self.queued_bytes = 0

    def _batch(self) -> list[str]:
        """The first queued frames, up to `BATCH_BYTES` (at least one)."""
        batch: list[str] = []
        size = 0
        for text in self.frames:
            size += len(text)
            if batch and size > BATCH_BYTES:
                break
            batch.append(text)
        return batch

    async def drain(self) -> None:
        """Wait (briefly) until every queued frame is handed to the socket."""
        for _ in range(100):
            if not self.frames and not self._replying:
                return
            await asyncio.sleep(0.01)


def _utf8_size(text: str) -> int:
    """A frame's size on the wire (the outbox limit counts bytes); most frames are ASCII, counted without a copy."""
    return len(text) if text.isascii() else len(text.encode())
