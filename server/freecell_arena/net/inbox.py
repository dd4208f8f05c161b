"""A connection's received messages, and the reading of the frames a game client sends most: whole, masked text or
binary frames, compressed without context or not at all.

Why not websockets' own path for those: for every frame its sans-I/O parser runs a chain of generators (the
frame's header, its mask, its payload, each a `read_exact` step), builds a `Frame`, and the asyncio connection
then queues it in an `Assembler` that `recv()` awaits through a lock and a second queue. That is a tenth of a
move's CPU at 1,000 connections, interpreted, the echo's floor and ours alike (docs/performance.md). Here the
same frame is one compiled pass over the bytes received: the header read, the payload unmasked by websockets'
own C helper, inflated with zlib as websockets' extension inflates it (its `decode`, minus the interpreted
`Frame` it builds and returns: 1.4 % of the server's CPU per move with compressing clients, py-spy, 2026-12-02),
and the text handed to the reader's queue.

What is read here is exactly what websockets would read: anything else (a control frame, a fragment, a frame
compressed with a context kept between messages, a reserved bit set, a frame over the size limit, invalid UTF-8,
a frame that websockets would refuse) is handed to websockets whole, as received, so its parser stays at a frame
boundary and gives the same close code and reason it always did (net/game_socket.py does the handing over).
"""

from __future__ import annotations

import asyncio
import zlib
from collections import deque
from collections.abc import Callable, Sequence

from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode

try:
    from websockets.speedups import apply_mask
except ImportError:  # a websockets without its C helper (built from source without a compiler)
    from websockets.utils import apply_mask

Message = str | bytes

INCOMPLETE = -1
"""`frame_end`: the frame's header or payload has not all arrived yet."""
OVERSIZED = -2
"""`frame_end`: the header declares more than the size limit: websockets refuses it (1009) from its header alone."""

EMPTY_BLOCK = b"\x00\x00\xff\xff"
"""The end of a deflated message, which permessage-deflate strips (RFC 7692, 7.2.1) and the reader puts back."""

FIN, RSV1, RSV2_RSV3 = 0x80, 0x40, 0x30
MASKED = 0x80
TEXT, BINARY = 0x1, 0x2


class Inbox:
    """The messages received and not read yet, in order, for one reader (the connection's `_read_frames`).

    Reading is paused while more than `high` messages wait and resumed once no more than `low` do (websockets'
    `max_queue`, as its `Assembler` does): a client that sends faster than its requests are handled fills the
    socket's buffers, then its own, not the server's memory."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, high: int, low: int, pause: Callable[[], object],
        resume: Callable[[], object], invalid_text: Callable[[UnicodeDecodeError], None],
    ) -> None:  # fmt: skip
        self.loop = loop
        """The connection's loop, where its reader waits (asked once: `asyncio.get_running_loop()` asks the
        kernel for the process id every time, a system call a move)."""
        self.messages: deque[Message | UnicodeDecodeError] = deque()
        """Messages, and where one was not UTF-8 (the connection fails there, as `recv` fails it)."""
        self.high = high
        self.low = low
        self._pause = pause
        self._resume = resume
        self._invalid_text = invalid_text
        self._paused = False
        self._closed = False
        self._failed = False  # a message was not UTF-8: the connection fails, nothing more is read
        self._waiter: asyncio.Future[None] | None = None
        self._fragments: list[bytes] = []
        self._fragmented_text = False

    def put(self, message: Message) -> None:
        self._put(message)

    def _put(self, message: Message | UnicodeDecodeError) -> None:
        self.messages.append(message)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
        if not self._paused and len(self.messages) > self.high:
            self._paused = True
            self._pause()

    def put_frame(self, frame: Frame) -> None:
        """A data frame websockets parsed (every frame `take_frames` leaves to it): a fragment is kept until its
        message's last one; a text message that is not UTF-8 fails the connection as websockets' `recv` does (1007)."""
        opcode = frame.opcode
        if opcode is not Opcode.CONT:
            self._fragmented_text = opcode is Opcode.TEXT
            self._fragments = []
        self._fragments.append(bytes(frame.data))
        if not frame.fin:
            return  # websockets bounds a fragmented message by the same size limit as a whole one
        data, self._fragments = b"".join(self._fragments), []
        if not self._fragmented_text:
            self.put(data)
            return
        try:
            text = data.decode()
        except UnicodeDecodeError as error:  # failed when the reader comes to it, after the messages before it
            self._put(error)
            return
        self.put(text)

    def pop(self) -> Message | None:
        """The next message if one is here (no wait), else None."""
        if not self.messages:
            return None
        message = self.messages.popleft()
        if isinstance(message, UnicodeDecodeError):  # nothing after it is read: websockets' recv stops there too
            self.messages.clear()
            self._failed = True
            self._invalid_text(message)
            return None
        if self._paused and len(self.messages) <= self.low:
            self._paused = False
            self._resume()
        return message

    async def next(self) -> Message | None:
        """The next message, once one has arrived; None once the connection is closed and every message read (or
        failed at one that was not UTF-8). Cancelling the wait loses nothing: a message is taken only when it is
        returned."""
        while not self.messages:
            if self._closed or self._failed:
                return None
            waiter = self.loop.create_future()
            self._waiter = waiter
            try:
                await waiter
            finally:
                self._waiter = None
        return self.pop()

    def close(self) -> None:
        """The connection is lost: the reader gets what is left, then None."""
        self._closed = True
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)


def stateless_window_bits(extensions: Sequence[Extension]) -> int:
    """The window of the negotiated permessage-deflate when it is the only extension and each message the client
    sends stands alone (it keeps no context: a frame can be inflated here, and again by websockets if it must be,
    alike); 0 otherwise."""
    if len(extensions) != 1:
        return 0
    extension = extensions[0]
    if isinstance(extension, PerMessageDeflate) and extension.remote_no_context_takeover:
        return extension.remote_max_window_bits
    return 0


def inflate(payload: bytes, window_bits: int, max_size: int) -> bytes | None:
    """A whole message compressed without context, inflated as `PerMessageDeflate.decode` inflates it; None when
    it is corrupt or reaches `max_size` inflated, which websockets then reads again and refuses or takes exactly
    as it always did (a message of exactly the limit, a deflate bomb)."""
    decoder = zlib.decompressobj(wbits=-window_bits)
    try:
        data = decoder.decompress(payload + EMPTY_BLOCK, max_size)
    except zlib.error:
        return None
    return data if len(data) < max_size else None


def frame_end(data: bytes, offset: int, max_size: int) -> int:
    """Where the frame beginning at `offset` ends (the offset after it), INCOMPLETE, or OVERSIZED."""
    available = len(data) - offset
    if available < 2:
        return INCOMPLETE
    length = data[offset + 1] & 0x7F
    header = 2
    if length == 126:
        if available < 4:
            return INCOMPLETE
        length = (data[offset + 2] << 8) | data[offset + 3]
        header = 4
    elif length == 127:
        if available < 10:
            return INCOMPLETE
        length = int.from_bytes(data[offset + 2 : offset + 10], "big")
        header = 10
    if length > max_size:
        return OVERSIZED
    if data[offset + 1] & MASKED:
        header += 4
    end = offset + header + length
    return end if end <= len(data) else INCOMPLETE


def take_frames(inbox: Inbox, data: bytes, offset: int, max_size: int, window_bits: int) -> int:
    """Read the whole simple frames from `offset` on into `inbox`; the offset of the first frame not read (an
    incomplete one, or one for websockets). Without `window_bits` (`stateless_window_bits`) a compressed frame is
    websockets' to read (a context kept between messages, or no permessage-deflate at all, which makes RSV1 an
    error)."""
    end_of_data = len(data)
    while True:
        end = frame_end(data, offset, max_size)
        if end < 0:
            return offset
        head1 = data[offset]
        head2 = data[offset + 1]
        opcode = head1 & 0x0F
        if (
            not head1 & FIN
            or head1 & RSV2_RSV3
            or not head2 & MASKED
            or (opcode != TEXT and opcode != BINARY)
            or (head1 & RSV1 and not window_bits)
        ):
            return offset
        length = head2 & 0x7F
        payload_at = offset + (6 if length < 126 else 8 if length == 126 else 14)
        payload = apply_mask(data[payload_at:end], data[payload_at - 4 : payload_at])
        if head1 & RSV1:
            inflated = inflate(payload, window_bits, max_size)
            if inflated is None:  # corrupt, or too large once inflated: websockets reads it again and says so
                return offset
            payload = inflated
        if opcode == TEXT:
            try:
                inbox.put(payload.decode())
            except UnicodeDecodeError:  # websockets' path closes with 1007 and its reason
                return offset
        else:
            inbox.put(payload)
        offset = end
        if offset == end_of_data:
            return offset
