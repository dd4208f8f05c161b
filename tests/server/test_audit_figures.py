"""The audit of what players see (core/records/audit_figures.py), on SQLite and PostgreSQL: a real server fills a
database
with every stored figure the server derives (a daily's final ranks and the season tables through it, two players'
current ratings after a rated race, a race-again room's tally, a deal's par), the audit passes it, and each figure
changed by hand makes `freecell-arena audit` exit 1 with a line naming it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

import pytest
from arena_client import ArenaClient, connect_player
from arena_server import started_arena
from boards_helpers import ManualClock, play, winning_moves
from sqlalchemy import ColumnElement, Table, pool, select, update

from freecell_arena.commands import audit as audit_command
from freecell_arena.core.records import daily
from freecell_arena.store.engine import create_engine
from freecell_arena.store.models import Daily, DailyRank, DealPar, PlayerRating, Room, SeasonStanding, table_of

DAY = date(2026, 11, 22)
SECRET = "the audit's test secret, not a real one"


@dataclass
class Filled:
    database_url: str
    ada: str
    bea: str
    next_code: str


RACED_DEAL = 6
"""The deal the race draws: the solver's first moves put a card home beyond the opening (a race where nobody does
rates nobody)."""


async def race_of_two(host: ArenaClient, rival: ArenaClient, clock: ManualClock) -> str:
    """A ranked race on a deal the server draws (so it is rated): the host puts a card home, both resign; the
    room's code."""
    created = await host.request({"type": "create_room", "variant": "freecell", "options": {"countdown_s": 0}})
    code: str = created["room"]["code"]
    assert (await rival.request({"type": "join_room", "code": code}))["type"] == "room"
    assert (await host.request({"type": "start_race"}))["type"] == "countdown"
    for client in (host, rival):
        await client.expect("race_started", code=code)
    await play(host, winning_moves("freecell", RACED_DEAL)[:4], clock)
    for client in (host, rival):
        clock.advance(5)
        assert (await client.request({"type": "resign"}))["type"] == "game_over"
    for client in (host, rival):
        await client.expect("race_over", code=code)
    return code


@pytest.fixture
async def filled(database_url: str) -> Filled:
    clock = ManualClock(datetime(2026, 11, 21, 12, 0, tzinfo=UTC))  # the players exist before the day opens
    async with started_arena(database_url, clock, daily_variants="freecell", daily_secret=SECRET,
                             daily_finalize_delay_s=0) as server:  # fmt: skip
        url = f"ws://127.0.0.1:{server.port}/"
        server.arena.draw_seed = lambda low, high: RACED_DEAL
        ada, bea = await connect_player(url, "ada"), await connect_player(url, "bea")
        try:
            record = await asyncio.to_thread(daily.prepare_daily, SECRET.encode(), "freecell", DAY, clock.now(),
                                             max_nodes=50_000, budget_s=30, max_candidates=10)  # fmt: skip
            deal = await server.store.dailies.save(record)
            clock.set(datetime(2026, 11, 22, 12, 0, tzinfo=UTC))
            for player, pace in ((ada, 1.0), (bea, 2.0)):  # both win the day, bea more slowly: ranks 1 and 2
                assert (await player.request({"type": "play_daily", "variant": "freecell"}))["ranked"]
                assert (await play(player, deal.solution, clock, seconds_per_move=pace))["status"] == "won"
            code = await race_of_two(ada, bea, clock)
            following = await ada.request({"type": "race_again"})
            assert following["room"]["series"]["race"] == 2, following
            room = await server.store.room_by_code(code)
            assert room is not None
            async with asyncio.timeout(20):  # rated in the background once the finish is stored
                while not await server.store.ratings.changes_of(room.room.room_id):
                    await asyncio.sleep(0.05)
            assert (await server.pars.par_of("freecell", 1)).moves
            clock.set(datetime(2026, 11, 23, 0, 0, 1, tzinfo=UTC))
            assert await server.daily.finalize_closed_days() == [("freecell", DAY)]
            await server.writer.flush()
        finally:
            await ada.close()
            await bea.close()
    assert ada.player_id and bea.player_id
    return Filled(database_url, ada.player_id, bea.player_id, following["room"]["code"])


async def audit_exit(database_url: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    """`freecell-arena audit` as the command runs it (its own event loop, here in a thread): its exit code and the
    lines it printed."""
    capsys.readouterr()
    parser = audit_command.argparse.ArgumentParser()
    audit_command.add_arguments(parser)
    args = parser.parse_args(["--database-url", database_url, "--batch", "2"])
    code = await asyncio.to_thread(audit_command.run, args)
    return code, capsys.readouterr().out.splitlines()


@contextlib.asynccontextmanager
async def tampered(database_url: str, table: Table, where: ColumnElement[bool], **values: Any) -> AsyncIterator[None]:
    """One stored row changed by hand, put back exactly as it was afterwards."""
    engine = create_engine(database_url, poolclass=pool.NullPool)
    try:
        async with engine.begin() as connection:
            (original,) = (await connection.execute(select(*(table.c[name] for name in values)).where(where))).all()
            await connection.execute(update(table).where(where).values(**values))
        yield
        async with engine.begin() as connection:
            await connection.execute(update(table).where(where).values(**original._asdict()))
    finally:
        await engine.dispose()


async def test_every_figure_players_see_is_checked_against_its_recomputation(
    filled: Filled, capsys: pytest.CaptureFixture[str]
) -> None:
    url, ada, bea = filled.database_url, filled.ada, filled.bea
    code, lines = await audit_exit(url, capsys)
    assert (code, lines) == (0, []), lines

    ratings, ranks, seasons = table_of(PlayerRating), table_of(DailyRank), table_of(SeasonStanding)
    rooms, pars, dailies = table_of(Room), table_of(DealPar), table_of(Daily)
    engine = create_engine(url, poolclass=pool.NullPool)
    try:
        async with engine.connect() as connection:
            line = (await connection.execute(select(pars.c.line).where(pars.c.seed == 1))).scalar_one()
            series = (await connection.execute(select(rooms.c.series).where(rooms.c.code == filled.next_code))
                      ).scalar_one()  # fmt: skip
    finally:
        await engine.dispose()
    ada_wins_twice = {**series, "wins": [[player, name, 2 if player == ada else wins]
                                         for player, name, wins in series["wins"]]}  # fmt: skip
    day_of = (dailies.c.variant == "freecell", dailies.c.day == DAY)
    cases: list[tuple[Table, ColumnElement[bool], dict[str, Any], str]] = [
        (ratings, ratings.c.player_id == ada, {"mu": ratings.c.mu + 0.5}, f"rating freecell humans {ada}: stored mu="),
        (ratings, ratings.c.player_id == bea, {"races": 2}, f"rating freecell humans {bea}: stored"),
        (ratings, ratings.c.player_id == ada, {"ordinal": ratings.c.ordinal + 1},
         f"rating freecell humans {ada}: ordinal stored"),
        (ranks, ranks.c.player_id == ada, {"rank": 2}, f"daily freecell {DAY} humans: {ada} stored"),
        (ranks, ranks.c.player_id == bea, {"moves_over_par": 9}, f"daily freecell {DAY} humans: {bea} stored"),
        (seasons, (seasons.c.player_id == ada) & (seasons.c.days == 7), {"wins": 2},
         f"season freecell humans 7 days: {ada} stored"),
        (seasons, (seasons.c.player_id == bea) & (seasons.c.days == 30), {"average_rank": 1.5},
         f"season freecell humans 30 days: {bea} stored"),
        (rooms, rooms.c.code == filled.next_code, {"series": ada_wins_twice}, f"series room {filled.next_code}: "),
        (pars, pars.c.seed == 1, {"line": " ".join(line.split()[:-1])}, "par freecell 1: the stored line does not"),
        (dailies, day_of[0] & day_of[1], {"par": dailies.c.par - 1}, f"daily freecell {DAY}: its solution does not"),
        (dailies, day_of[0] & day_of[1], {"nonce": "0" * 64}, f"daily freecell {DAY}: its seed and nonce do not"),
    ]
    for table, where, values, expected in cases:
        async with tampered(url, table, where, **values):
            code, lines = await audit_exit(url, capsys)
        assert code == 1 and any(line.startswith(expected) for line in lines), (table.name, values, lines)
    assert await audit_exit(url, capsys) == (0, []), "every figure was put back"
