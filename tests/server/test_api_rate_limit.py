"""The HTTP API's per-address limit (`FREECELL_ARENA_API_RATE_LIMIT_*`), over real HTTP against a real server:
a burst from one address is refused with 429, the API's JSON error and `Retry-After`; another address is not, and
neither are the health checks of the refused one."""

from __future__ import annotations

import asyncio
import http.client
import json
from typing import Any

from arena_server import start_arena

from freecell_arena.net.ratelimit import SWEEP_EVERY_S, AddressBuckets
from freecell_arena.settings import Settings

PATH = "/api/ratings/freecell"


def get(
    port: int, path: str, source: str = "127.0.0.1", forwarded_for: str | None = None
) -> tuple[int, dict[str, str], dict[str, Any]]:
    """One GET from the loopback address `source` (all of 127.0.0.0/8 is this machine's), as a balancer would
    send it when `forwarded_for` names a client."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=(source, 0))
    try:
        connection.request("GET", path, headers={} if forwarded_for is None else {"X-Forwarded-For": forwarded_for})
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), json.loads(answer.read())
    finally:
        connection.close()


async def test_a_burst_of_api_requests_from_one_address_is_refused_and_another_address_is_not(
    database_url: str,
) -> None:
    server = await start_arena(database_url, api_rate_limit_per_s=0.5, api_rate_limit_burst=3)
    try:
        for _ in range(3):
            status, _, body = await asyncio.to_thread(get, server.port, PATH)
            assert status == 200 and body["type"] == "ratings", body
        status, headers, body = await asyncio.to_thread(get, server.port, PATH)
        assert status == 429
        assert body["type"] == "error" and body["code"] == "rate_limited" and "at most 0.5 a second" in body["message"]
        assert 1 <= int(headers["Retry-After"]) <= 2, "one request grows back in two seconds"
        status, _, body = await asyncio.to_thread(get, server.port, PATH, "127.0.0.2")
        assert status == 200 and body["type"] == "ratings", "another address has its own limit"
        status, _, health = await asyncio.to_thread(get, server.port, "/healthz")
        assert status == 200 and health["status"] == "ok", "only the API is limited"
        refusals = server.metrics.limit_refusals
        assert (refusals["http_api"], refusals["connections_per_address"], refusals["new_players_per_minute"]) == (
            1, 0, 0,
        )  # fmt: skip
        assert 'freecell_arena_limit_refusals_total{limit="http_api"} 1.0' in server.metrics.render().decode()
    finally:
        await server.shutdown()


async def test_behind_a_trusted_balancer_each_client_has_its_own_api_limit(database_url: str) -> None:
    """Every request comes from the balancer (127.0.0.1, trusted): the limit is the forwarded client's."""
    server = await start_arena(database_url, api_rate_limit_per_s=0.5, api_rate_limit_burst=2,
                               trusted_proxies="127.0.0.1")  # fmt: skip
    try:
        statuses = [(await asyncio.to_thread(get, server.port, PATH, forwarded_for="203.0.113.5"))[0] for _ in range(3)]
        assert statuses == [200, 200, 429]
        assert (await asyncio.to_thread(get, server.port, PATH, forwarded_for="203.0.113.6"))[0] == 200
    finally:
        await server.shutdown()


def test_the_api_limit_is_on_by_default() -> None:
    """A server started without the setting limits the API (the tests and the bench raise it: one address)."""
    defaults = Settings()
    assert (defaults.api.rate_limit_per_s, defaults.api.rate_limit_burst) == (10.0, 40)


def test_address_buckets_say_when_to_come_back_and_forget_the_addresses_that_went_quiet() -> None:
    now = [0.0]
    buckets = AddressBuckets(rate=2.0, burst=2, clock=lambda: now[0])
    assert [buckets.allow("a"), buckets.allow("a"), buckets.allow("a")] == [True, True, False]
    assert buckets.wait("a") == 0.5 and buckets.wait("b") == 0.0
    assert buckets.allow("b")
    now[0] = 0.5
    assert buckets.wait("a") == 0.0 and buckets.allow("a") and not buckets.allow("a")
    now[0] = SWEEP_EVERY_S + 1
    assert buckets.allow("c") and list(buckets.buckets) == ["c"], "full buckets limit nothing: dropped"
