"""Hostile input against a real server (issue 16): frames that used to take a connection down or fill the log,
HTTP methods and headers, the hello deadline, the per-address caps and the name rules. Each test failed before
its fix."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import urllib.error
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

import pytest
from arena_client import ArenaClient, connect_player
from arena_server import RunningArena, drop_schema, start_arena
from boards_helpers import http_get
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from freecell_arena.core.identity import hash_token
from freecell_arena.store import migrate


def raw_http(port: int, method: str, path: str) -> tuple[int, dict[str, str], bytes]:
    # no body: websockets' HTTP parser drops a request that carries one before any route sees it
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


async def test_a_deeply_nested_frame_is_invalid_json_and_logs_nothing(
    arena: RunningArena, caplog: pytest.LogCaptureFixture
) -> None:
    client = await ArenaClient.open(arena.url)  # no hello needed to send it
    caplog.set_level(logging.INFO)
    try:
        for frame in ("[" * 5000 + "]" * 5000, '{"a":' * 2000 + "1" + "}" * 2000, '{"id": 7, "x": ' + "[" * 4000):
            assert len(frame) < 16_384
            await client.send_raw(frame)
            reply = await client.expect("error")
            assert reply["code"] == "invalid_json", reply
        hello = await client.request({"type": "hello", "name": "still here"})
        assert hello["type"] == "welcome", "the connection stays open"
    finally:
        await client.close()
    assert not [record for record in caplog.records if record.exc_info], "no traceback in the log"


async def test_a_cursor_past_64_bits_is_bad_cursor_over_http_and_websocket(
    arena: RunningArena, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    payload = json.dumps({"k": "board", "v": [2**70, "2026-11-25T00:00:00+00:00", "p_x"]}).encode()
    cursor = base64.urlsafe_b64encode(payload).decode().rstrip("=")
    status, body = await http_get(arena.server.port, f"/api/leaderboards/freecell/deal/1?cursor={cursor}")
    assert (status, body["code"]) == (400, "bad_cursor"), body
    client = await connect_player(arena.url, "cursor")
    reply = await client.request({"type": "get_leaderboard", "variant": "freecell", "board": "deal", "seed": 1,
                                  "cursor": cursor})  # fmt: skip
    assert reply["code"] == "bad_cursor", reply
    await client.close()
    assert not [record for record in caplog.records if record.exc_info]


async def test_a_query_parameter_the_route_sets_is_refused(arena: RunningArena) -> None:
    status, body = await http_get(arena.server.port, "/api/leaderboards/freecell/deal/1?board=daily")
    assert status == 400 and "board" in body["message"], body
    status, body = await http_get(arena.server.port, "/api/leaderboards/freecell/deal/1?seed=2")
    assert status == 400 and "seed" in body["message"], body
    status, body = await http_get(arena.server.port, "/api/leaderboards/freecell/deal/1?limit=5")
    assert (status, body["code"]) == (404, "unknown_seed"), "the parameters were taken: deal 1 was never dealt"


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
async def test_other_methods_get_405_with_allow(arena: RunningArena, method: str) -> None:
    for path in ("/api/daily/freecell", "/healthz", "/readyz", "/metrics", "/"):
        status, headers, _ = await asyncio.to_thread(raw_http, arena.server.port, method, path)
        assert status == 405, (method, path)
        assert headers["Allow"] == "GET"


async def test_every_plain_http_answer_says_nosniff(arena: RunningArena) -> None:
    for path in ("/api/daily/freecell", "/healthz", "/readyz", "/metrics", "/nowhere"):
        _, headers, _ = await asyncio.to_thread(raw_http, arena.server.port, "GET", path)
        assert headers["X-Content-Type-Options"] == "nosniff", path


async def test_every_plain_http_answer_says_the_connection_closes(arena: RunningArena) -> None:
    """websockets closes the connection after a plain HTTP answer: without `Connection: close` a browser keeps it
    for its next file, finds it dead and sends that request again on a new one."""
    for path in ("/", "/js/app.js", "/styles.css", "/api/daily/freecell", "/healthz", "/readyz", "/metrics",
                 "/nowhere"):  # fmt: skip
        _, headers, _ = await asyncio.to_thread(raw_http, arena.server.port, "GET", path)
        assert headers["Connection"] == "close", path
    _, headers, _ = await asyncio.to_thread(raw_http, arena.server.port, "POST", "/healthz")
    assert headers["Connection"] == "close", "405"


async def test_readyz_is_503_while_the_database_cannot_commit(database_url: str) -> None:
    """Liveness stays 200 (the process answers); readiness follows what a write just did, then the database."""
    server = await start_arena(database_url, readiness_failure_window_s=30)
    try:
        port = server.port
        assert (await asyncio.to_thread(raw_http, port, "GET", "/readyz"))[0] == 200
        client = await connect_player(f"ws://127.0.0.1:{port}/", "before")
        await client.close()
        await drop_schema(server)  # writes fail from now on
        failing = await ArenaClient.open(f"ws://127.0.0.1:{port}/")
        refused = await failing.request({"type": "hello", "name": "after"})
        assert refused["code"] == "storage_failed"
        await failing.close()
        status, _, body = await asyncio.to_thread(raw_http, port, "GET", "/readyz")
        assert status == 503 and json.loads(body)["reason"] == "the last write to the database failed"
        assert (await asyncio.to_thread(raw_http, port, "GET", "/healthz"))[0] == 200
    finally:
        await server.shutdown()


async def test_readyz_is_503_when_the_database_does_not_answer(tmp_path: Path) -> None:
    """The SQLite file is replaced by a folder under the running server: no connection can open it any more."""
    path = tmp_path / "arena.db"
    url = f"sqlite+aiosqlite:///{path}"
    await migrate(url)
    server = await start_arena(url)
    try:
        assert (await asyncio.to_thread(raw_http, server.port, "GET", "/readyz"))[0] == 200
        path.rename(tmp_path / "moved.db")
        path.mkdir()
        await server.store.engine.dispose()  # pooled connections still hold the old file
        status, _, body = await asyncio.to_thread(raw_http, server.port, "GET", "/readyz")
        assert status == 503 and json.loads(body)["reason"].startswith("the database does not answer"), body
        assert (await asyncio.to_thread(raw_http, server.port, "GET", "/healthz"))[0] == 200
    finally:
        await server.shutdown()


async def test_a_connection_without_hello_is_closed_after_the_deadline(database_url: str) -> None:
    server = await start_arena(database_url, hello_timeout_s=0.3)
    try:
        client = await ArenaClient.open(f"ws://127.0.0.1:{server.port}/")
        async with asyncio.timeout(5):
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await client.websocket.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert "no hello within 0.3 s" in closed.value.rcvd.reason
        greeted = await connect_player(f"ws://127.0.0.1:{server.port}/", "quick")
        await asyncio.sleep(0.5)
        assert (await greeted.request({"type": "get_state"}))["type"] == "game_state", "a greeted one stays"
        await greeted.close()
    finally:
        await server.shutdown()


async def test_connections_per_address_are_capped_with_a_clear_reason(database_url: str) -> None:
    server = await start_arena(database_url, max_connections_per_address=3)
    url = f"ws://127.0.0.1:{server.port}/"
    try:
        kept = [await connect_player(url, f"p{number}") for number in range(3)]
        extra = await ArenaClient.open(url)
        async with asyncio.timeout(5):
            with pytest.raises(ConnectionClosed) as closed:
                await extra.websocket.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert "too many connections from your address (at most 3)" in closed.value.rcvd.reason
        await kept[0].close()
        await asyncio.sleep(0.2)
        again = await connect_player(url, "again")  # a seat freed by a close is free again
        for client in (*kept[1:], again):
            await client.close()
    finally:
        await server.shutdown()


async def test_new_identities_are_rate_limited_per_address(database_url: str) -> None:
    server = await start_arena(database_url, new_players_per_minute=8)  # bursts of 2
    url = f"ws://127.0.0.1:{server.port}/"
    try:
        first = await connect_player(url, "one")
        await connect_player(url, "two")
        third = await ArenaClient.open(url)
        refused = await third.request({"type": "hello", "name": "three"})
        assert refused["code"] == "rate_limited" and "new players" in refused["message"], refused
        resumed = await ArenaClient.open(url)  # coming back with a token is no new identity
        welcome = await resumed.request({"type": "hello", "name": "one", "token": first.token})
        assert welcome["type"] == "welcome" and welcome["resumed"] is True
    finally:
        await server.shutdown()


@pytest.mark.parametrize(
    ("name", "expected"),
    [("  Ann  ", "Ann"), ("e\u0301te\u0301", "\u00e9t\u00e9"), ("Zoë the 2nd", "Zoë the 2nd")],
)
async def test_names_are_trimmed_and_nfc_normalized(arena: RunningArena, name: str, expected: str) -> None:
    client = await ArenaClient.open(arena.url)
    welcome = await client.request({"type": "hello", "name": name})
    assert welcome["name"] == expected
    await client.close()


@pytest.mark.parametrize("name", ["a\x00b", "\x1b[31mred", "x\u202eevil", "zero\u200bwidth", "   ", "a\u2028b",
                                  "x" * 33])  # fmt: skip
async def test_names_with_control_or_invisible_characters_are_refused(arena: RunningArena, name: str) -> None:
    client = await ArenaClient.open(arena.url)
    refused = await client.request({"type": "hello", "name": name})
    assert refused["type"] == "error" and refused["code"] == "invalid_message", refused
    assert "name" in refused["message"]
    again = await client.request({"type": "get_state"})
    assert again["code"] == "hello_required", "a refused hello leaves no identity"
    await client.close()


async def test_a_database_outage_logs_one_line_per_kind_not_one_traceback_per_failure(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    server = await start_arena(database_url)
    try:
        await drop_schema(server)
        caplog.set_level(logging.INFO)
        clients = [await ArenaClient.open(f"ws://127.0.0.1:{server.port}/") for _ in range(30)]
        for number, client in enumerate(clients):
            refused = await client.request({"type": "hello", "name": f"p{number}"})
            assert refused["code"] == "storage_failed"
            await client.close()
    finally:
        await server.shutdown()
    lines = [record for record in caplog.records if "a write failed" in record.getMessage()]
    assert len(lines) == 1, [record.getMessage() for record in lines]
    assert not lines[0].exc_info and "\n" not in lines[0].getMessage()
    assert not [record for record in caplog.records if record.exc_info]


async def test_a_returning_players_hello_during_an_outage_says_try_again(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The database is down when known players come back: each hello is answered `storage_failed` (nothing changed,
    say hello again in a moment: what the SDK's runner waits out), logged as one line, not `internal_error` with a
    traceback each (as any request the server fails to handle is)."""
    server = await start_arena(database_url)
    url = f"ws://127.0.0.1:{server.port}/"
    try:
        tokens = []
        for number in range(3):
            client = await ArenaClient.open(url)
            tokens.append((await client.request({"type": "hello", "name": f"back{number}"}))["token"])
            await client.close()
        await drop_schema(server)
        caplog.set_level(logging.INFO)
        for token in tokens:
            client = await ArenaClient.open(url)
            refused = await client.request({"type": "hello", "name": "back", "token": token})
            assert refused["code"] == "storage_failed" and "again" in refused["message"], refused
            assert (await client.request({"type": "get_state"}))["code"] == "hello_required", "nobody was greeted"
            await client.close()
    finally:
        await server.shutdown()
    lines = [record.getMessage() for record in caplog.records if "could not read the store" in record.getMessage()]
    assert len(lines) == 1, lines
    assert not [record for record in caplog.records if record.exc_info]


def test_the_throttled_log_counts_what_it_held_back(caplog: pytest.LogCaptureFixture) -> None:
    from freecell_arena.net.throttled_log import ThrottledLog

    now = [0.0]
    throttled = ThrottledLog(logging.getLogger("throttle-test"), interval_s=10, clock=lambda: now[0])
    caplog.set_level(logging.INFO)
    for second in range(25):
        now[0] = second
        throttled.warning("OSError", "the database is down")
    messages = [record.getMessage() for record in caplog.records if record.name == "throttle-test"]
    assert messages == ["the database is down", "the database is down (9 more like it in the last 10 s)",
                        "the database is down (9 more like it in the last 10 s)"]  # fmt: skip


async def test_a_member_who_stops_reading_is_cut_off_by_bytes_queued(tmp_path: Path) -> None:
    """A spectator stops reading while a race runs: what waits for it is counted in bytes, and once the small
    limit is passed the server cuts it instead of queueing (the players go on untouched). SQLite only: this is
    about the socket, not the database."""
    import random
    import socket

    from racing import choose_move, server_board, wire_form

    database_url = f"sqlite+aiosqlite:///{tmp_path / 'arena.db'}"
    await migrate(database_url)
    # every move's progress, not one per window: the frames must pile up faster than the kernel takes them
    server = await start_arena(database_url, outbox_limit_bytes=65_536, progress_window_ms=0)
    url = f"ws://127.0.0.1:{server.port}/"
    try:
        host = await connect_player(url, "host")
        created = await host.request({"type": "create_room", "variant": "freecell", "seed": 3,
                                      "options": {"countdown_s": 0, "undo_allowed": True, "autoplay": False}})
        code = created["room"]["code"]
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window: the kernel holds little
        raw.connect(("127.0.0.1", server.port))
        raw.setblocking(False)
        # a plain client: once a frame waits unread, it stops reading
        sleeper = await connect(url, sock=raw, max_queue=1, compression=None)
        await sleeper.send(json.dumps({"type": "hello", "name": "sleeper"}))
        sleeper_id = json.loads(await sleeper.recv())["player_id"]
        await sleeper.send(json.dumps({"type": "join_room", "code": code, "spectator": True}))
        assert json.loads(await sleeper.recv())["type"] == "room"
        # the server's side of the same socket gets a small kernel buffer too, so what the kernel holds for the
        # sleeper is kilobytes, not megabytes: the frames pile up where the server counts them
        server_socket = server.connections[sleeper_id].websocket.transport.get_extra_info("socket")
        server_socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        await host.request({"type": "start_race"})
        game = (await host.expect("race_started"))["game"]
        rng = random.Random(3)
        sent = 0
        async with asyncio.timeout(60):
            while server.metrics.frames_dropped == 0:
                move = choose_move(server_board(server, game["game_id"]), rng)
                message = {"type": "undo"} if move is None or sent % 2 else {
                    "type": "move", "move": wire_form("freecell", move, False)}
                reply = await host.request(message)
                assert reply["type"] in ("move_accepted", "error"), reply
                sent += 1
        assert sent < 1_000, f"cut after {sent} moves: by its 64 KiB of frames, not after 2,000 frames"
        sleeper_connection = server.connections.get(sleeper_id)
        assert sleeper_connection is None or sleeper_connection.outbox.queued_bytes <= 65_536
        assert (await host.request({"type": "get_state"}))["type"] == "game_state", "the player goes on"
        await host.close()
        sleeper.transport.abort()
    finally:
        await server.shutdown()


async def test_spectators_per_room_are_capped(database_url: str) -> None:
    server = await start_arena(database_url, max_spectators=2)
    url = f"ws://127.0.0.1:{server.port}/"
    try:
        host = await connect_player(url, "host")
        code = (await host.request({"type": "create_room", "variant": "freecell"}))["room"]["code"]
        watchers = [await connect_player(url, f"w{number}") for number in range(3)]
        for watcher in watchers[:2]:
            assert (await watcher.request({"type": "join_room", "code": code, "spectator": True}))["type"] == "room"
        refused = await watchers[2].request({"type": "join_room", "code": code, "spectator": True})
        assert refused["code"] == "room_full" and "2 spectators" in refused["message"], refused
        player = await watchers[2].request({"type": "join_room", "code": code})
        assert player["type"] == "room", "the cap is on spectators, not on players"
    finally:
        await server.shutdown()


async def test_idle_identities_leave_memory_and_come_back_with_their_token(database_url: str) -> None:
    from boards_helpers import ManualClock

    clock = ManualClock(datetime(2026, 11, 25, 12, 0, tzinfo=UTC))
    server = await start_arena(database_url, clock)
    url = f"ws://127.0.0.1:{server.port}/"
    try:
        idle = await connect_player(url, "idle")
        racer = await connect_player(url, "racer")
        await racer.request({"type": "create_room", "variant": "freecell", "options": {"countdown_s": 0}})
        await racer.request({"type": "start_race"})
        clock.advance(0.1)
        await racer.expect("race_started")
        idle_id, racer_id, token = idle.player_id, racer.player_id, idle.token
        await idle.close()
        await racer.close()
        clock.advance(61)
        async with asyncio.timeout(10):
            while idle_id in server.arena.players:
                await asyncio.sleep(0.02)
        assert racer_id in server.arena.players, "a player whose game runs stays"
        assert server.arena.player_by_token_hash(hash_token(token or "")) is None
        back = await ArenaClient.open(url)
        welcome = await back.request({"type": "hello", "name": "idle", "token": token})
        assert welcome["type"] == "welcome" and welcome["resumed"] is True and welcome["player_id"] == idle_id
        await back.close()
    finally:
        await server.shutdown()
