"""The real client address behind a load balancer: the PROXY protocol v2 and `X-Forwarded-For`, believed only
from trusted proxies (`FREECELL_ARENA_TRUSTED_PROXIES`).

Behind a balancer every TCP peer is the balancer, so the per-address limits and the logs would see one address
for everyone. The rule, applied to each connection:

1. The TCP peer is where the connection comes from.
2. If the peer is a trusted proxy and the connection starts with a PROXY protocol v2 header, the header's
   source address replaces it (a `LOCAL` header, as HAProxy's health checks send, keeps the peer). A PROXY
   header from a peer that is not trusted, or a malformed one, is refused: the connection is closed before any
   HTTP is read, so nobody can claim an address by sending one. A trusted peer may also send no header.
3. While the address found so far is a trusted proxy, `X-Forwarded-For` is read from the right: its last entry
   was written by that proxy, so it becomes the address, and so on until an address that is not trusted (or
   the header's end, or an entry that is not an IP address). From an untrusted address the header is ignored:
   a client can write anything there.

With nothing trusted (the default) the address is the TCP peer, whatever the connection sends.

The seam is websockets' `create_connection` (a `ServerConnection` subclass): the PROXY header comes before the
HTTP request, so it is taken off the byte stream in `data_received` before websockets' parser sees it, and
`remote_address` answers the real address, for the limits and for anything that logs it. Only a connection whose
first byte is `\\r` (the header's first byte; an HTTP request never starts with it) is held back until the header
is known; every other one, and every later read, goes straight to websockets.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from collections.abc import Sequence
from typing import Any, ClassVar

from websockets.asyncio.server import ServerConnection

from freecell_arena.net.game_socket import GameConnection
from freecell_arena.net.throttled_log import ThrottledLog

log = logging.getLogger(__name__)

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
HEADER_BYTES = 16  # signature, version and command, family and protocol, length of what follows
MAX_ADDRESS_BYTES = 1024  # addresses and TLVs; HAProxy sends a few dozen bytes
COMMAND_LOCAL, COMMAND_PROXY = 0x0, 0x1
FAMILY_INET, FAMILY_INET6 = 0x1, 0x2


class ProxyHeaderError(ValueError):
    """A PROXY header that cannot be believed: malformed, or from a peer that is not trusted."""


def is_trusted(host: str, trusted: Sequence[Network]) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in network for network in trusted)


def parse_proxy_header(data: bytes) -> tuple[int, tuple[str, int] | None] | None:
    """A PROXY v2 header at the start of `data`: (its length, the source (host, port) or None for `LOCAL` and
    families without addresses); None while `data` is too short to tell. ProxyHeaderError when it is not one."""
    if data[: len(SIGNATURE)] != SIGNATURE[: len(data)]:
        raise ProxyHeaderError("not a PROXY protocol v2 header")
    if len(data) < HEADER_BYTES:
        return None
    version, command = data[12] >> 4, data[12] & 0x0F
    family = data[13] >> 4
    length = int.from_bytes(data[14:16], "big")
    if version != 2 or command not in (COMMAND_LOCAL, COMMAND_PROXY):
        raise ProxyHeaderError(f"PROXY header version {version} command {command}: only v2 LOCAL or PROXY")
    if length > MAX_ADDRESS_BYTES:
        raise ProxyHeaderError(f"PROXY header of {length} bytes (at most {MAX_ADDRESS_BYTES})")
    total = HEADER_BYTES + length
    if len(data) < total:
        return None
    body = data[HEADER_BYTES:total]
    if command == COMMAND_LOCAL or family not in (FAMILY_INET, FAMILY_INET6):
        return total, None
    size = 4 if family == FAMILY_INET else 16
    if len(body) < 2 * size + 4:
        raise ProxyHeaderError(f"PROXY header too short for its addresses ({len(body)} bytes)")
    host = ipaddress.ip_address(body[:size])
    port = int.from_bytes(body[2 * size : 2 * size + 2], "big")
    return total, (str(host), port)


def forwarded_for(host: str, header_values: Sequence[str], trusted: Sequence[Network]) -> str:
    """Rule 3: walk `X-Forwarded-For` (every header line, in order) back from the right while the address so far
    is a trusted proxy."""
    hops = [hop.strip() for value in header_values for hop in value.split(",")]
    while hops and is_trusted(host, trusted):
        hop = hops.pop()
        try:
            host = str(ipaddress.ip_address(hop))
        except ValueError:
            break  # garbage written by someone before the trusted proxies: the last trusted hop stays
    return host


class ProxiedConnection(GameConnection):
    """A websocket server connection that knows the client's address behind trusted proxies (the module's rule).
    `trusted` and `refusals` (one line per interval for the refused headers) are set on the subclass
    `connection_class` makes for each server."""

    trusted: ClassVar[tuple[Network, ...]] = ()
    refusals: ClassVar[ThrottledLog] = ThrottledLog(log)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        self._peer: tuple[str, int] | None = (str(peer[0]), int(peer[1])) if isinstance(peer, tuple) else None
        self._proxied: tuple[str, int] | None = None
        self._pending: bytes | None = b""  # bytes held back while a PROXY header may be arriving
        self._address: tuple[str, int] | None = None
        super().connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self._pending is None:
            super().data_received(data)
            return
        if not self._pending and data[:1] != b"\r":  # the usual case: an HTTP request, no header
            self._pending = None
            super().data_received(data)
            return
        pending = self._pending + data
        if not pending.startswith(SIGNATURE[: len(pending)]):  # not a PROXY header: websockets answers it
            self._pending = None
            super().data_received(pending)
            return
        try:
            if len(pending) >= len(SIGNATURE) and not self._peer_is_trusted():
                raise ProxyHeaderError("a PROXY header from a peer that is not a trusted proxy")
            parsed = parse_proxy_header(pending)
        except ProxyHeaderError as error:
            self._refuse(str(error))
            return
        if parsed is None:
            self._pending = pending
            return
        length, self._proxied = parsed
        self._pending = None
        if len(pending) > length:
            super().data_received(pending[length:])

    def _peer_is_trusted(self) -> bool:
        return self._peer is not None and is_trusted(self._peer[0], self.trusted)

    def _refuse(self, reason: str) -> None:
        peer = self._peer[0] if self._peer else "an unknown peer"
        self.refusals.warning("proxy", f"closed a connection from {peer}: {reason}")
        self._pending = None
        self.transport.abort()

    @property
    def remote_address(self) -> Any:
        """The client's (host, port) by the module's rule (port 0 when `X-Forwarded-For` named the host); once the
        request is read, the answer is kept."""
        if self._address is not None:
            return self._address
        base = self._proxied or self._peer
        if base is None:
            return super().remote_address
        if self.request is None or not self.trusted:
            return base
        forwarded = self.request.headers.get_all("X-Forwarded-For")
        host = forwarded_for(base[0], forwarded, self.trusted) if forwarded else base[0]
        self._address = base if host == base[0] else (host, 0)
        return self._address


def client_address(websocket: ServerConnection) -> str:
    """The client's IP address, the key of the per-address limits ("unknown" when the transport has none): the
    TCP peer's, or the one trusted proxies give (the rule above)."""
    peer = websocket.remote_address
    return str(peer[0]) if isinstance(peer, tuple) and peer else "unknown"



def connection_class(trusted: Sequence[Network]) -> type[GameConnection]:
    """What `serve(create_connection=...)` takes: a `ProxiedConnection` trusting `trusted` (websockets builds one
    per accepted connection with arguments of its own, so the setting travels on the class). Trusting nobody,
    the plain `GameConnection`: the address is the peer's, `X-Forwarded-For` is never read, and a PROXY header is not
    HTTP, so websockets' parser refuses it and closes, as the rule wants, at no cost per read."""
    if not trusted:
        return GameConnection
    attributes = {"trusted": tuple(trusted), "refusals": ThrottledLog(log)}
    return type("TrustedProxiesConnection", (ProxiedConnection,), attributes)
