"""Tournaments over a real server and database, the clock moved by the test: two players entered in a public arena
are paired into one ordinary room; every bad request is a clear error that changes nothing stored."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from typing import Any

from arena_client import ArenaClient, connect_player
from arena_server import started_arena
from boards_helpers import ManualClock

from freecell_arena.core.accounts.account_ports import AccountRecord
from freecell_arena.core.competition.tournaments.schedule import tournament_record
from freecell_arena.core.records.tournaments.rules import TournamentRules
from freecell_arena.net.app import ArenaServer

START = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
ARENA = TournamentRules(kind="arena", variant="freecell", time_limit_s=300, ranked=True, race_size=2, cap=2,
                        duration_s=1800, late_entry_s=600, berserk=True)  # fmt: skip


async def create(server: ArenaServer, rules: TournamentRules, starts_at: datetime) -> str:
    record = tournament_record("Evening Arena", rules, starts_at, server.clock.now(), b"secret")
    await server.store.write([record])
    return record.tournament_id


async def stored_rows(server: ArenaServer, tournament_id: str) -> Any:
    snapshot = await server.store.tournaments.snapshot(tournament_id)
    assert snapshot is not None
    return snapshot.stored.entrants, snapshot.stored.wave, dict(snapshot.entries), snapshot.races


async def refused(client: ArenaClient, message: dict[str, Any], code: str) -> str:
    reply = await client.request(message)
    assert reply["type"] == "error" and reply["code"] == code, reply
    assert reply["message"]
    return str(reply["message"])


async def test_bad_tournament_requests_are_clear_errors_that_change_nothing(database_url: str) -> None:
    clock = ManualClock(START)
    async with started_arena(database_url, clock, tournament_interval_s=0.02) as server:
        url = f"ws://127.0.0.1:{server.port}/"
        arena = await create(server, ARENA, START + timedelta(minutes=5))
        bots_only = await create(server, TournamentRules(kind="arena", variant="freecell", time_limit_s=300,
                                                         ranked=True, entry="bots"), START)  # fmt: skip
        ada, bob, cy = [await connect_player(url, name) for name in ("ada", "bob", "cy")]
        enter = {"type": "enter_tournament", "tournament_id": arena}
        assert (await ada.request(enter))["type"] == "tournament_entry"
        before = await stored_rows(server, arena)
        assert "already in" in await refused(ada, enter, "already_entered")
        await refused(ada, {"type": "enter_tournament", "tournament_id": "t_nope"}, "unknown_tournament")
        await refused(ada, {"type": "enter_tournament", "tournament_id": bots_only}, "bots_only")
        await refused(ada, {"type": "berserk", "tournament_id": arena}, "berserk_refused")
        await refused(cy, {"type": "withdraw_tournament", "tournament_id": arena}, "not_entered")
        assert await stored_rows(server, arena) == before
        assert (await bob.request(enter))["type"] == "tournament_entry"
        assert "full (2 entrants)" in await refused(cy, enter, "tournament_full")

        clock.advance(5 * 60 + 1)  # the arena starts: ada and bob are free, and paired into one ordinary room
        formed = await ada.expect("tournament_race", tournament_id=arena)
        assert (await bob.expect("tournament_race", tournament_id=arena))["code"] == formed["code"]
        await ada.expect("countdown", code=formed["code"])
        assert (await ada.request({"type": "berserk", "tournament_id": arena}))["berserk"] is True
        await refused(ada, {"type": "berserk", "tournament_id": arena}, "berserk_refused")  # twice
        clock.advance(10)  # the countdown ends: the race begins
        await ada.expect("race_started", code=formed["code"])
        before = await stored_rows(server, arena)
        assert "has begun" in await refused(bob, {"type": "berserk", "tournament_id": arena}, "berserk_refused")
        assert await stored_rows(server, arena) == before
        view = await ada.request({"type": "get_tournament", "tournament_id": arena})
        assert view["current_race"] == formed["code"] and view["entered"] and len(view["standings"]) == 2

        clock.advance(11 * 60)  # past the late-entry cutoff
        await refused(cy, enter, "entry_closed")
        clock.advance(30 * 60)  # past the end: the race ran out of time, the arena is over
        for _ in range(200):
            listing = await cy.request({"type": "get_tournaments"})
            if any(item["tournament_id"] == arena for item in listing["finished"]):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the arena never finished")
        before = await stored_rows(server, arena)
        await refused(ada, {"type": "withdraw_tournament", "tournament_id": arena}, "tournament_over")
        await refused(bob, {"type": "pause_tournament", "tournament_id": arena}, "tournament_over")
        assert await stored_rows(server, arena) == before
        for client in (ada, bob, cy):
            await client.close()


CUP = TournamentRules(kind="cup", variant="freecell", time_limit_s=60, ranked=True, rounds=2, round_interval_s=120,
                      heat_size=16)  # fmt: skip


async def eventually(check: Any, what: str) -> Any:
    """Poll `check` (an awaitable factory) until it returns something true: the director works at its own pace."""
    for _ in range(200):
        found = await check()
        if found:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"{what} never happened")


async def race_a_cup_round(clock: ManualClock, players: list[ArenaClient], tournament_id: str) -> str:
    """The round's heat is seated before its instant, deals at it, and both resign: its code. Every frame of it,
    and every read of it while the cup runs, keeps the seed on the server."""
    clock.advance(CUP.round_interval_s if clock.now() > START + timedelta(minutes=1) else 55)
    formed = [await player.expect("tournament_race", tournament_id=tournament_id) for player in players]
    code = formed[0]["code"]
    assert {item["code"] for item in formed} == {code}
    for player in players:
        await player.expect("countdown", code=code)
        assert (await player.request({"type": "get_state"}))["room"]["seed"] is None
    clock.advance(10)
    for player in players:
        assert (await player.expect("race_started", code=code))["game"]["seed"] is None
        state = await player.request({"type": "get_state"})
        assert state["room"]["seed"] is None and state["game"]["seed"] is None
        if player is players[0]:  # a move the others must never see (only its counts, in progress)
            assert (await player.request({"type": "move", "move": "1a"}))["type"] == "move_accepted"
        assert (await player.request({"type": "resign"}))["type"] == "game_over"
    for player in players:
        assert (await player.expect("race_over", code=code))["seed"] is None
    return str(code)


async def test_a_cups_seeds_leave_the_server_only_once_the_cup_is_over(database_url: str) -> None:
    """A cup's deals are committed and revealed at the end, as a daily's: no frame of a heat carries its seed, and
    replays, reviews and histories of its games keep it until the cup is over; then all of them show it."""
    clock = ManualClock(START)
    async with started_arena(database_url, clock, tournament_interval_s=0.02) as server:
        url = f"ws://127.0.0.1:{server.port}/"
        cup = await create(server, CUP, START + timedelta(minutes=1))
        ada, bob = [await connect_player(url, name) for name in ("ada", "bob")]
        for player in (ada, bob):
            assert (await player.request({"type": "enter_tournament", "tournament_id": cup}))["type"] == (
                "tournament_entry")
        first = await race_a_cup_round(clock, [ada, bob], cup)
        history = await ada.request({"type": "get_history"})
        mine = history["games"][0]
        assert mine["seed"] is None
        await refused(ada, {"type": "get_replay", "game_id": mine["game_id"]}, "replay_not_available")
        await refused(bob, {"type": "get_replay", "game_id": mine["game_id"]}, "replay_not_available")
        await refused(ada, {"type": "get_review", "code": first}, "race_not_over")
        view = await ada.request({"type": "get_tournament", "tournament_id": cup})
        assert view["deals"] is None and view["nonce"] is None and view["commitment"]
        await race_a_cup_round(clock, [ada, bob], cup)

        sent_while_running = {client: list(client.raw) for client in (ada, bob)}
        clock.advance(CUP.time_limit_s + 1)  # the last round's time is up: the cup is over, its deals revealed

        async def revealed() -> Any:
            view = await ada.request({"type": "get_tournament", "tournament_id": cup})
            return view if view["tournament"]["phase"] == "finished" else None

        view = await eventually(revealed, "the cup's end")
        deals = view["deals"]
        assert len(deals) == 2 and all(isinstance(seed, str) for seed in deals)
        for frames in sent_while_running.values():  # not one frame carried a deal while the cup ran
            assert not [frame for frame in frames for seed in deals if f'"{seed}"' in frame or f":{seed}" in frame]
        ada_games = {frame["game_id"] for frame in map(json.loads, sent_while_running[ada])
                     if frame.get("type") == "move_accepted"}  # fmt: skip
        assert ada_games and not [frame for frame in sent_while_running[bob]
                                  if '"move_accepted"' in frame and any(game in frame for game in ada_games)]
        replay = await bob.request({"type": "get_replay", "game_id": mine["game_id"]})
        assert replay["type"] == "replay" and replay["seed"] == deals[0]
        assert (await ada.request({"type": "get_history"}))["games"][-1]["seed"] == deals[0]
        assert (await ada.request({"type": "get_review", "code": first}))["seed"] == deals[0]
        for client in (ada, bob):
            await client.close()


async def test_an_entrant_seated_in_a_room_on_another_process_is_not_paired(database_url: str) -> None:
    """Two processes on one database: ada waits in a friend's lobby on the first, bob is free on the second. The
    second process does not hold ada, but the store seats her: nobody pairs her until she leaves that lobby."""
    clock = ManualClock(START)
    async with (started_arena(database_url, clock, tournament_interval_s=0.02) as first,
                started_arena(database_url, clock, tournament_interval_s=0.02) as second):  # fmt: skip
        arena = await create(first, ARENA, START + timedelta(minutes=5))
        ada = await connect_player(f"ws://127.0.0.1:{first.port}/", "ada")
        bob = await connect_player(f"ws://127.0.0.1:{second.port}/", "bob")
        enter = {"type": "enter_tournament", "tournament_id": arena}
        for player in (ada, bob):
            assert (await player.request(enter))["type"] == "tournament_entry"
        assert (await ada.request({"type": "create_room", "variant": "freecell"}))["type"] == "room"

        clock.advance(5 * 60 + 1)  # the arena runs: bob is free, ada is in her lobby (which only `first` holds)
        for _ in range(40):  # both directors work many times over
            await asyncio.sleep(0.05)
            assert not (await stored_rows(first, arena))[3], "ada was paired out of her lobby"
        assert (await ada.request({"type": "leave_room"}))["type"] == "left_room"
        await eventually(lambda: _paired(first, arena), "a pairing once ada left her lobby")
        for client in (ada, bob):
            await client.close()


async def _paired(server: ArenaServer, tournament_id: str) -> Any:
    return (await stored_rows(server, tournament_id))[3]


async def test_a_saved_player_creates_a_private_tournament_friends_enter_by_its_link(database_url: str) -> None:
    """Only a saved player creates one, a few a day; it is not listed; entering needs its link (the creator gets
    it, nobody else); on a chosen deal it is never rated. Every refusal is clear and changes nothing."""
    clock = ManualClock(START)
    async with started_arena(database_url, clock, tournament_interval_s=0.02) as server:
        url = f"ws://127.0.0.1:{server.port}/"
        ada, bob, cy = [await connect_player(url, name) for name in ("ada", "bob", "cy")]
        create_one = {"type": "create_tournament", "name": "Friday friends", "starts_in_s": 600, "race_size": 2,
                      "cap": 2, "ranked": True}  # fmt: skip
        await refused(bob, create_one, "not_saved")
        await server.store.accounts.write_accounts([AccountRecord(ada.player_id or "", "handle-of-ada", START)])
        created = await ada.request(create_one)
        assert created["type"] == "tournament", created
        tournament_id, link = created["tournament"]["tournament_id"], created["link_code"]
        assert link and created["tournament"]["private"] and created["tournament"]["entry"] == "link"
        assert created["tournament"]["ranked"] is True

        listing = await bob.request({"type": "get_tournaments"})
        assert tournament_id not in {item["tournament_id"] for phase in ("upcoming", "running", "finished")
                                     for item in listing[phase]}  # fmt: skip
        seen = await bob.request({"type": "get_tournament", "tournament_id": tournament_id})
        assert seen["link_code"] is None  # only its creator is shown the link
        enter = {"type": "enter_tournament", "tournament_id": tournament_id}
        before = await stored_rows(server, tournament_id)
        assert "by its link" in await refused(bob, enter, "entry_closed")
        await refused(bob, {**enter, "link_code": "not-the-link"}, "entry_closed")
        assert await stored_rows(server, tournament_id) == before
        assert (await bob.request({**enter, "link_code": link}))["status"] == "active"
        assert (await ada.request(enter))["status"] == "active"  # its creator needs no link
        await refused(cy, {**enter, "link_code": link}, "tournament_full")

        chosen = await ada.request({**create_one, "name": "One deal", "seed": "1234"})
        assert chosen["tournament"]["ranked"] is False and chosen["rules"]["chosen_deal"] is True
        for index in range(3):
            assert (await ada.request({**create_one, "name": f"More {index}"}))["type"] == "tournament"
        before_limit = await server.store.tournaments.created_since(ada.player_id or "", START - timedelta(days=1))
        assert "a day" in await refused(ada, {**create_one, "name": "One too many"}, "rate_limited")
        assert await server.store.tournaments.created_since(ada.player_id or "", START - timedelta(days=1)) == (
            before_limit)
        for client in (ada, bob, cy):
            await client.close()


async def test_leaving_a_race_forfeits_that_race_only(database_url: str) -> None:
    """Ada plays a move, then leaves her tournament race: that race is lost (no points), she stays entered, and
    the next pairing takes her again with bob."""
    clock = ManualClock(START)
    async with started_arena(database_url, clock, tournament_interval_s=0.02) as server:
        url = f"ws://127.0.0.1:{server.port}/"
        arena = await create(server, ARENA, START + timedelta(minutes=1))
        ada, bob = [await connect_player(url, name) for name in ("ada", "bob")]
        for player in (ada, bob):
            assert (await player.request({"type": "enter_tournament", "tournament_id": arena}))["status"] == "active"
        clock.advance(61)
        formed = await ada.expect("tournament_race", tournament_id=arena)
        assert (await bob.expect("tournament_race", tournament_id=arena))["code"] == formed["code"]
        clock.advance(10)
        for player in (ada, bob):
            await player.expect("race_started", code=formed["code"])
        assert (await ada.request({"type": "move", "move": "1a"}))["type"] == "move_accepted"
        assert (await ada.request({"type": "leave_room"}))["type"] == "left_room"
        assert (await bob.request({"type": "move", "move": "1a"}))["type"] == "move_accepted"  # not gone away
        assert (await bob.request({"type": "resign"}))["type"] == "game_over"

        again = await ada.expect("tournament_race", tournament_id=arena)  # still entered, paired again
        assert again["code"] != formed["code"]
        assert (await bob.expect("tournament_race", tournament_id=arena))["code"] == again["code"]
        view = await ada.request({"type": "get_tournament", "tournament_id": arena})
        assert view["me"]["status"] == "active" and view["me"]["races"] == 1 and view["me"]["points"] == 0
        for client in (ada, bob):
            await client.close()


async def test_players_entering_at_once_are_all_entered(database_url: str) -> None:
    """Twenty players press "enter" together, while the director reads the tournament every few milliseconds: each
    is entered (no `storage_failed` from an entrant counted over a read taken while another entry was being
    stored), the stored count is exact, and a twenty-first is told the arena is full."""
    clock = ManualClock(START)
    async with started_arena(database_url, clock, tournament_interval_s=0.002) as server:
        url = f"ws://127.0.0.1:{server.port}/"
        rules = TournamentRules(kind="arena", variant="freecell", time_limit_s=300, ranked=True, race_size=4, cap=20,
                                duration_s=1800, late_entry_s=600)  # fmt: skip
        players = [await connect_player(url, f"p{index}") for index in range(21)]
        for round_index in range(3):
            arena = await create(server, rules, START + timedelta(minutes=5 + round_index))
            enter = {"type": "enter_tournament", "tournament_id": arena}
            replies = await asyncio.gather(*(player.request(enter) for player in players[:20]))
            assert [reply["type"] for reply in replies] == ["tournament_entry"] * 20, replies
            entrants, _, entries, _ = await stored_rows(server, arena)
            assert entrants == 20 and len(entries) == 20
            await refused(players[20], enter, "tournament_full")
        for player in players:
            await player.close()
