"""What can go wrong for a client, as exceptions a program can tell apart.

`ArenaError` is the server saying no (it carries the protocol's stable `code`, the human `message` and, for
`illegal_move`, the engine's `reason`). `ConnectionLost` is the network or the server going away; the bot
runner reconnects on it. `ProtocolError` is a reply the client did not expect (a version mismatch or a bug);
`ProtocolMismatch`, one of them, is a `welcome` announcing another protocol version than this SDK speaks.
"""

from __future__ import annotations

from freecell_arena.protocol.errors import ErrorCode, ErrorMessage
from freecell_arena.protocol.wire import PROTOCOL_VERSION


class ArenaClientError(Exception):
    """Base of every error the SDK raises."""


class ArenaError(ArenaClientError):
    """The server refused a request; nothing changed on the server."""

    def __init__(self, code: ErrorCode | str, message: str, reason: str | None = None, request: str | None = None):
        self.code: ErrorCode | str = _known(code)
        self.message = message
        self.reason = reason
        self.request = request
        super().__init__(str(self))

    @classmethod
    def from_message(cls, error: ErrorMessage, request: str | None = None) -> ArenaError:
        return cls(error.code, error.message, error.reason, request)

    def __str__(self) -> str:
        where = f"{self.request}: " if self.request else ""
        why = f" [{self.reason}]" if self.reason else ""
        return f"{where}{self.code}: {self.message}{why}"


class ConnectionLost(ArenaClientError):
    """The connection closed (or could not be opened). `code`/`reason` are the websocket close frame's, if any."""

    def __init__(self, message: str, code: int | None = None, reason: str = "") -> None:
        self.code = code
        self.reason = reason
        super().__init__(message)


class ProtocolError(ArenaClientError):
    """The server sent something this client cannot use (an unexpected reply type, an undecodable frame)."""


class ProtocolMismatch(ProtocolError):
    """The server's `welcome` announces another protocol version than this SDK speaks: the message says which
    side is too old. Nothing is retried: reconnecting would meet the same server."""

    def __init__(self, server: object, client: int = PROTOCOL_VERSION) -> None:
        self.server = server
        self.client = client
        if isinstance(server, int) and server > client:
            advice = "this SDK is too old for the server: upgrade it (pip install --upgrade freecell-arena-client)"
        elif isinstance(server, int):
            advice = f"the server is older than this SDK: use a freecell-arena-client of protocol {server}"
        else:
            advice = "the server announces no protocol version this SDK knows"
        super().__init__(f"freecell-arena-client speaks protocol {client}, the server protocol {server}: {advice}")


class BotError(ArenaClientError):
    """The bot could not play: it raised, or the server kept refusing its moves."""


def _known(code: ErrorCode | str) -> ErrorCode | str:
    """A code this SDK knows becomes the enum member; a newer server's code stays a plain string."""
    try:
        return ErrorCode(code)
    except ValueError:
        return code
