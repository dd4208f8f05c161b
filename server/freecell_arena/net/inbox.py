"""A connection's received messages, in order, for its one reader (the connection's `_read_frames`).

websockets' sans-I/O parser reads every frame (net/game_socket.py hands it the bytes): the data frames it returns
are put here, a fragmented message once its last fragment is in, and the reader takes them one at a time. This is
what websockets' asyncio `Assembler` did for `recv()`, minus its lock, its second queue and its coroutine a
message: one deque, one future while the reader waits, and the same flow control (reading paused past `high`
messages, resumed at `low`).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable

from websockets.frames import Frame, Opcode

Message = str | bytes


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
        """A data frame websockets parsed: a fragment is kept until its message's last one (websockets bounds the
        whole message by the size limit); a text message that is not UTF-8 fails the connection when the reader
        comes to it, as websockets' `recv` fails it (1007)."""
        opcode = frame.opcode
        if frame.fin and opcode is Opcode.TEXT:  # a game client's every request: one whole text frame
            try:
                self.put(str(frame.data, "utf-8"))
            except UnicodeDecodeError as error:  # failed when the reader comes to it, after the messages before it
                self._put(error)
            return
        if opcode is not Opcode.CONT:
            self._fragmented_text = opcode is Opcode.TEXT
            self._fragments = []
        self._fragments.append(bytes(frame.data))
        if not frame.fin:
            return
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
