"""Room life: leaving and host hand-over, spectators, undo, one connection per identity, idle timeout, and a
finished race leaving memory once nobody of it is connected."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime

from arena_client import ArenaClient, connect_player
from arena_server import RunningArena, start_arena
from boards_helpers import ManualClock
from racing import open_race
from websockets.exceptions import ConnectionClosed

from freecell_arena.core.live.race_clock import FORGET_FINISHED_AFTER
from freecell_arena.engine.view import apply_view_changes


async def test_leaving_hands_the_room_to_the_next_player(arena: RunningArena) -> None:
    host = await connect_player(arena.url, "host")
    guest = await connect_player(arena.url, "guest")
    try:
        created = await host.request({"type": "create_room", "variant": "freecell-four-deck"})
        code = created["room"]["code"]
        assert len(code) == 8 and created["room"]["seed"] is not None
        await guest.request({"type": "join_room", "code": code.lower()})
        left = await host.request({"type": "leave_room"})
        assert left == {"type": "left_room", "id": left["id"], "code": code}
        gone = await guest.expect("member_left", player_id=host.player_id)
        assert gone == {"type": "member_left", "code": code, "player_id": host.player_id, "host_id": guest.player_id}
        state = await guest.request({"type": "get_state"})
        assert [member["player_id"] for member in state["room"]["members"]] == [guest.player_id]
        assert (await host.request({"type": "leave_room"}))["code"] == "not_in_room"
        countdown = await guest.request({"type": "start_race"})
        assert countdown["type"] == "countdown"
    finally:
        await host.close()
        await guest.close()


async def test_undo_costs_a_move_and_structured_moves_work(arena: RunningArena) -> None:
    host = await connect_player(arena.url, "host")
    spectator = await connect_player(arena.url, "spectator")
    try:
        code, games = await open_race(host, [], "freecell", seed=1, autoplay=False, undo_allowed=True)
        await spectator.request({"type": "join_room", "code": code, "spectator": True})
        structured = {"from": "tableau", "from_index": 1, "to": "cell", "to_index": None, "count": 1}
        start = games[host.player_id]["view"]
        moved = await host.request({"type": "move", "move": structured})
        assert moved["type"] == "move_accepted" and moved["action"] == "2a"
        assert moved["move"]["move"] == {**structured, "to_index": 0}
        assert set(moved["changes"]["tableau"]) == {"1"} and moved["changes"]["cells"][0] is not None
        assert "foundations" not in moved["changes"]
        after_move = apply_view_changes(start, moved["changes"])
        assert after_move["tableau"][1] == start["tableau"][1][:-1]
        assert after_move["cells"][0] == start["tableau"][1][-1]
        undone = await host.request({"type": "undo"})
        assert undone["type"] == "move_accepted" and undone["action"] == "undo" and undone["move"] is None
        assert [item["notation"] for item in undone["undone"]] == ["2a"]
        assert undone["player_moves"] == 2 and apply_view_changes(after_move, undone["changes"]) == start
        nothing = await host.request({"type": "undo"})
        assert nothing["code"] == "undo_not_allowed" and nothing["reason"] == "nothing_to_undo"
        progress = await spectator.expect("progress", code=code)
        assert progress["progress"]["player_id"] == host.player_id
        assert all(frame["type"] != "move_accepted" for frame in spectator.frames)
    finally:
        await host.close()
        await spectator.close()


async def test_undo_switched_off(arena: RunningArena) -> None:
    host = await connect_player(arena.url, "host")
    try:
        await open_race(host, [], "freecell", seed=1, undo_allowed=False)
        assert (await host.request({"type": "move", "move": "2a"}))["type"] == "move_accepted"
        refused = await host.request({"type": "undo"})
        assert refused["code"] == "undo_not_allowed" and refused["reason"] == "undo_disabled"
    finally:
        await host.close()


async def test_a_new_connection_with_the_token_replaces_the_old_one(arena: RunningArena) -> None:
    first = await connect_player(arena.url, "twin")
    second = await ArenaClient.open(arena.url)
    try:
        welcome = await second.hello("twin", token=first.token)
        assert welcome["resumed"] and welcome["player_id"] == first.player_id
        try:
            async with asyncio.timeout(10):
                while True:
                    await first._receive()
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 4000
        assert (await second.request({"type": "get_state"}))["type"] == "game_state"
    finally:
        await second.close()


async def test_idle_connections_are_closed_with_a_reason(strict_arena: RunningArena) -> None:
    client = await connect_player(strict_arena.url, "sleepy")
    try:
        async with asyncio.timeout(10):
            await client.websocket.wait_closed()
        assert client.websocket.close_code == 1008
        assert "idle timeout" in (client.websocket.close_reason or "")
    finally:
        await client.close()


async def test_a_peer_that_never_answers_pings_is_closed(database_url: str) -> None:
    """A raw socket does the websocket handshake, then ignores the server's pings: the server hangs up."""
    from arena_server import start_arena

    server = await start_arena(database_url, ping_interval_s=0.2, ping_timeout_s=0.3)
    try:
        async with asyncio.timeout(20):
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(
                b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            )
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 101")
            received = await reader.read()  # until the server closes the TCP connection
            writer.close()
        assert received[:1] == b"\x89", "the server pings first"
        assert b"\x88" in received and (1011).to_bytes(2, "big") in received, "then closes with 1011"
    finally:
        await server.shutdown()


async def test_connections_that_answer_pings_stay_open_with_one_task_each_and_the_watch_pings_them(
    database_url: str,
) -> None:
    """Greeted connections that answer pings outlive many ping intervals; the server holds one task per connection
    (its reader): the keepalive, hello and idle clocks are one task's for all (net/watch.py), and the outbox has no
    task while its socket takes frames at once."""
    from arena_server import start_arena
    from websockets.asyncio.client import connect

    server = await start_arena(database_url, ping_interval_s=0.1, ping_timeout_s=0.5, hello_timeout_s=5.0)
    clients = []
    try:
        tasks_before = asyncio.all_tasks()
        for number in range(10):
            client = await connect(f"ws://127.0.0.1:{server.port}/", ping_interval=None)  # no tasks of its own
            await client.send(json.dumps({"type": "hello", "id": 1, "name": f"pinged-{number}", "bot": True}))
            assert json.loads(await client.recv())["type"] == "welcome"
            clients.append(client)
        await asyncio.sleep(1.5)  # 15 ping intervals; each ping is answered by the client's websockets
        assert len(server.watch) == 10
        assert all(client.state.name == "OPEN" for client in clients)
        assert all(socket.latency > 0 for socket in server.listener.sockets), "pinged and answered"
        readers = ["connection"] * 10
        for _ in range(40):  # a store read of the background jobs may be ending: its close is a task for a moment
            added = [task for task in asyncio.all_tasks() - tasks_before if task.get_name() != "group-commit-writer"]
            # (the group-commit writer's task starts at the first write; tasks are told by their names, since a
            # compiled coroutine has no __qualname__)
            per_connection = [task.get_name() for task in added]
            if per_connection == readers:
                break
            await asyncio.sleep(0.05)  # a task kept per connection outlasts 2 s; SQLAlchemy's shielded close does not
        assert per_connection == readers, "one task per connection: its reader"
    finally:
        for client in clients:
            await client.close()
        await server.shutdown()


async def test_no_legal_move_left_with_undo_on_asks_for_an_undo_instead_of_ending(arena: RunningArena) -> None:
    host = await connect_player(arena.url, "host")
    rival = await connect_player(arena.url, "rival")
    try:
        await open_race(host, [rival], "freecell", seed=1, autoplay=False)
        for notation in ["1a", "1b", "1c", "1d"]:
            reply = await host.request({"type": "move", "move": notation})
            assert reply["status"] == "playing" and not reply["only_undo_left"]
        last = await host.request({"type": "move", "move": "16"})
        assert last["type"] == "move_accepted" and last["status"] == "playing" and last["only_undo_left"], last
        undone = await host.request({"type": "undo"})
        assert undone["type"] == "move_accepted" and undone["player_moves"] == 6 and not undone["only_undo_left"]
        assert (await host.request({"type": "undo"}))["player_moves"] == 7, "play goes on"
        assert not [frame for frame in host.frames if frame.get("type") == "game_over"]
    finally:
        await host.close()
        await rival.close()


async def test_a_player_with_no_legal_move_left_and_no_undo_is_told_the_game_is_over(arena: RunningArena) -> None:
    host = await connect_player(arena.url, "host")
    rival = await connect_player(arena.url, "rival")
    try:
        code, _ = await open_race(host, [rival], "freecell", seed=1, autoplay=False, undo_allowed=False)
        for notation in ["1a", "1b", "1c", "1d"]:
            assert (await host.request({"type": "move", "move": notation}))["status"] == "playing"
        last = await host.request({"type": "move", "move": "16"})
        assert last["type"] == "move_accepted" and last["status"] == "stuck" and not last["only_undo_left"]
        over = await host.expect("game_over")
        assert over["outcome"] == "stuck" and "No legal move" in over["message"]
        while True:
            progress = (await rival.expect("progress", code=code))["progress"]
            if progress["player_id"] == host.player_id and progress["status"] == "stuck":
                break
        assert (await host.request({"type": "move", "move": "a1"}))["code"] == "game_not_running"
    finally:
        await host.close()
        await rival.close()


async def test_a_finished_race_nobody_watches_leaves_memory_and_its_replays_come_back(database_url: str) -> None:
    clock = ManualClock(datetime(2026, 11, 22, 12, 0, tzinfo=UTC))
    server = await start_arena(database_url, clock)
    url = f"ws://127.0.0.1:{server.port}/"
    host, rival = await connect_player(url, "host"), await connect_player(url, "rival")
    try:
        created = await host.request({"type": "create_room", "variant": "freecell", "deal": 5,
                                      "options": {"countdown_s": 1}})  # fmt: skip
        code = created["room"]["code"]
        await rival.request({"type": "join_room", "code": code})
        await host.request({"type": "start_race"})
        clock.advance(1)
        games = {client.player_id: (await client.expect("race_started"))["game"]["game_id"] for client in (host, rival)}
        assert (await host.request({"type": "move", "move": "1a"}))["type"] == "move_accepted"
        for client in (host, rival):
            await client.request({"type": "resign"})
        await host.expect("race_over", code=code)
        token = host.token
        await host.close()
        await rival.close()

        async def in_memory() -> bool:
            await asyncio.sleep(0.2)  # several of the server's ticks (every 20 ms)
            return code in server.arena.rooms or any(game_id in server.arena.games for game_id in games.values())

        clock.advance(FORGET_FINISHED_AFTER.total_seconds() - 1)
        assert await in_memory(), "a race just finished stays (its finish may still be written)"
        clock.advance(2)
        assert not await in_memory(), "nobody of the finished race is connected: it leaves memory"

        again = await ArenaClient.open(url)
        await again.hello("ignored", token=token)
        replay = await again.request({"type": "get_replay", "game_id": games[again.player_id]})
        assert replay["type"] == "replay" and replay["actions"] == ["1a"] and replay["outcome"] == "resigned", replay
        rivals = await again.request({"type": "get_replay", "game_id": games[rival.player_id]})
        assert rivals["type"] == "replay" and rivals["outcome"] == "resigned", rivals
        await again.close()
    finally:
        await host.close()
        await rival.close()
        await server.shutdown()


async def test_a_join_sends_the_others_one_small_event_not_the_whole_room(arena: RunningArena) -> None:
    """Membership changes cost O(members) bytes: the joiner gets the room, each other member one small event."""
    host = await connect_player(arena.url, "host")
    code = (await host.request({"type": "create_room", "variant": "freecell"}))["room"]["code"]
    others = [await connect_player(arena.url, f"p{number}") for number in range(5)]
    for number, client in enumerate(others):
        joined = await client.request({"type": "join_room", "code": code})
        assert joined["type"] == "room" and len(joined["room"]["members"]) == number + 2
        event = await host.expect("member_joined")
        assert event["member"]["player_id"] == client.player_id and event["member"]["connected"] is True
        assert len(json.dumps(event)) < 200
    await others[0].close()
    dropped = await host.expect("member_left", player_id=others[0].player_id)  # a lobby seat is given up
    assert dropped["host_id"] == host.player_id
    for client in (host, *others[1:]):
        await client.close()
