"""Every kind of bad input gets one clear error with a stable code, changes nothing, and (where that makes
sense) leaves the connection usable."""

from __future__ import annotations

import json

import pytest
from arena_client import ArenaClient, connect_player
from arena_server import RunningArena
from racing import open_race

from freecell_arena.protocol.registry import CLIENT_TYPES


async def assert_usable(client: ArenaClient) -> None:
    state = await client.request({"type": "get_state"})
    assert state["type"] == "game_state", state


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("{not json", "invalid_json"),
        ("[1, 2]", "invalid_message"),
        ('{"type": "fly"}', "unknown_type"),
        ('{"name": "no type"}', "invalid_message"),
        ('{"type": "join_room"}', "invalid_message"),
        ('{"type": "join_room", "code": 7}', "invalid_message"),
        ('{"type": "create_room", "variant": "freecell", "options": {"max_players": 0}}', "invalid_message"),
        ('{"type": "move", "move": {"from": "moon", "from_index": 0, "to": "cell"}}', "bad_notation"),
        ('{"type": "get_state", "surprise": true}', "invalid_message"),
    ],
)
async def test_malformed_frames_get_a_clear_error_and_the_connection_stays(
    arena: RunningArena, frame: str, code: str
) -> None:
    client = await connect_player(arena.url, "fuzz")
    try:
        await client.send_raw(frame)
        error = await client.expect("error")
        assert error["code"] == code
        assert error["message"]
        await assert_usable(client)
    finally:
        await client.close()


async def test_error_echoes_the_request_id_when_it_can(arena: RunningArena) -> None:
    client = await connect_player(arena.url, "echo")
    try:
        await client.send({"type": "join_room", "id": "abc"})
        error = await client.expect("error")
        assert error["id"] == "abc" and error["code"] == "invalid_message"
        unknown = await client.request({"type": "teleport"})
        assert unknown["code"] == "unknown_type"
        assert all(name in unknown["message"] for name in CLIENT_TYPES)
    finally:
        await client.close()


async def test_hello_first_then_only_once(arena: RunningArena) -> None:
    client = await ArenaClient.open(arena.url)
    try:
        early = await client.request({"type": "get_state"})
        assert early["code"] == "hello_required"
        await client.send_raw(b"\x00binary")
        assert (await client.expect("error"))["code"] == "invalid_message"
        await client.hello("first")
        again = await client.request({"type": "hello", "name": "second"})
        assert again["code"] == "already_greeted"
        await assert_usable(client)
    finally:
        await client.close()


async def test_unknown_token_is_refused(arena: RunningArena) -> None:
    client = await ArenaClient.open(arena.url)
    try:
        reply = await client.request({"type": "hello", "name": "x", "token": "not-a-token"})
        assert reply["code"] == "unknown_token"
        welcome = await client.hello("x")
        assert welcome["resumed"] is False
    finally:
        await client.close()


async def test_room_refusals(arena: RunningArena) -> None:
    host = await connect_player(arena.url, "host")
    late = await connect_player(arena.url, "late")
    try:
        assert (await late.request({"type": "join_room", "code": "NOPE2345"}))["code"] == "unknown_room"
        bad_variant = await host.request({"type": "create_room", "variant": "spider"})
        assert bad_variant["code"] == "unknown_variant"
        bad_seed = await host.request({"type": "create_room", "variant": "freecell", "seed": 2**40})
        assert bad_seed["code"] == "bad_seed"
        created = await host.request({"type": "create_room", "variant": "freecell", "options": {"max_players": 1}})
        code = created["room"]["code"]
        assert (await late.request({"type": "join_room", "code": code}))["code"] == "room_full"
        assert (await late.request({"type": "start_race"}))["code"] == "not_in_room"
        assert (await host.request({"type": "create_room", "variant": "freecell"}))["code"] == "already_in_room"
        watcher = await late.request({"type": "join_room", "code": code, "spectator": True})
        assert watcher["type"] == "room"
        assert (await late.request({"type": "start_race"}))["code"] == "not_host"
        assert (await late.request({"type": "move", "move": "1a"}))["code"] == "no_game"
    finally:
        await host.close()
        await late.close()


async def test_started_room_refuses_players_and_moves_are_checked(arena: RunningArena) -> None:
    host = await connect_player(arena.url, "host")
    rival = await connect_player(arena.url, "rival")
    late = await connect_player(arena.url, "late")
    try:
        code, games = await open_race(host, [rival], "freecell", seed=1)
        assert (await late.request({"type": "join_room", "code": code}))["code"] == "room_started"
        assert (await host.request({"type": "start_race"}))["code"] == "room_started"
        other = games[rival.player_id]["game_id"]
        stolen = await host.request({"type": "move", "game_id": other, "move": "1a"})
        assert stolen["code"] == "not_your_game"
        illegal = await host.request({"type": "move", "move": "1h"})
        assert illegal["code"] == "illegal_move" and illegal["reason"] and illegal["message"]
        garbled = await host.request({"type": "move", "move": "zz"})
        assert garbled["code"] == "bad_notation"
        unknown = await host.request({"type": "move", "game_id": "g_nothing", "move": "1a"})
        assert unknown["code"] == "unknown_game"
        peek = await host.request({"type": "get_replay", "game_id": other})
        assert peek["code"] == "replay_not_available"
        state = await host.request({"type": "get_state"})
        assert state["game"]["actions"] == [] and state["game"]["player_moves"] == 0
        accepted = await host.request({"type": "move", "move": "1a"})
        assert accepted["type"] == "move_accepted" and accepted["index"] == 0
    finally:
        for client in (host, rival, late):
            await client.close()


async def test_oversized_frame_gets_an_error_and_the_connection_stays(strict_arena: RunningArena) -> None:
    client = await connect_player(strict_arena.url, "big")
    try:
        await client.send({"type": "join_room", "code": "X" * 2000})
        error = await client.expect("error")
        assert error["code"] == "message_too_large" and "1024" in error["message"]
        await assert_usable(client)
    finally:
        await client.close()


async def test_rate_limit_names_the_limit(strict_arena: RunningArena) -> None:
    client = await connect_player(strict_arena.url, "fast")
    try:
        for _ in range(12):
            await client.send({"type": "get_state"})
        replies = []
        for _ in range(12):
            replies.append(await client._receive())
        refused = [frame for frame in replies if frame.get("code") == "rate_limited"]
        served = [frame for frame in replies if frame["type"] == "game_state"]
        assert refused and served and len(refused) + len(served) == 12
        assert "at most 1 messages per second (bursts of 5)" in refused[0]["message"]
    finally:
        await client.close()


async def test_healthz_over_plain_http(arena: RunningArena) -> None:
    import asyncio

    async with asyncio.timeout(10):
        reader, writer = await asyncio.open_connection("127.0.0.1", arena.server.port)
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        await writer.drain()
        response = await reader.read()
        writer.close()
    head, _, body = response.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200")
    assert json.loads(body)["status"] == "ok"


async def test_a_broken_database_gets_errors_not_a_dropped_connection(database_url: str) -> None:
    from arena_server import drop_schema, start_arena

    server = await start_arena(database_url)
    try:
        await drop_schema(server)  # the schema goes away under a running server
        client = await ArenaClient.open(f"ws://127.0.0.1:{server.port}/")
        lookup = await client.request({"type": "hello", "name": "x", "token": "some-token"})
        assert lookup["type"] == "error" and lookup["code"] == "storage_failed", lookup  # say hello again later
        register = await client.request({"type": "hello", "name": "x"})
        assert register["type"] == "error" and register["code"] == "storage_failed", register
        again = await client.request({"type": "get_state"})
        assert again["code"] == "hello_required", "the failed hello left no identity behind"
        await client.close()
    finally:
        await server.shutdown()
