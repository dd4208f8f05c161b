"""Who the server is to WebAuthn: the relying-party ID and the origins a passkey ceremony may come from.

Both come from the server's public address (`FREECELL_ARENA_PUBLIC_URL`). The RP ID is its host name: passkeys
are bound to it, so changing the public address makes every saved passkey useless (docs/accounts.md).

Browsers refuse an IP address as RP ID ("This is an invalid domain"; Chrome, Firefox and Safari alike), and
allow plain http only on localhost. So the embedded default, which listens on 127.0.0.1, uses the RP ID
`localhost` and the origin http://localhost:PORT: the same server, reached by a name a browser accepts. A page
opened on http://127.0.0.1:PORT must send the player to http://localhost:PORT for a passkey ceremony (the
wiring step's part). Kept apart from `passkeys` so settings can check the URL without loading `webauthn`.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

RP_NAME = "FreeCell Arena"
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})


@dataclass(frozen=True, slots=True)
class RelyingParty:
    rp_id: str
    name: str
    origins: tuple[str, ...]


def relying_party(public_url: str | None, port: int) -> RelyingParty:
    """The relying party for a server reached at `public_url`, or, without one, the embedded default on `port`."""
    if public_url is None:
        return RelyingParty("localhost", RP_NAME, (f"http://localhost:{port}",))
    parts = urlsplit(public_url)
    scheme, host = parts.scheme, (parts.hostname or "")
    if scheme not in ("http", "https") or not host:
        raise ValueError(f"a public URL is http(s)://host[:port], like https://arena.example.org; not {public_url!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
        raise ValueError("a public URL names the server only: no path, query, fragment or user")
    if host in LOOPBACK_HOSTS:
        host = "localhost"
    elif _is_ip_address(host):
        raise ValueError(f"browsers refuse passkeys on an IP address ({host}): give the server a domain name")
    elif scheme != "https":
        raise ValueError("browsers allow passkeys over plain http only on localhost: use https://")
    port_part = f":{parts.port}" if parts.port is not None else ""
    return RelyingParty(host, RP_NAME, (f"{scheme}://{host}{port_part}",))


def _is_ip_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True
