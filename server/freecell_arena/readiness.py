"""Telling a service manager when the server is ready and when it stops: systemd's notify protocol (`Type=notify`).

systemd gives the service a datagram socket's address in `NOTIFY_SOCKET` (a path, or `@name` in the abstract
namespace); the service sends it newline-separated `KEY=value` lines: `READY=1` once it listens (units ordered
after it start only then), `STOPPING=1` when a stop begins, `STATUS=...` for `systemctl status`. That is the whole
protocol (sd_notify(3)): a few lines here rather than a dependency. Without `NOTIFY_SOCKET` nothing is sent.

`serve --workers N` gives its workers a socket of its own in their `NOTIFY_SOCKET` and tells its own manager
`READY=1` once every worker has said it there (freecell_arena/supervisor.py): the same lines, one level up.
"""

from __future__ import annotations

import logging
import os
import socket

NOTIFY_SOCKET_ENV = "NOTIFY_SOCKET"
log = logging.getLogger(__name__)


def socket_address(value: str) -> str | bytes:
    """`NOTIFY_SOCKET`'s value as an AF_UNIX address: `@name` is `name` in the abstract namespace."""
    if value.startswith("@"):
        return b"\0" + value[1:].encode()
    return value


def notify(*lines: str) -> bool:
    """Send `lines` (`READY=1`, `STATUS=...`) to the service manager, if there is one; True when sent. A manager
    that cannot be told is logged, never raised: the server serves either way."""
    address = os.environ.get(NOTIFY_SOCKET_ENV)
    if not address:
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.sendto("\n".join(lines).encode(), socket_address(address))
    except OSError as error:
        log.warning("could not tell the service manager %s at %s: %s", lines[0], address, error)
        return False
    return True


def ready(status: str) -> bool:
    """Listening: units ordered after this one may start. `MAINPID` says who (a supervisor counts its workers)."""
    return notify("READY=1", f"STATUS={status}", f"MAINPID={os.getpid()}")


def stopping() -> bool:
    return notify("STOPPING=1", "STATUS=stopping: flushing writes and closing connections")


def parse(datagram: bytes) -> dict[str, str]:
    """A datagram's `KEY=value` lines (what a supervisor reads from its workers)."""
    fields = {}
    for line in datagram.decode(errors="replace").splitlines():
        key, separator, value = line.partition("=")
        if separator:
            fields[key] = value
    return fields
