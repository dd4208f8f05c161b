"""A connection's life on the wire: `hello` and `welcome`, the limits a connection lives within, the close codes.

`welcome` tells the client how this server is configured (`ConnectionLimits`, `QuickRaceSizes`); the defaults
written here are the settings' defaults (`freecell_arena.settings` reads them), so each number is written once.
`CloseCode` and `CLOSE_CODES` are every way the server ends a connection, and what the client should do then.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Literal

from pydantic import Field

from freecell_arena.protocol.wire import Message, PlayerName, Request, RequestId


class ConnectionLimits(Message):
    """What one connection lives within, as this server is configured (the defaults are below): a client paces
    itself by these rather than by guesses. Every limit a client can meet is here or in `CloseCode`."""

    max_message_bytes: int = Field(
        default=16_384, description="A larger frame (UTF-8 bytes) is dropped, answered `message_too_large`."
    )
    max_frame_bytes: int = Field(
        default=65_536,
        description="A frame larger than this closes the connection (close code 1009) with no error frame.",
    )
    rate_per_s: float = Field(
        default=30.0, description="Messages a second, sustained; past it a message is dropped, answered `rate_limited`."
    )
    burst: int = Field(default=60, description="Messages that may come at once, above the sustained rate.")
    ping_interval_s: float = Field(
        default=20.0, description="The server sends a websocket ping this often (websocket libraries answer it)."
    )
    ping_timeout_s: float = Field(
        default=20.0, description="A ping not answered within this long closes the connection (1011)."
    )
    hello_timeout_s: float = Field(default=10.0, description="A connection without `hello` by then is closed (1008).")
    idle_timeout_s: float = Field(
        default=600.0, description="A connection that sends no message for this long is closed (1008)."
    )


FRAME_SIZE_FACTOR = 4
"""Frames up to this many times `max_message_bytes` are read and answered `message_too_large`; larger ones close
the connection (websockets' `max_size`), so nobody makes the server read megabytes to refuse them."""


DEFAULT_LIMITS = ConnectionLimits()
"""The defaults of the settings (`freecell_arena.settings`): the one place these numbers are written."""


class QuickRaceSizes(Message):
    """How a quick race (`quick_race`) fills and starts, as this server is configured."""

    min_players: int = Field(default=2, description="Its countdown starts once this many players are in.")
    max_players: int = Field(default=8, description="A full quick race starts at once.")
    countdown_s: float = Field(default=10.0, description="The countdown once `min_players` are in.")


DEFAULT_QUICK_RACE = QuickRaceSizes()


class CloseCode(IntEnum):
    """Why the server closes a connection (the websocket close code); `CLOSE_CODES` says what each means."""

    service_restart = 1012
    policy_violation = 1008
    message_too_big = 1009
    internal_error = 1011
    replaced = 4000
    revoked = 4001
    banned = 4002


CLOSE_CODES: dict[CloseCode, str] = {
    CloseCode.service_restart: "This server process is stopping (a restart, a deploy, a drain): reconnect at once, "
    "after a random 0-250 ms so that its players do not all come back in the same instant, and say `hello` with your "
    "token. Any process of the service takes your game and its room from the store, and it goes on; back off as "
    "usual only if that reconnect fails.",
    CloseCode.policy_violation: "No `hello` within `hello_timeout_s`, no message for `idle_timeout_s`, or too many "
    "connections from one address (the close reason says which).",
    CloseCode.message_too_big: "A frame larger than `max_frame_bytes` (no `error` frame comes first).",
    CloseCode.internal_error: "The keepalive ping was not answered within `ping_timeout_s`.",
    CloseCode.replaced: "The same identity said `hello` on another connection: this one is replaced (do not "
    "reconnect on your own: the other connection plays now).",
    CloseCode.revoked: "The token this connection said `hello` with was revoked (signed out, or on the account "
    "page): it will not work again.",
    CloseCode.banned: "A moderator banned this player (the close reason and the refused `hello`'s `banned` error "
    "give the public reason): do not reconnect.",
}
"""Every close code the server sends. A client that stops reading while frames pile up past the server's outbox
limit is cut off without a close frame (the client sees 1006)."""


class HelloRequest(Request):
    """First message of every connection. With `token`, resume that identity (and its running game)."""

    type: Literal["hello"] = "hello"
    id: RequestId = None
    name: PlayerName
    token: str | None = Field(default=None, max_length=128)
    bot: bool = False


class WelcomeMessage(Message):
    """Reply to hello. Keep `token`: it is the only way back to this identity (the server keeps only its hash).
    `limits` and `quick_race` say how this server is configured."""

    type: Literal["welcome"] = "welcome"
    id: RequestId = None
    player_id: str
    name: str
    token: str
    protocol: Literal[4] = 4  # PROTOCOL_VERSION (a Literal needs the number itself)
    resumed: bool
    limits: ConnectionLimits = DEFAULT_LIMITS
    quick_race: QuickRaceSizes = DEFAULT_QUICK_RACE
