"""What the suite's own services (PostgreSQL, Redis) share: a free loopback port, and the rule for a service
that is not installed: skipped locally, a failure under CI=true (CI installs every one of them)."""

from __future__ import annotations

import os
import socket
from typing import NoReturn, Protocol

import pytest


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def service_missing(reason: str) -> NoReturn:
    """Skip the test that needs the service, or fail it when CI=true."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; CI=true requires it", pytrace=False)
    pytest.skip(reason)


class Service(Protocol):
    port: int

    def start(self) -> None:
        """Start on `port`; RuntimeError when it does not come up."""


def start_on_a_free_port(service: Service, attempts: int = 3) -> None:
    """Start the service, on another free port when its own was taken between choosing it and binding it."""
    for attempt in range(attempts):
        try:
            service.start()
            return
        except RuntimeError:
            if attempt == attempts - 1:
                raise
            service.port = free_port()
