"""`GET /metrics` on a real server after real play, parsed with prometheus_client's own text parser."""

from __future__ import annotations

import asyncio
import random
import urllib.request

import pytest
from arena_client import ArenaClient, connect_player
from arena_server import RunningArena, start_arena
from prometheus_client.parser import text_string_to_metric_families
from racing import choose_move, open_race, server_board, wire_form
from websockets.exceptions import ConnectionClosed

from freecell_arena import __version__
from freecell_arena.build import running_build


def scrape(port: int) -> tuple[str, dict[tuple[str, tuple[tuple[str, str], ...]], float]]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        content_type = response.headers["Content-Type"]
        text = response.read().decode()
    samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return content_type, samples


async def test_metrics_count_connections_rooms_moves_refusals_and_commits(arena: RunningArena) -> None:
    port = arena.server.port
    content_type, before = await asyncio.to_thread(scrape, port)
    assert content_type.startswith("text/plain; version=")  # the Prometheus text format
    assert before[("freecell_arena_connections", ())] == 0
    assert before[("freecell_arena_races_started_total", ())] == 0

    host = await connect_player(arena.url, "host")
    rival = await connect_player(arena.url, "rival")
    _, games = await open_race(host, [rival], "freecell", seed=1)
    game = games[host.player_id]
    rng = random.Random(7)
    played = 0
    for number in range(5):
        move = choose_move(server_board(arena.server, game["game_id"]), rng)
        assert move is not None
        reply = await host.request({"type": "move", "move": wire_form("freecell", move, number % 2 == 1)})
        assert reply["type"] == "move_accepted", reply
        played += 1
    refused = await host.request({"type": "move", "move": "t1-f1"})  # 6S is no ace
    assert refused["type"] == "error"
    bad = await host.request({"type": "move", "move": "zz"})
    assert bad["type"] == "error"

    _, after = await asyncio.to_thread(scrape, port)
    assert after[("freecell_arena_connections", ())] == 2
    assert after[("freecell_arena_connected_players", ())] == 2
    assert after[("freecell_arena_rooms", (("status", "running"),))] == 1
    assert after[("freecell_arena_races_started_total", ())] == 1
    assert after[("freecell_arena_moves_accepted_total", (("variant", "freecell"),))] == played
    refused_name = "freecell_arena_moves_refused_total"
    refusals = {labels: count for (name, labels), count in after.items() if name == refused_name}
    assert sum(refusals.values()) == 2 and all(dict(labels)["variant"] == "freecell" for labels in refusals)
    assert after[("freecell_arena_errors_total", (("code", refused["code"]),))] >= 1
    assert after[("freecell_arena_move_round_trip_seconds_count", ())] == played
    assert after[("freecell_arena_move_round_trip_seconds_bucket", (("le", "+Inf"),))] == played
    assert after[("freecell_arena_move_round_trip_seconds_sum", ())] > 0
    assert after[("freecell_arena_commit_seconds_count", ())] >= 1
    assert after[("freecell_arena_commit_batch_records_sum", ())] >= played  # every accepted move was stored
    assert ("freecell_arena_event_loop_lag_seconds_count", ()) in after
    builds = [dict(labels) for (name, labels), value in after.items() if name == "freecell_arena_build_info"]
    assert builds == [{"version": __version__, "build": running_build()}]

    await host.request({"type": "resign"})
    await rival.request({"type": "resign"})
    await rival.expect("race_over")
    _, finished = await asyncio.to_thread(scrape, port)
    assert finished[("freecell_arena_races_finished_total", ())] == 1
    await host.close()
    await rival.close()
    for _ in range(100):  # the server notices the closes on its own time
        _, closed = await asyncio.to_thread(scrape, port)
        if closed[("freecell_arena_connections", ())] == 0:
            break
        await asyncio.sleep(0.05)
    assert closed[("freecell_arena_connections", ())] == 0


async def test_rate_limited_frames_are_counted(strict_arena: RunningArena) -> None:
    client = await connect_player(strict_arena.url, "flood")
    for _ in range(12):
        await client.send({"type": "state"})
    await client.expect("error", code="rate_limited")
    _, samples = await asyncio.to_thread(scrape, strict_arena.server.port)
    assert samples[("freecell_arena_rate_limited_frames_total", ())] >= 1
    assert samples[("freecell_arena_errors_total", (("code", "rate_limited"),))] >= 1
    await client.close()


async def test_metrics_say_ready_and_count_what_the_per_address_limits_refuse(database_url: str) -> None:
    """The gauges and counters the alerting rules of deploy/prometheus/ read: readiness, refusals by limit, resyncs
    (none on one process)."""
    server = await start_arena(database_url, max_connections_per_address=1, new_players_per_minute=4)  # burst 1
    url = f"ws://127.0.0.1:{server.port}/"
    try:
        _, before = await asyncio.to_thread(scrape, server.port)
        assert before[("freecell_arena_ready", ())] == 1
        assert before[("freecell_arena_room_resyncs_total", ())] == 0
        assert {labels: count for (name, labels), count in before.items()
                if name == "freecell_arena_limit_refusals_total"} == {
            (("limit", "connections_per_address"),): 0, (("limit", "new_players_per_minute"),): 0,
            (("limit", "http_api"),): 0}
        first = await connect_player(url, "first")
        second = await ArenaClient.open(url)  # a second connection from 127.0.0.1: closed at once
        with pytest.raises(ConnectionClosed):
            await second.request({"type": "hello", "name": "second"})
        await first.close()
        third = await ArenaClient.open(url)
        refused = await third.request({"type": "hello", "name": "third"})  # the burst of new players is spent
        assert refused["type"] == "error" and refused["code"] == "rate_limited", refused
        await third.close()
        _, after = await asyncio.to_thread(scrape, server.port)
        assert after[("freecell_arena_limit_refusals_total", (("limit", "connections_per_address"),))] == 1
        assert after[("freecell_arena_limit_refusals_total", (("limit", "new_players_per_minute"),))] == 1
        server.shutting_down = True  # as on SIGTERM: /readyz says 503, and so does the gauge
        _, stopping = await asyncio.to_thread(scrape, server.port)
        assert stopping[("freecell_arena_ready", ())] == 0
    finally:
        await server.shutdown()
