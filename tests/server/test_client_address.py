"""The client's address behind trusted proxies (net/client_address.py): the PROXY v2 header and X-Forwarded-For
parsed, then a real server on loopback whose per-address limit (one connection) shows which address it counted,
for clients on different loopback source addresses. A trusted peer's header or X-Forwarded-For is believed;
an untrusted peer's PROXY header is refused and its X-Forwarded-For ignored. HAProxy in front of two servers:
test_load_balancer.py."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
from arena_client import ArenaClient, admitted
from arena_server import start_arena

from freecell_arena.net.app import ArenaServer
from freecell_arena.net.client_address import (
    SIGNATURE,
    ProxyHeaderError,
    forwarded_for,
    parse_proxy_header,
)

TRUSTED = (ipaddress.ip_network("10.0.0.0/8"), ipaddress.ip_network("127.0.0.1/32"))


def proxy_v2(source: str, port: int = 40000, *, command: int = 0x21, tlv: bytes = b"") -> bytes:
    """A PROXY protocol v2 header (TCP over IPv4 or IPv6) from `source`, as HAProxy's send-proxy-v2 writes it."""
    address = ipaddress.ip_address(source)
    family = 0x11 if address.version == 4 else 0x21
    destination = ipaddress.ip_address("127.0.0.1" if address.version == 4 else "::1")
    body = address.packed + destination.packed + port.to_bytes(2, "big") + (8765).to_bytes(2, "big") + tlv
    return SIGNATURE + bytes((command, family)) + len(body).to_bytes(2, "big") + body


# ---------------------------------------------------------------------------------------------- the parsers


def test_a_proxy_header_gives_its_source_and_length() -> None:
    header = proxy_v2("192.0.2.7", 51234)
    assert parse_proxy_header(header + b"GET / HTTP/1.1\r\n") == (28, ("192.0.2.7", 51234))
    assert parse_proxy_header(proxy_v2("2001:db8::5", 443, tlv=b"\x03\x00\x04abcd")) == (59, ("2001:db8::5", 443))
    assert parse_proxy_header(SIGNATURE + b"\x20\x00\x00\x00") == (16, None), "LOCAL: a health check"


@pytest.mark.parametrize("cut", [1, 12, 15, 20])
def test_a_proxy_header_cut_short_waits_for_the_rest(cut: int) -> None:
    assert parse_proxy_header(proxy_v2("192.0.2.7")[:cut]) is None


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"GET / HTTP/1.1\r\n\r\n", "not a PROXY protocol v2 header"),
        (SIGNATURE[:5] + b"X", "not a PROXY protocol v2 header"),
        (SIGNATURE + b"\x11\x11\x00\x0c" + bytes(12), "version 1 command 1"),
        (SIGNATURE + b"\x22\x11\x00\x0c" + bytes(12), "version 2 command 2"),
        (SIGNATURE + b"\x21\x11\xff\xff", "65535 bytes"),
        (SIGNATURE + b"\x21\x11\x00\x04" + bytes(4), "too short for its addresses"),
    ],
)
def test_a_bad_proxy_header_is_refused_with_a_reason(data: bytes, expected: str) -> None:
    with pytest.raises(ProxyHeaderError, match=expected):
        parse_proxy_header(data)


@pytest.mark.parametrize(
    ("peer", "headers", "client"),
    [
        ("203.0.113.9", ["198.51.100.1"], "203.0.113.9"),  # an untrusted peer's header is ignored
        ("10.0.0.2", ["198.51.100.1"], "198.51.100.1"),
        ("10.0.0.2", ["6.6.6.6, 198.51.100.1, 10.0.0.3"], "198.51.100.1"),  # the proxies' chain, walked back
        ("10.0.0.2", ["6.6.6.6", "198.51.100.1"], "198.51.100.1"),  # several header lines are one list
        ("10.0.0.2", ["198.51.100.1, not-an-address"], "10.0.0.2"),  # garbage: the last trusted hop stays
        ("10.0.0.2", ["2001:db8::1"], "2001:db8::1"),
        ("10.0.0.2", ["10.0.0.4"], "10.0.0.4"),  # only proxies all the way: the farthest one
        ("::ffff:10.0.0.2", ["198.51.100.1"], "198.51.100.1"),  # a dual-stack socket's view of an IPv4 peer
    ],
)
def test_x_forwarded_for_is_read_back_from_the_right_while_the_hop_is_trusted(
    peer: str, headers: list[str], client: str
) -> None:
    assert forwarded_for(peer, headers, TRUSTED) == client


# ---------------------------------------------------------------------------------------------- a real server


@contextlib.asynccontextmanager
async def arena_trusting(database_url: str, trusted: str) -> AsyncIterator[ArenaServer]:
    """A server allowing one connection per client address, trusting `trusted`."""
    server = await start_arena(database_url, trusted_proxies=trusted, max_connections_per_address=1)
    try:
        yield server
    finally:
        await server.shutdown()


async def open_from(
    server: ArenaServer, source: str, *, header: bytes = b"", forwarded: str | None = None
) -> ArenaClient:
    """A websocket from `source` (a loopback address), sending `header` first and X-Forwarded-For if given."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setblocking(False)
    sock.bind((source, 0))
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
    await asyncio.get_running_loop().sock_sendall(sock, header)
    extra: dict[str, Any] = {"additional_headers": {"X-Forwarded-For": forwarded}} if forwarded else {}
    return await ArenaClient.open(f"ws://127.0.0.1:{server.port}/", sock=sock, **extra)


async def raw_exchange(server: ArenaServer, source: str, data: bytes) -> bytes:
    """Send `data` from `source` and read what comes back until the server closes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port, local_addr=(source, 0))
    try:
        writer.write(data)
        async with asyncio.timeout(10):
            with contextlib.suppress(ConnectionResetError):
                return await reader.read()
        return b""
    finally:
        writer.close()


async def test_a_trusted_proxys_header_and_forwarded_for_name_the_client(database_url: str) -> None:
    async with arena_trusting(database_url, "127.0.0.1") as server:
        first = await open_from(server, "127.0.0.1", header=proxy_v2("127.0.0.2"))
        assert await admitted(first)
        assert not await admitted(await open_from(server, "127.0.0.1", header=proxy_v2("127.0.0.2"))), (
            "the header's address holds its one connection")
        assert await admitted(await open_from(server, "127.0.0.1", header=proxy_v2("127.0.0.3")))
        assert await admitted(await open_from(server, "127.0.0.1", forwarded="127.0.0.4"))
        assert not await admitted(await open_from(server, "127.0.0.1", forwarded="127.0.0.4"))
        # a LOCAL header (HAProxy's health check) keeps the peer, which now holds its one connection
        local = SIGNATURE + b"\x20\x00\x00\x00"
        assert await admitted(await open_from(server, "127.0.0.1", header=local))
        assert not await admitted(await open_from(server, "127.0.0.1"))


async def test_a_proxy_header_in_pieces_is_put_together_before_the_request(database_url: str) -> None:
    """TCP may deliver the header in several reads: the bytes are held until it is whole, then the request goes
    on as if the header had never been there."""
    async with arena_trusting(database_url, "127.0.0.1") as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        try:
            header = proxy_v2("127.0.0.2")
            for piece in (header[:1], header[1:14], header[14:20], header[20:] + b"GET /healthz HTTP/1.1\r\n"):
                writer.write(piece)
                await writer.drain()
                await asyncio.sleep(0.05)
            writer.write(b"Host: arena\r\n\r\n")
            async with asyncio.timeout(10):
                answer = await reader.read()
        finally:
            writer.close()
        assert answer.startswith(b"HTTP/1.1 200"), answer


async def test_an_untrusted_peer_cannot_forge_its_address(database_url: str, caplog: pytest.LogCaptureFixture) -> None:
    async with arena_trusting(database_url, "127.0.0.1") as server:
        caplog.set_level(logging.WARNING, logger="freecell_arena.net.client_address")
        answer = await raw_exchange(server, "127.0.0.5", proxy_v2("127.0.0.9") + b"GET /healthz HTTP/1.1\r\n\r\n")
        assert answer == b"", "a PROXY header from an untrusted peer gets no answer at all"
        assert "closed a connection from 127.0.0.5: a PROXY header from a peer that is not a trusted proxy" in (
            caplog.text)
        assert await admitted(await open_from(server, "127.0.0.6", forwarded="127.0.0.7"))
        assert not await admitted(await open_from(server, "127.0.0.6", forwarded="127.0.0.8")), (
            "an untrusted peer's X-Forwarded-For is ignored: both are 127.0.0.6")
        # a trusted peer's malformed header is refused too
        assert await raw_exchange(server, "127.0.0.1", SIGNATURE + b"\x21\x11\xff\xff") == b""


async def test_trusting_nobody_a_proxy_header_is_not_http_and_forwarded_for_is_ignored(database_url: str) -> None:
    async with arena_trusting(database_url, "") as server:
        answer = await raw_exchange(server, "127.0.0.1", proxy_v2("127.0.0.9") + b"GET /healthz HTTP/1.1\r\n\r\n")
        assert b"200 OK" not in answer, "not HTTP: websockets closes it (no request, no route)"
        assert await admitted(await open_from(server, "127.0.0.1", forwarded="127.0.0.7"))
        assert not await admitted(await open_from(server, "127.0.0.1", forwarded="127.0.0.8")), "both are 127.0.0.1"
