"""Readiness for a service manager (freecell_arena/readiness.py, systemd's `Type=notify`): a real unix datagram socket
stands in for systemd's. `serve` says READY=1 only once it listens, and STOPPING=1 when a stop begins."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from serverprocess import http_get_json, running_server, server_env

from freecell_arena import readiness


@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    """What systemd holds: a datagram socket whose path goes to the service in NOTIFY_SOCKET."""
    path = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(path)
        sock.setblocking(False)
        yield sock, path


async def next_message(sock: socket.socket, timeout: float = 30.0) -> dict[str, str]:
    async with asyncio.timeout(timeout):
        return readiness.parse(await asyncio.get_running_loop().sock_recv(sock, 4096))


async def test_serve_says_ready_once_it_listens_and_stopping_when_told_to_stop(
    tmp_path: Path, notify_socket: tuple[socket.socket, str]
) -> None:
    sock, path = notify_socket
    async with running_server(tmp_path, env=server_env(NOTIFY_SOCKET=path)) as server:
        ready = await next_message(sock)
        assert ready["READY"] == "1" and ready["MAINPID"] == str(server.process.pid)
        assert ready["STATUS"] == f"listening on ws://127.0.0.1:{server.port}/"
        status, _ = await http_get_json(server.port, "/healthz")  # ready means listening
        assert status == 200
        server.process.send_signal(signal.SIGTERM)
        assert (await next_message(sock))["STOPPING"] == "1"
        assert await server.wait() == 0


def test_an_abstract_socket_name_is_reached_and_no_socket_means_no_message(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"freecell-arena-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(b"\0" + name.encode())
        sock.settimeout(5)
        monkeypatch.setenv("NOTIFY_SOCKET", f"@{name}")
        assert readiness.stopping()
        assert readiness.parse(sock.recv(4096))["STOPPING"] == "1"
    monkeypatch.delenv("NOTIFY_SOCKET")
    assert not readiness.ready("listening")


def test_a_manager_that_cannot_be_told_is_logged_not_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "nobody-listens"))
    assert not readiness.ready("listening")
    assert "could not tell the service manager READY=1" in caplog.text
