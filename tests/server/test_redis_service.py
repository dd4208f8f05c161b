"""The suite's redis-server (tests/redis_support.py) does what the Redis tests rely on: it answers on loopback,
`stopped()` really takes it down and brings it back on the same port, and `redis_url` hands it over clean."""

from __future__ import annotations

import socket

import pytest
from redis_support import RedisServer, answers_ping

pytestmark = pytest.mark.redis


def command(port: int, *words: str) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall((" ".join(words) + "\r\n").encode())
        return sock.recv(256)


def test_redis_stopped_and_started_mid_test_comes_back_on_the_same_port(redis_server: RedisServer) -> None:
    port = redis_server.port
    assert answers_ping(port)
    with redis_server.stopped():
        assert not redis_server.running
        assert not answers_ping(port)
    assert redis_server.port == port and answers_ping(port)
    assert command(port, "CONFIG", "GET", "bind").count(b"127.0.0.1") == 1, "loopback only"
    assert b"appendonly" in command(port, "CONFIG", "GET", "appendonly") and b"no" in command(
        port, "CONFIG", "GET", "appendonly"
    )


def test_redis_url_is_running_and_empty(redis_server: RedisServer, request: pytest.FixtureRequest) -> None:
    redis_server.stop()  # as a test that died inside `stopped()` would leave it
    url = request.getfixturevalue("redis_url")
    assert url == f"redis://127.0.0.1:{redis_server.port}/0"
    assert command(redis_server.port, "SET", "leftover", "1").startswith(b"+OK")
    request.getfixturevalue("redis_server").flush()
    assert command(redis_server.port, "DBSIZE") == b":0\r\n"
