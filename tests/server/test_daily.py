"""The daily challenge end to end on a real server with a hand-driven clock (SQLite and PostgreSQL): deals
prepared in the worker, commitment published, one ranked attempt, the day rolling over, the reveal checked
from public data with SHA-256 alone, final ranks and the season table."""

from __future__ import annotations

import asyncio
import hashlib
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from arena_client import ArenaClient, connect_player
from arena_server import start_arena, started_arena
from boards_helpers import ManualClock, http_get, play, without_id
from serverprocess import server_env

from freecell_arena.core.records import daily
from freecell_arena.engine import Game, variant_by_id
from freecell_arena.net.app import ArenaServer
from freecell_arena.store import RecordRefusedError, SqlStore

DAY = date(2026, 11, 22)
NEXT_DAY = date(2026, 11, 23)
SECRET = "a test secret, not the production one"


@pytest.fixture
async def daily_arena(database_url: str) -> AsyncIterator[tuple[ArenaServer, ManualClock]]:
    clock = ManualClock(datetime(2026, 11, 22, 23, 0, tzinfo=UTC))
    async with started_arena(
        database_url, clock, daily_variants="freecell,cell-eleven", daily_secret=SECRET,
        daily_finalize_delay_s=0, daily_solver_nodes=50_000,
    ) as server:  # fmt: skip
        yield server, clock


async def test_a_day_from_commitment_to_reveal(daily_arena: tuple[ArenaServer, ManualClock]) -> None:
    server, clock = daily_arena
    url, port = f"ws://127.0.0.1:{server.port}/", server.port
    await server.daily.run_once()  # the background task's work: today and tomorrow, in the worker process
    status, published = await http_get(port, "/api/daily/freecell")
    assert status == 200 and [deal["day"] for deal in published["deals"]] == ["2026-11-23", "2026-11-22"]
    tomorrow, today = published["deals"]
    assert (tomorrow["status"], tomorrow["par"], tomorrow["seed"]) == ("upcoming", None, None)
    assert today["status"] == "open" and today["par"] > 0 and today["seed"] is None and today["nonce"] is None
    deal = await server.store.dailies.deal("freecell", DAY)  # the server's secret side, to play a real win
    assert deal is not None and deal.par == today["par"]

    clock.set(datetime(2026, 11, 21, 12, 0, tzinfo=UTC))  # identities older than the day's deal play it ranked
    ada, bea, bot, cyd = [await connect_player(url, name) for name in ("ada", "bea", "bot", "cyd")]
    await bot.close()
    bot = await ArenaClient.open(url)
    await bot.hello("bot", bot=True)
    clock.set(datetime(2026, 11, 22, 23, 0, tzinfo=UTC))
    newcomer = await connect_player(url, "newcomer")
    fresh = await newcomer.request({"type": "play_daily", "variant": "freecell"})
    assert fresh["ranked"] is False, "an identity made after the deal opened plays the day unranked"
    assert (await newcomer.request({"type": "resign"}))["type"] == "game_over"
    await newcomer.close()
    try:
        started = await ada.request({"type": "play_daily", "variant": "freecell"})
        assert started["type"] == "daily_started" and started["ranked"] is True, started
        assert started["game"]["seed"] is None and started["game"]["daily"] == "2026-11-22"
        assert started["par"] == deal.par and started["closes_at"].startswith("2026-11-23T00:00:00")
        again = await ada.request({"type": "play_daily", "variant": "freecell"})
        assert again["game"]["game_id"] == started["game"]["game_id"], "asking again returns the running game"
        won = await play(ada, deal.solution, clock)
        assert won["status"] == "won" and won["player_moves"] == deal.par
        ada_game = started["game"]["game_id"]

        replay = await ada.request({"type": "play_daily", "variant": "freecell"})
        assert replay["ranked"] is False and replay["game"]["game_id"] != ada_game, "later plays are unranked"
        clock.advance(1)
        assert (await ada.request({"type": "resign"}))["type"] == "game_over"

        by_bot = await bot.request({"type": "play_daily", "variant": "freecell"})
        assert by_bot["ranked"] is True
        await play(bot, deal.solution, clock, seconds_per_move=0.5)

        bea_game = (await bea.request({"type": "play_daily", "variant": "freecell"}))["game"]["game_id"]
        await play(bea, deal.solution[:2], clock)
        refused = await bea.request({"type": "create_room", "variant": "freecell"})
        assert refused["code"] == "game_in_progress", refused

        cell = await ada.request({"type": "play_daily", "variant": "cell-eleven"})
        assert cell["ranked"] is True and cell["game"]["seed"] is None, "the seed stays secret until the close"
        clock.advance(1)
        assert (await ada.request({"type": "resign"}))["outcome"] == "resigned"

        room = await cyd.request({"type": "create_room", "variant": "freecell", "options": {"countdown_s": 0}})
        assert room["room"]["options"]["ranked"] is True
        await cyd.request({"type": "start_race"})
        clock.advance(1)
        await cyd.expect("race_started")
        in_race = await cyd.request({"type": "play_daily", "variant": "freecell"})
        assert in_race["code"] == "already_in_room" and "leave it" in in_race["message"], in_race
        early = await cyd.request({"type": "get_replay", "game_id": ada_game})
        assert early["code"] == "replay_not_available", "no one sees a daily's moves before it closes"

        # the open day's boards: humans and bots apart, the same over HTTP and the websocket
        status, humans = await http_get(port, "/api/leaderboards/freecell/daily/2026-11-22")
        assert status == 200 and humans["seed"] is None and humans["par"] == deal.par and humans["total"] == 1
        assert [(row["rank"], row["name"], row["player_moves"]) for row in humans["entries"]] == [(1, "ada", deal.par)]
        over_ws = await cyd.request({"type": "get_leaderboard", "variant": "freecell", "board": "daily"})
        assert without_id(over_ws) == without_id(humans)
        _, bots = await http_get(port, "/api/leaderboards/freecell/daily/2026-11-22?bots=true")
        assert [row["name"] for row in bots["entries"]] == ["bot"]
        _, history = await http_get(port, f"/api/players/{ada.player_id}/history")
        assert [(game["variant"], game["ranked"], game["seed"]) for game in history["games"]] == [
            ("cell-eleven", True, None), ("freecell", False, None), ("freecell", True, None)
        ]  # fmt: skip
        await bea.close()  # leaving does not stop the clock; the close of the day ends the game

        # midnight: running games end as timeout, the seed is revealed, the day's ranks are final
        clock.set(datetime(2026, 11, 23, 0, 0, 1, tzinfo=UTC))
        async with asyncio.timeout(10):
            while (stored := await server.store.game(bea_game)) is None or stored.result is None:
                await asyncio.sleep(0.05)
        assert stored.result.outcome == "timeout" and stored.result.finished_at == daily.closes_at(DAY)
        await server.daily.run_once()
        status, revealed = await http_get(port, "/api/daily/freecell/2026-11-22")
        assert status == 200
        (closed,) = revealed["deals"]
        assert closed["status"] == "closed" and closed["commitment"] == today["commitment"]
        hashed = f"freecell-arena/daily/v1|freecell|2026-11-22|{closed['seed']}|{closed['nonce']}"
        assert hashlib.sha256(hashed.encode()).hexdigest() == today["commitment"], "commit-reveal holds"
        game = Game.replay(variant_by_id("freecell"), int(closed["seed"]), closed["solution"], autoplay=True)
        assert game.board.is_won() and game.player_moves == closed["par"], "the par is a real solution"

        _, season = await http_get(port, "/api/leaderboards/freecell/season?days=7")
        assert season["through"] == "2026-11-22"
        assert [(s["name"], s["rank"], s["wins"], s["moves_over_par"], s["average_rank"])
                for s in season["standings"]] == [("ada", 1, 1, 0, 1.0)]  # fmt: skip
        _, bot_season = await http_get(port, "/api/leaderboards/freecell/season?days=30&bots=true")
        assert [s["name"] for s in bot_season["standings"]] == ["bot"]
        _, final = await http_get(port, "/api/leaderboards/freecell/daily/2026-11-22")
        assert final["seed"] == closed["seed"]
        public = await cyd.request({"type": "get_replay", "game_id": ada_game})
        assert public["type"] == "replay" and public["seed"] == closed["seed"], "closed days' replays are public"
        _, history = await http_get(port, f"/api/players/{ada.player_id}/history")
        assert history["games"][0]["seed"] is not None, "the closed day's seeds are public in histories too"

        next_day = await ada.request({"type": "play_daily", "variant": "freecell"})
        assert next_day["day"] == "2026-11-23" and next_day["ranked"] is True
        assert await server.daily.finalize_closed_days() == [], "a day is closed once"
    finally:
        for client in (ada, bot, cyd):
            await client.close()


async def prepared(store: SqlStore, day: date) -> daily.DailyRecord:
    record = daily.prepare_daily(SECRET.encode(), "freecell", day, datetime.now(UTC), max_nodes=50_000,
                                 budget_s=30, max_candidates=10)  # fmt: skip
    return await store.dailies.save(record)


async def test_without_a_prepared_deal_nobody_waits(daily_arena: tuple[ArenaServer, ManualClock]) -> None:
    server, _clock = daily_arena
    client = await connect_player(f"ws://127.0.0.1:{server.port}/", "eve")
    try:
        refused = await client.request({"type": "play_daily", "variant": "freecell"})
        assert refused["code"] == "daily_not_ready", refused
        not_offered = await client.request({"type": "play_daily", "variant": "freecell-four-deck"})
        assert not_offered["code"] == "unknown_daily" and "no daily" in not_offered["message"], not_offered
        status, body = await http_get(server.port, "/api/leaderboards/freecell/daily")
        assert status == 404 and body["code"] == "unknown_daily"
        assert (await http_get(server.port, "/api/daily/freecell"))[1]["deals"] == []
    finally:
        await client.close()


async def test_one_ranked_attempt_whichever_process_serves_the_player(database_url: str) -> None:
    """Two servers on one database (as two processes would be): the second knows of the first's attempt."""
    clock = ManualClock(datetime(2026, 11, 21, 9, 0, tzinfo=UTC))
    first = await start_arena(database_url, clock, daily_secret=SECRET)
    second = await start_arena(database_url, clock, daily_secret=SECRET)
    try:
        ada = await connect_player(f"ws://127.0.0.1:{first.port}/", "ada")  # a day before the deal opens
        clock.set(datetime(2026, 11, 22, 9, 0, tzinfo=UTC))
        deal = await prepared(first.store, DAY)  # type: ignore[arg-type]
        assert await prepared(second.store, DAY) == deal, "insert-if-absent: the first deal stored is the deal"
        started = await ada.request({"type": "play_daily", "variant": "freecell"})
        assert started["ranked"] is True
        assert (await ada.request({"type": "resign"}))["outcome"] == "resigned"
        await ada.close()
        elsewhere = await ArenaClient.open(f"ws://127.0.0.1:{second.port}/")
        await elsewhere.hello("ada", token=ada.token)
        again = await elsewhere.request({"type": "play_daily", "variant": "freecell"})
        assert again["type"] == "daily_started" and again["ranked"] is False, again
        await elsewhere.close()
        stored = await first.store.game(started["game"]["game_id"])  # type: ignore[attr-defined]
        assert stored is not None
        with pytest.raises(RecordRefusedError):  # the database itself refuses a second ranked attempt
            await first.store.write([replace(stored.game, game_id="g_second_ranked_try")])
        await first.store.write([replace(stored.game, game_id="g_unranked_try", ranked=False, board=None)])
    finally:
        await first.shutdown()
        await second.shutdown()


def test_the_prepare_command_publishes_commitments_never_seeds(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'arena.db'}"
    env = server_env(FREECELL_ARENA_DAILY_SECRET=SECRET, FREECELL_ARENA_DAILY_SOLVER_NODES="50000")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "freecell_arena", *args]
        return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)

    unmigrated = run("audit", "--database-url", url)
    assert unmigrated.returncode == 2 and "freecell-arena migrate" in unmigrated.stderr, unmigrated.stderr
    assert run("migrate", "--database-url", url).returncode == 0
    before = datetime.now(UTC).date()
    first = run("daily", "prepare", "--days", "2", "--variant", "freecell", "--database-url", url)
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    today = date.fromisoformat(lines[0].split(":")[0].removeprefix("freecell "))
    assert today in (before, datetime.now(UTC).date()), "today, UTC (whichever side of a midnight the run was)"
    assert [line.split(":")[0] for line in lines] == [f"freecell {today}", f"freecell {today + timedelta(days=1)}"]
    expected = daily.prepare_daily(SECRET.encode(), "freecell", today, datetime.now(UTC), max_nodes=50_000,
                                   budget_s=30, max_candidates=50)  # fmt: skip
    assert f"commitment {expected.commitment}" in lines[0] and str(expected.seed) not in first.stdout
    again = run("daily", "prepare", "--days", "1", "--variant", "freecell", "--database-url", url)
    assert again.stdout.splitlines() == lines[:1], "a stored deal is kept, never recomputed or replaced"
    assert run("daily", "prepare", "--days", "0", "--database-url", url).returncode == 2
