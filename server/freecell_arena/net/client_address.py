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

The seam is the connection's own `data_received` (net/game_socket.py): the PROXY header comes before the HTTP
request, so `ProxyPreamble` takes it off the byte stream before websockets' parser sees it, and `client_address`
names the real address once the request is read, for the limits and for anything that logs it. Trusting nobody,
no preamble is looked for: a PROXY header is not HTTP, so websockets' parser refuses it and closes, as the rule
wants, at no cost per read.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Sequence

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


class ProxyPreamble:
    """Rule 2 for one connection: the bytes before its HTTP request while they may be a PROXY header. Only a
    connection whose first byte is `\\r` (the header's first byte; an HTTP request never starts with it) is held back
    until the header is known; every other one, and every later read, goes straight on to websockets' parser."""

    def __init__(self, peer: tuple[str, int] | None, trusted: Sequence[Network]) -> None:
        self.peer = peer
        self.trusted = trusted
        self.source: tuple[str, int] | None = None
        """The header's source address (None without a header, or for `LOCAL`)."""
        self.done = False
        """The header is read, or there is none: every byte from now on is the HTTP request's and the frames'."""
        self._pending = b""

    def take(self, data: bytes) -> bytes:
        """What of `data` goes on to websockets (b"" while a header is incomplete). ProxyHeaderError when the
        header cannot be believed: malformed, or from a peer that is not a trusted proxy."""
        if not self._pending and data[:1] != b"\r":  # the usual case: an HTTP request, no header
            self.done = True
            return data
        pending = self._pending + data
        if not pending.startswith(SIGNATURE[: len(pending)]):  # not a PROXY header: websockets answers it
            self.done = True
            return pending
        if len(pending) >= len(SIGNATURE) and not (self.peer is not None and is_trusted(self.peer[0], self.trusted)):
            raise ProxyHeaderError("a PROXY header from a peer that is not a trusted proxy")
        parsed = parse_proxy_header(pending)
        if parsed is None:
            self._pending = pending
            return b""
        length, self.source = parsed
        self.done = True
        self._pending = b""
        return pending[length:]


def client_address(
    peer: tuple[str, int] | None, proxied: tuple[str, int] | None, forwarded: Sequence[str], trusted: Sequence[Network]
) -> str:
    """The client's IP address by the module's rule, the key of the per-address limits ("unknown" when the
    transport has none): the PROXY header's source (`proxied`) or the TCP peer, then `X-Forwarded-For` (every line
    of it, `forwarded`) walked back while the address so far is a trusted proxy."""
    base = proxied or peer
    if base is None:
        return "unknown"
    return forwarded_for(base[0], forwarded, trusted) if forwarded and trusted else base[0]


class Refusals:
    """A server's PROXY headers refused (each connection is closed before any HTTP is read): one line per interval."""

    def __init__(self) -> None:
        self.log = ThrottledLog(log)

    def refused(self, peer: tuple[str, int] | None, reason: str) -> None:
        self.log.warning("proxy", f"closed a connection from {peer[0] if peer else 'an unknown peer'}: {reason}")
