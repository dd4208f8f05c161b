"""Sanctions reach tournament tables (issues 31 and 32 joined), over real servers, the real `mod` and `audit`
commands and a real database: a void takes a game's points out of a finished arena's stored table in the
sanction's own transaction (no director tends a finished one), a mark takes a person out of a humans' table, each
lift gives back exactly what was there, the audit recomputes the table with the sanctions in force and catches one
edited by hand; a ban withdraws the entrant on every process (never paired) until it is lifted."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from typing import Any

from arena_client import ArenaClient, connect_player
from arena_server import started_arena
from boards_helpers import ManualClock, play, winning_moves
from moderation_support import audit, mod, sql

from freecell_arena.core.competition.tournaments.schedule import tournament_record
from freecell_arena.core.records.tournaments.rules import TournamentRules
from freecell_arena.net.app import ArenaServer

START = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
ARENA = TournamentRules(kind="arena", variant="freecell", time_limit_s=300, ranked=True, race_size=2, cap=10,
                        duration_s=600, late_entry_s=60, berserk=False)  # fmt: skip


async def create(server: ArenaServer) -> str:
    record = tournament_record("Moderated Arena", ARENA, START + timedelta(minutes=1), server.clock.now(), b"secret")
    await server.store.write([record])
    return record.tournament_id


async def eventually(check: Any, what: str) -> Any:
    for _ in range(200):
        if found := await check():
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"{what} never happened")


async def table(database_url: str, tournament_id: str) -> tuple[dict[str, dict[str, Any]], int, bool]:
    """The stored table by player, its sequence number and whether it is final, as the database has them."""
    ((standings, seq, final),) = await sql(database_url, "SELECT standings, standings_seq, final FROM tournaments "
                                                         "WHERE id = :id", id=tournament_id)  # fmt: skip
    rows = json.loads(standings) if isinstance(standings, str) else standings or []
    return {row["player_id"]: row for row in rows}, int(seq), bool(final)


async def enter(*players: ArenaClient, tournament_id: str) -> None:
    for player in players:
        reply = await player.request({"type": "enter_tournament", "tournament_id": tournament_id})
        assert reply["status"] == "active", reply


async def test_void_mark_and_lift_reach_a_finished_arenas_table_and_the_audit_replays_them(database_url: str) -> None:
    url = database_url
    clock = ManualClock(START)
    async with started_arena(database_url, clock, tournament_interval_s=0.02) as server:
        arena = await create(server)
        ada, bob = [await connect_player(f"ws://127.0.0.1:{server.port}/", name) for name in ("ada", "bob")]
        await enter(ada, bob, tournament_id=arena)
        clock.advance(61)
        code = (await ada.expect("tournament_race", tournament_id=arena))["code"]
        clock.advance(10)
        game = (await ada.expect("race_started", code=code))["game"]
        await bob.expect("race_started", code=code)
        assert (await bob.request({"type": "resign"}))["type"] == "game_over"
        assert (await play(ada, winning_moves("freecell", int(game["seed"])), clock, 2.0))["status"] == "won"
        clock.advance(ARENA.duration_s)  # past the end: the only race is over, the table is final

        async def final() -> Any:
            rows, _, done = await table(url, arena)
            return rows if done else None

        before = await eventually(final, "the final table")
        assert before[ada.player_id or ""]["points"] == 2 and before[bob.player_id or ""]["points"] == 0
        for client in (ada, bob):
            await client.close()
    assert (await audit(url))[0] == 0
    ada_id, bob_id = ada.player_id or "", bob.player_id or ""
    ((won,),) = await sql(url, "SELECT g.id FROM games g JOIN rooms r ON r.id = g.room_id WHERE r.code = :code "
                               "AND g.player_id = :player", code=code, player=ada_id)  # fmt: skip

    status, out, err = await mod(url, "void", won, "--reason", "a bug gave this win")
    assert status == 0, err
    void_number = number(out)
    voided, seq, _ = await table(url, arena)
    assert voided[ada_id]["points"] == 0 and voided[ada_id]["solved"] == 0 and voided[ada_id]["wins"] == 0, (
        "a void game scores nothing in its tournament")
    assert voided[ada_id]["races"] == 1 and voided[bob_id]["points"] == 0
    status, out, err = await audit(url)
    assert status == 0, out + err

    edited = [{**row, "points": 2, "solved": 1, "wins": 1} if row["player_id"] == ada_id else row
              for row in before.values()]  # the voided points put back by hand
    await sql(url, "UPDATE tournaments SET standings = :rows WHERE id = :id", rows=json.dumps(edited), id=arena)
    status, out, _ = await audit(url)
    assert status == 1 and f"tournament {arena}: {ada_id} stored points=2, the results give 0" in out, out
    await sql(url, "UPDATE tournaments SET standings = :rows WHERE id = :id", rows=json.dumps(list(voided.values())),
              id=arena)  # fmt: skip

    assert (await mod(url, "lift", void_number, "--reason", "it was fine"))[0] == 0
    lifted, lifted_seq, _ = await table(url, arena)
    assert lifted == before and lifted_seq == seq + 1, "the lift gives back exactly what was there"
    assert (await audit(url))[0] == 0

    status, mark, err = await mod(url, "mark", ada_id, "--reason", "paces itself like a program")
    assert status == 0, err
    marked, _, _ = await table(url, arena)
    assert set(marked) == {bob_id}, "a marked person leaves a humans' table"
    assert marked[bob_id]["rank"] == 1
    status, out, err = await audit(url)
    assert status == 0, out + err
    assert (await mod(url, "lift", number(mark), "--reason", "appeal upheld"))[0] == 0
    assert (await table(url, arena))[0] == before
    assert (await audit(url))[0] == 0


def number(out: str) -> str:
    """The sanction's number in the mod log, as `freecell-arena mod` prints it (`#12 ...`)."""
    return out.split()[0].lstrip("#")


async def test_a_ban_withdraws_the_entrant_on_every_process_until_it_is_lifted(database_url: str) -> None:
    """Two processes on one database: ada on the first, bob on the second, both entered. Bob is banned before the
    start: no process pairs him (ada is not raced alone), every table shows him withdrawn; the lift puts him back
    and the next pairing takes them both."""
    clock = ManualClock(START)
    async with (started_arena(database_url, clock, tournament_interval_s=0.02) as first,
                started_arena(database_url, clock, tournament_interval_s=0.02) as second):  # fmt: skip
        arena = await create(first)
        ada = await connect_player(f"ws://127.0.0.1:{first.port}/", "ada")
        bob = await connect_player(f"ws://127.0.0.1:{second.port}/", "bob")
        await enter(ada, bob, tournament_id=arena)
        bob_id = bob.player_id or ""
        status, ban, err = await mod(database_url, "ban", bob_id, "--reason", "abuse in chat", "--public-reason",
                                     "abusive behaviour")  # fmt: skip
        assert status == 0, err

        clock.advance(61)

        async def withdrawn() -> bool:
            rows, _, _ = await table(database_url, arena)
            return rows.get(bob_id, {}).get("status") == "withdrawn"

        await eventually(withdrawn, "bob withdrawn in the stored table")
        for _ in range(40):  # both directors work many times over
            await asyncio.sleep(0.05)
            assert not await sql(database_url, "SELECT room_id FROM tournament_races WHERE tournament_id = :id",
                                 id=arena), "a banned entrant was paired"  # fmt: skip
        view = await ada.request({"type": "get_tournament", "tournament_id": arena})
        assert {row["player_id"]: row["status"] for row in view["standings"]}[bob_id] == "withdrawn", view

        assert (await mod(database_url, "lift", number(ban), "--reason", "appeal upheld"))[0] == 0

        async def paired() -> list[Any]:
            return await sql(database_url, "SELECT room_id FROM tournament_races WHERE tournament_id = :id", id=arena)

        await eventually(paired, "a pairing once the ban is lifted")
        rows, _, _ = await table(database_url, arena)
        assert rows[bob_id]["status"] == "active"
        await ada.close()
