"""A race left unrated (its process died between storing the finish and rating it) is rated by the next server to
start, once, in the order the audit replays: real clients, real servers, a real database (SQLite and PostgreSQL).

The races are played on a real server; for a race "left unrated" that server's live rating is switched off just
for it (`RaceEndService.ended` drops it), which leaves the database exactly as a process killed right after
storing the finish would. The server that recovers it runs on a clock a few minutes later (a restart a while
after): a race finished within the last minute is its finisher's to rate, and the sweep leaves it alone.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from arena_client import ArenaClient, connect_player
from arena_server import start_arena
from boards_helpers import ManualClock
from test_ratings_live import race_won_by

from freecell_arena.commands.audit import audit
from freecell_arena.core.records.ratings import RatingChange
from freecell_arena.net.app import ArenaServer
from freecell_arena.store import SqlStore

LATER = timedelta(minutes=5)


@contextlib.asynccontextmanager
async def players(server: ArenaServer, *names: str) -> AsyncIterator[list[ArenaClient]]:
    clients = [await connect_player(f"ws://127.0.0.1:{server.port}/", name) for name in names]
    try:
        yield clients
    finally:
        for client in clients:
            await client.close()


async def rated_race(winner: ArenaClient, loser: ArenaClient) -> str:
    """A race rated live: both players are told their changes."""
    code, _ = await race_won_by(winner, loser)
    for client in (winner, loser):
        await client.expect("race_ratings", code=code)
    return code


async def race_left_unrated(server: ArenaServer, winner: ArenaClient, loser: ArenaClient,
                            monkeypatch: pytest.MonkeyPatch) -> str:  # fmt: skip
    """A race whose finish is stored and never rated (as if its process were killed right after the finish)."""
    with monkeypatch.context() as patch:
        patch.setattr(server.race_end, "ended", lambda end: None)
        code, _ = await race_won_by(winner, loser)
        for client in (winner, loser):
            await client.expect("race_over", code=code)
    await server.writer.flush()
    return code


async def changes_of(store: SqlStore, code: str) -> list[RatingChange]:
    room = await store.room_by_code(code)
    assert room is not None
    return await store.ratings.changes_of(room.room.room_id)


async def rated_by_now(store: SqlStore, code: str, timeout_s: float = 15.0) -> list[RatingChange]:
    async with asyncio.timeout(timeout_s):
        while not (changes := await changes_of(store, code)):
            await asyncio.sleep(0.05)
    return changes


def later_clock() -> ManualClock:
    return ManualClock(datetime.now(UTC) + LATER)


async def audit_mismatches(database_url: str, capsys: pytest.CaptureFixture[str]) -> tuple[list[str], int]:
    """The audit of the whole database: its report lines and how many rated races it recomputed."""
    capsys.readouterr()
    _, _, mismatches, _, races, _ = await audit(database_url, 100)
    lines = capsys.readouterr().out.splitlines()
    assert mismatches == len(lines)
    return lines, races


async def test_a_race_left_unrated_is_rated_at_the_next_start_after_the_races_rated_before(
    database_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    server = await start_arena(database_url)
    try:
        async with players(server, "Ann", "Ben") as (ann, ben):
            first = await rated_race(ann, ben)
            left = await race_left_unrated(server, ben, ann, monkeypatch)
            third = await rated_race(ann, ben)  # rated live after the left one finished
    finally:
        await server.shutdown()

    store = SqlStore(database_url)
    try:
        assert await changes_of(store, left) == []
        lines, _ = await audit_mismatches(database_url, capsys)
        assert lines == [f"rating race {left}: finished, rateable and never rated"]

        restarted = await start_arena(database_url, later_clock())
        try:
            changes = await rated_by_now(store, left)
            again = await restarted.rating_sweep.sweep()
            assert again is not None and again.complete and again.rated == [] and again.already_rated == 0
        finally:
            await restarted.shutdown()

        assert len(changes) == 2 and {change.after.races for change in changes} == {3}
        told_last = {change.player_id: change.after for change in await changes_of(store, third)}
        assert {change.player_id: change.before for change in changes} == told_last, (
            "a late race is rated from its players' ratings when it is rated: after the race rated before it")
        by_player = {change.player_id: change for change in changes}
        assert by_player[ben.player_id].delta > 0 > by_player[ann.player_id].delta, "Ben won the left race"
        assert len(await changes_of(store, first)) == 2 and len(await changes_of(store, third)) == 2
        current = await store.ratings.ratings_of(ann.player_id, by_player[ann.player_id].ladder, ["freecell"])
        assert current["freecell"] == by_player[ann.player_id].after

        lines, races = await audit_mismatches(database_url, capsys)
        assert (lines, races) == ([], 3), "the audit replays the late race where it was rated: no mismatch"
    finally:
        await store.close()


async def test_two_servers_sweeping_at_once_rate_each_race_left_unrated_once(
    database_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    server = await start_arena(database_url)
    try:
        async with players(server, "Cy", "Di", "Ed") as (cy, di, ed):
            await rated_race(cy, di)  # ratings are live
            left = [await race_left_unrated(server, winner, loser, monkeypatch)
                    for winner, loser in ((di, cy), (ed, di), (cy, ed), (di, ed))]  # fmt: skip
    finally:
        await server.shutdown()

    store = SqlStore(database_url)
    clock = later_clock()
    sweepers = await asyncio.gather(start_arena(database_url, clock), start_arena(database_url, clock))
    try:
        for code in left:
            await rated_by_now(store, code)
        reports = [await sweeper.rating_sweep.sweep() for sweeper in sweepers]
        assert all(report is not None and report.rated == [] for report in reports), "nothing is left to rate"
        for code in left:
            changes = await changes_of(store, code)
            assert len(changes) == 2 and len({change.player_id for change in changes}) == 2, (code, changes)
        for client in (cy, di, ed):
            ratings = await store.ratings.ratings_of(client.player_id, changes[0].ladder, ["freecell"])
            races_played = {cy.player_id: 3, di.player_id: 4, ed.player_id: 3}[client.player_id]
            assert ratings["freecell"].races == races_played, client.player_id
        lines, races = await audit_mismatches(database_url, capsys)
        assert (lines, races) == ([], 5)
    finally:
        for sweeper in sweepers:
            await sweeper.shutdown()
        await store.close()
