"""Race again and quick races over a real websocket server, on SQLite and PostgreSQL: the series' next room and
the variant's filling quick race as the store keeps them, the invitation, the tally, and every wrong state
refused with nothing changed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from arena_client import ArenaClient, connect_player
from arena_server import RunningArena, start_arena

SOLUTION = (Path(__file__).resolve().parents[1] / "data" / "ms-deal-1-atomic.sn").read_text().split()


async def finished_race(host: ArenaClient, rival: ArenaClient) -> str:
    """Deal 1 without autoplay: the rival plays the known solution and wins, the host resigns."""
    options = {"countdown_s": 0, "autoplay": False}
    created = await host.request({"type": "create_room", "variant": "freecell", "deal": 1, "options": options})
    code: str = created["room"]["code"]
    assert (await rival.request({"type": "join_room", "code": code}))["type"] == "room"
    assert (await host.request({"type": "start_race"}))["type"] == "countdown"
    await rival.expect("race_started", code=code)
    assert (await host.request({"type": "resign"}))["type"] == "game_over"
    for notation in SOLUTION:
        assert (await rival.request({"type": "move", "move": notation}))["type"] == "move_accepted"
    for client in (host, rival):
        await client.expect("race_over", code=code)
    return code


def tally(room: dict[str, Any]) -> list[tuple[str, int]]:
    return [(row["name"], row["wins"]) for row in room["series"]["tally"]]


async def test_race_again_opens_one_next_room_invites_the_others_and_keeps_the_tally(arena: RunningArena) -> None:
    host = await connect_player(arena.url, "host")
    rival = await connect_player(arena.url, "rival")
    try:
        code = await finished_race(host, rival)
        again = await host.request({"type": "race_again"})
        assert again["type"] == "room", again
        following = again["room"]
        assert following["code"] != code and following["status"] == "lobby" and not following["host_chose_deal"]
        assert following["options"]["autoplay"] is False and following["series"]["race"] == 2
        assert tally(following) == [("rival", 1), ("host", 0)]
        invite = await rival.expect("series_invite", code=code)
        assert invite == {"type": "series_invite", "code": code, "next_code": following["code"], "by": "host"}

        reload = await ArenaClient.open(arena.url)  # a late reload: the finished room points to the next one
        await reload.hello("rival", token=rival.token)
        state = await reload.expect("game_state")
        assert state["room"]["code"] == code and state["room"]["next_code"] == following["code"]
        joined = await reload.request({"type": "race_again"})
        assert joined["type"] == "room" and joined["room"]["code"] == following["code"]
        assert (await host.expect("member_joined", code=following["code"]))["member"]["name"] == "rival"
        stored = await arena.server.store.room_by_code(code)
        assert stored is not None and stored.next_code == following["code"]
        await reload.close()
    finally:
        await host.close()
        await rival.close()


async def test_two_members_pressing_at_once_get_one_next_room(arena: RunningArena) -> None:
    host = await connect_player(arena.url, "host")
    rival = await connect_player(arena.url, "rival")
    try:
        await finished_race(host, rival)
        answers = await asyncio.gather(host.request({"type": "race_again"}), rival.request({"type": "race_again"}))
        assert [answer["type"] for answer in answers] == ["room", "room"], answers
        assert answers[0]["room"]["code"] == answers[1]["room"]["code"]
    finally:
        await host.close()
        await rival.close()


async def test_race_again_from_the_wrong_state_is_refused_and_changes_nothing(arena: RunningArena) -> None:
    host = await connect_player(arena.url, "host")
    rival = await connect_player(arena.url, "rival")
    stranger = await connect_player(arena.url, "stranger")
    try:
        assert (await stranger.request({"type": "race_again"}))["code"] == "not_in_room"
        created = await host.request({"type": "create_room", "variant": "freecell"})
        refused = await host.request({"type": "race_again"})
        assert refused["code"] == "race_not_over" and created["room"]["code"] in refused["message"]
        state = await host.request({"type": "get_state"})
        assert state["room"]["code"] == created["room"]["code"] and state["room"]["next_code"] is None
        await host.request({"type": "leave_room"})
        code = await finished_race(host, rival)
        await host.request({"type": "race_again"})
        assert (await host.request({"type": "race_again"}))["code"] == "race_not_over"  # in the next lobby now
        await host.request({"type": "start_race"})
        late = await rival.request({"type": "race_again"})
        assert late["code"] == "room_started"
        assert (await rival.request({"type": "get_state"}))["room"]["code"] == code  # still where they were
    finally:
        for client in (host, rival, stranger):
            await client.close()


@pytest.fixture
async def quick_arena(database_url: str) -> AsyncIterator[RunningArena]:
    server = await start_arena(database_url, quick_race_min_players=2, quick_race_max_players=3, quick_race_wait_s=1)
    try:
        yield RunningArena(server, f"ws://127.0.0.1:{server.port}/", database_url)
    finally:
        await server.shutdown()


async def test_a_quick_race_fills_and_starts_by_itself_ranked_on_a_drawn_deal(quick_arena: RunningArena) -> None:
    clients = [await connect_player(quick_arena.url, name) for name in ("ada", "bob", "cy")]
    ada, bob, cy = clients
    try:
        first = await ada.request({"type": "quick_race", "variant": "freecell"})
        room = first["room"]
        assert room["quick"] and room["options"]["ranked"] and not room["host_chose_deal"] and room["status"] == "lobby"
        second = await bob.request({"type": "quick_race", "variant": "freecell"})
        assert second["room"]["code"] == room["code"]
        countdown = await ada.expect("countdown", code=room["code"])
        assert 0.5 < countdown["seconds"] <= 1
        for client in (ada, bob):
            started = await client.expect("race_started", code=room["code"], timeout=5)
            assert started["game"]["room_code"] == room["code"]
        stored = await quick_arena.server.store.room_by_code(room["code"])
        assert stored is not None and stored.status == "running" and stored.room.quick
        games = [await quick_arena.server.store.game(game_id) for game_id in stored.game_ids]
        assert len(games) == 2 and all(game is not None and game.game.ranked for game in games)
        later = await cy.request({"type": "quick_race", "variant": "freecell"})
        assert later["room"]["code"] != room["code"]  # a started race takes nobody: the next one fills
        assert await quick_arena.server.store.quick_room("freecell") == later["room"]["code"]
    finally:
        for client in clients:
            await client.close()


async def test_a_full_quick_race_starts_at_once_and_leaving_before_the_start_frees_the_seat(
    quick_arena: RunningArena,
) -> None:
    clients = [await connect_player(quick_arena.url, name) for name in ("ada", "bob", "cy", "dan")]
    ada, bob, cy, dan = clients
    try:
        code = (await ada.request({"type": "quick_race", "variant": "chinese-freecell"}))["room"]["code"]
        assert (await ada.request({"type": "leave_room"}))["type"] == "left_room"
        again = (await bob.request({"type": "quick_race", "variant": "chinese-freecell"}))["room"]["code"]
        assert again != code  # the lobby everyone left closed
        await cy.request({"type": "quick_race", "variant": "chinese-freecell"})
        await bob.expect("countdown", code=again)
        assert (await cy.request({"type": "leave_room"}))["type"] == "left_room"  # the seat is free again
        waiting = await bob.expect("room")
        while waiting["room"]["status"] != "lobby":  # the countdown's whole room came first
            waiting = await bob.expect("room")
        assert waiting["room"]["starts_at"] is None  # one player left: the countdown stopped, the room waits again
        stored = await quick_arena.server.store.room_by_code(again)
        assert stored is not None and stored.status == "lobby" and stored.started_at is None
        await dan.request({"type": "quick_race", "variant": "chinese-freecell"})
        await bob.expect("countdown", code=again)
        full = await ada.request({"type": "quick_race", "variant": "chinese-freecell"})
        assert full["room"]["code"] == again
        await bob.expect("countdown", code=again, seconds=0)  # full: it starts at once
        for client in (bob, dan, ada):
            await client.expect("race_started", code=again, timeout=5)
    finally:
        for client in clients:
            await client.close()


async def test_quick_race_from_the_wrong_state_is_refused_and_changes_nothing(quick_arena: RunningArena) -> None:
    ada = await connect_player(quick_arena.url, "ada")
    try:
        unknown = await ada.request({"type": "quick_race", "variant": "spider"})
        assert unknown["code"] == "unknown_variant"
        created = await ada.request({"type": "create_room", "variant": "freecell"})
        refused = await ada.request({"type": "quick_race", "variant": "freecell"})
        assert refused["code"] == "already_in_room"
        assert (await ada.request({"type": "get_state"}))["room"]["code"] == created["room"]["code"]
        assert await quick_arena.server.store.quick_room("freecell") is None
        await ada.request({"type": "leave_room"})
        quick = await ada.request({"type": "quick_race", "variant": "freecell"})
        assert (await ada.request({"type": "quick_race", "variant": "freecell"}))["code"] == "already_in_room"
        assert (await ada.request({"type": "start_race"}))["code"] == "not_host"
        assert (await ada.request({"type": "get_state"}))["room"]["status"] == "lobby" == quick["room"]["status"]
    finally:
        await ada.close()


async def test_a_next_room_everyone_left_is_replaced_on_the_next_press(arena: RunningArena) -> None:
    host = await connect_player(arena.url, "host")
    rival = await connect_player(arena.url, "rival")
    try:
        code = await finished_race(host, rival)
        gone = (await host.request({"type": "race_again"}))["room"]["code"]
        await host.request({"type": "leave_room"})  # the last one out closes the next lobby
        replaced = await rival.request({"type": "race_again"})
        assert replaced["type"] == "room" and replaced["room"]["code"] != gone
        assert replaced["room"]["series"]["race"] == 2
        stored = await arena.server.store.room_by_code(code)
        assert stored is not None and stored.next_code == replaced["room"]["code"]
    finally:
        await host.close()
        await rival.close()
