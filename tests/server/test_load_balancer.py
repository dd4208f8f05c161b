"""docker-compose.yml's load balancer without Docker: the Debian haproxy runs the repository's own
deploy/haproxy/haproxy.cfg (replica addresses from the environment, as the file allows) in front of two real
server processes on one PostgreSQL and Redis, plus a third replica address where nothing listens.

A websocket game session and the readiness probe pass through it; the dead replica and then a killed one are
routed around. The replicas trust the balancer's PROXY v2 header, so their per-address limits count clients on
different loopback addresses apart. Skipped without haproxy, failed under CI=true (.ci/run installs it)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from arena_client import ArenaClient, admitted, connect_player
from balancer import CONFIG, HAPROXY, balancer_env, running_haproxy
from serverprocess import ServerProcess, http_get, http_get_json, running_server, server_env
from services import free_port, service_missing
from websockets.exceptions import ConnectionClosed

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

WAIT_S = 30.0


@pytest.fixture
def haproxy() -> str:
    if not os.access(HAPROXY, os.X_OK):
        service_missing("haproxy is not installed (Debian package haproxy)")
    return HAPROXY


@contextlib.asynccontextmanager
async def two_replicas(
    tmp_path: Path, database_url: str, redis_url: str, **settings: str
) -> AsyncIterator[list[ServerProcess]]:
    """Two servers on one database and Redis that believe the balancer's PROXY header (it runs on 127.0.0.1)."""
    env = server_env(FREECELL_ARENA_REDIS_URL=redis_url, FREECELL_ARENA_TRUSTED_PROXIES="127.0.0.1", **settings)
    async with (
        running_server(tmp_path, database_url=database_url, env=env) as first,
        running_server(tmp_path, database_url=database_url, env=env) as second,
    ):
        yield [first, second]


async def ready_through(port: int) -> dict[str, object]:
    """Wait (bounded) until the balancer answers /readyz with 200; that answer's body."""
    async with asyncio.timeout(WAIT_S):
        while True:
            with contextlib.suppress(OSError, ValueError, IndexError):
                status, body = await http_get_json(port, "/readyz")
                if status == 200:
                    return body
            await asyncio.sleep(0.1)


def test_the_config_is_valid_for_haproxy(haproxy: str) -> None:
    env = balancer_env(free_port(), [free_port(), free_port(), free_port()])
    result = subprocess.run([haproxy, "-c", "-f", str(CONFIG)], env=env, capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Configuration file is valid" in result.stdout + result.stderr


async def test_players_and_readiness_pass_through_haproxy_to_every_ready_replica(
    haproxy: str, tmp_path: Path, postgres_database_url: str, redis_url: str
) -> None:
    async with two_replicas(tmp_path, postgres_database_url, redis_url) as replicas:
        listen = free_port()
        nowhere = free_port()  # a third replica address with nothing listening: its health check fails
        env = balancer_env(listen, [replicas[0].port, replicas[1].port, nowhere])
        with running_haproxy(env, tmp_path / "haproxy.log", haproxy) as balancer:
            await every_replica_ready_through(listen, replicas)
            player = await connect_player(f"ws://127.0.0.1:{listen}/", "behind the balancer")
            created = await player.request({"type": "create_room", "variant": "freecell"})
            assert created["type"] == "room" and created["room"]["code"]
            await player.close()

            log = tmp_path / "haproxy.log"
            await marked_down(log, "replica-3")  # the address where nothing ever listened
            killed = replicas[0]
            killed.process.send_signal(signal.SIGKILL)
            await killed.wait()
            for _ in range(20):  # a connection to the dead replica is redispatched: every request is answered
                status, body = await http_get_json(listen, "/readyz")
                assert status == 200 and body["pid"] == replicas[1].process.pid, body
            await marked_down(log, "replica-1")  # then its health check takes it out
            assert balancer.poll() is None, log.read_text()


async def every_replica_ready_through(port: int, replicas: list[ServerProcess]) -> None:
    """Wait (bounded) until the balancer has sent a /readyz to each replica and each answered 200."""
    await ready_through(port)
    pids = {replica.process.pid for replica in replicas}
    seen: set[int] = set()
    async with asyncio.timeout(WAIT_S):
        while seen != pids:
            status, body = await http_get_json(port, "/readyz")
            assert status == 200 and body["status"] == "ok", body
            assert body["pid"] in pids
            seen.add(body["pid"])


async def test_behind_haproxy_the_limits_count_each_client_apart_and_nobody_forges_an_address(
    haproxy: str, tmp_path: Path, postgres_database_url: str, redis_url: str
) -> None:
    """Clients on 127.0.0.2 and 127.0.0.3 through HAProxy (send-proxy-v2) to two replicas allowing one connection
    and one new player per client address each: every limit counts the client, not the balancer, and a client
    naming another address in X-Forwarded-For is still itself. Untrusted PROXY headers: test_client_address.py."""
    limits = {"FREECELL_ARENA_MAX_CONNECTIONS_PER_ADDRESS": "1", "FREECELL_ARENA_NEW_PLAYERS_PER_MINUTE": "1"}
    async with two_replicas(tmp_path, postgres_database_url, redis_url, **limits) as replicas:
        listen = free_port()
        url = f"ws://127.0.0.1:{listen}/"
        with running_haproxy(balancer_env(listen, [replica.port for replica in replicas]), tmp_path / "haproxy.log",
                             haproxy):  # fmt: skip
            await every_replica_ready_through(listen, replicas)
            first = await ArenaClient.open(url, local_addr=("127.0.0.2", 0))
            second = await ArenaClient.open(url, local_addr=("127.0.0.2", 0))  # leastconn: the other replica
            assert await admitted(first) and await admitted(second), "one connection and one new player each"
            forged = await ArenaClient.open(url, local_addr=("127.0.0.2", 0),
                                            additional_headers={"X-Forwarded-For": "127.0.0.9"})  # fmt: skip
            assert not await admitted(forged), "127.0.0.2 holds its connection on both replicas"
            other = await ArenaClient.open(url, local_addr=("127.0.0.3", 0))
            assert await admitted(other), "another client is not held to 127.0.0.2's limits"

            await first.close()
            await second.close()
            async with asyncio.timeout(WAIT_S):
                while True:  # once the replicas have seen the closes, 127.0.0.2 may connect, but not register
                    again = await ArenaClient.open(url, local_addr=("127.0.0.2", 0))
                    try:
                        refused = await again.request({"type": "hello", "name": "once more"})
                        break
                    except ConnectionClosed:
                        await asyncio.sleep(0.1)
            assert refused["type"] == "error" and refused["code"] == "rate_limited", refused
            await again.close()
            await other.close()
        logs = ""
        for replica in replicas:
            replica.process.send_signal(signal.SIGTERM)
            await replica.wait()
            logs += await replica.stderr()
    assert "closed a connection from 127.0.0.2: it holds 1 already" in logs, logs
    assert "refused a new player from 127.0.0.2" in logs, logs
    assert "from 127.0.0.1" not in logs and "127.0.0.9" not in logs, logs


async def marked_down(log: Path, server: str) -> None:
    async with asyncio.timeout(WAIT_S):
        while f"Server replicas/{server} is DOWN" not in log.read_text(errors="replace"):
            await asyncio.sleep(0.1)


async def test_haproxy_keeps_the_api_reads_for_their_max_age_and_answers_a_known_tag_itself(
    haproxy: str, tmp_path: Path, postgres_database_url: str, redis_url: str
) -> None:
    """deploy/haproxy's cache in front of the replicas: a read asked again within its max-age is answered by the
    balancer (it says how old the kept copy is in `Age`), with the replica's `ETag`; `If-None-Match` gets a 304;
    the websocket's handshake and refusals pass through untouched."""
    async with two_replicas(tmp_path, postgres_database_url, redis_url) as replicas:
        listen = free_port()
        with running_haproxy(balancer_env(listen, [replica.port for replica in replicas]), tmp_path / "haproxy.log",
                             haproxy):  # fmt: skip
            await every_replica_ready_through(listen, replicas)
            path = "/api/daily/freecell"  # 60 s
            first = await http_get(listen, path)
            assert first[0] == 200 and "age" not in first[1], first[1]
            again = await http_get(listen, path)
            assert again[0] == 200 and "age" in again[1], "the balancer's copy"
            assert (again[1]["etag"], again[2]) == (first[1]["etag"], first[2])
            known = await http_get(listen, path, **{"If-None-Match": first[1]["etag"]})
            assert (known[0], known[2]) == (304, b"")
            for _ in range(2):
                refused = await http_get(listen, "/api/leaderboards/freecell/deal/0")
                assert refused[0] == 400 and "age" not in refused[1]
            player = await connect_player(f"ws://127.0.0.1:{listen}/", "through the cache")
            await player.close()
