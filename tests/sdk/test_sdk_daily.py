"""The SDK and the bot runner on the daily challenge and the leaderboards, against a real server whose clock the
test holds (so the day cannot roll over under it): a solver bot plays today's deal ranked and lands on the bots'
board, a second attempt is unranked, the queries answer through the typed client, and a dropped connection in the
middle of the daily resumes the same ranked game instead of starting another."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from freecell_arena.net.app import ArenaServer
from freecell_arena.settings import Settings
from freecell_arena.store import GroupCommitWriter, SqlStore
from freecell_arena_client import ArenaClient, ArenaError, BotRunner, RunConfig, run_bot
from freecell_arena_client.bots import SolverBot
from freecell_arena_client.cli import build_parser, config_from
from freecell_arena_client.tokens import TokenFile

from .support import Arena
from .test_sdk_reconnect import PausingSolverBot

TODAY = date(2026, 11, 22)


NOON = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


class FixedClock:
    """Noon of the test's day, whatever the wall clock says (the daily stays open); `yesterday()` moves it back
    for a moment, for identities that must exist before the day's deal opened to play it ranked."""

    def __init__(self) -> None:
        self.instant = NOON

    def now(self) -> datetime:
        return self.instant


CLOCK = FixedClock()


async def identity_from_yesterday(url: str, token_file: Path, name: str) -> str:
    """Make the bot's identity the day before (a same-day identity plays the daily unranked) and keep its token
    where the runner looks for it; return its player id."""
    CLOCK.instant = NOON - timedelta(days=1)
    try:
        async with await ArenaClient.connect(url, name=name, bot=True) as client:
            assert client.token is not None and client.player_id is not None
            TokenFile(token_file).save(url, client.token, client.player_id)
            return client.player_id
    finally:
        CLOCK.instant = NOON


@pytest.fixture
async def daily_arena(tmp_path: Path, _sqlite_template: Path) -> AsyncIterator[Arena]:
    path = tmp_path / "arena.db"
    path.write_bytes(_sqlite_template.read_bytes())
    database_url = f"sqlite+aiosqlite:///{path}"
    settings = Settings(
        host="127.0.0.1", port=0, database_url=database_url, tick_interval_s=0.02,
        rate_limit_per_s=10_000.0, rate_limit_burst=10_000, max_connections_per_address=100_000,
        new_players_per_minute=1e9, daily_variants="freecell", daily_secret="the sdk tests' daily secret",
        daily_solver_nodes=50_000,
    )  # fmt: skip
    store = SqlStore(database_url)
    server = ArenaServer(settings, store, GroupCommitWriter(store), CLOCK)
    await server.start()
    try:
        await server.daily.run_once()  # today's and tomorrow's deals, certified by the solver in the worker
        yield Arena(server, f"ws://127.0.0.1:{server.port}/", database_url)
    finally:
        await server.shutdown()


def daily_run(url: str, **settings: object) -> RunConfig:
    return RunConfig(server=url, name="solver", daily="freecell", max_rate_per_s=None, **settings)  # type: ignore[arg-type]


async def test_a_solver_bot_plays_the_daily_ranked_then_unranked(daily_arena: Arena, tmp_path: Path) -> None:
    token_file = tmp_path / "token.json"
    made = await identity_from_yesterday(daily_arena.url, token_file, "solver")
    first = await run_bot(SolverBot(budget_s=30), daily_arena.url, name="solver", daily="freecell",
                          token_file=token_file, max_rate_per_s=None)  # fmt: skip
    assert first.won and first.room_code is None and first.player_id == made
    assert first.daily is not None and first.daily.day == TODAY and first.daily.ranked
    assert first.daily.game.seed is None, "a daily's seed stays secret until the day closes"

    again = await run_bot(SolverBot(budget_s=30), daily_arena.url, name="solver", daily="freecell",
                          token_file=token_file, max_rate_per_s=None)  # fmt: skip
    assert again.player_id == first.player_id and again.won
    assert again.daily is not None and not again.daily.ranked, "only the first attempt of a day is ranked"
    assert again.game_id != first.game_id

    async with await ArenaClient.connect(daily_arena.url, name="reader") as reader:
        humans = await reader.get_leaderboard("freecell", "daily", day=TODAY)
        assert humans.total == 0 and humans.entries == [], "bots never appear on the humans' board"
        bots = await reader.get_leaderboard("freecell", "daily", day=TODAY, bots=True)
        assert [row.player_id for row in bots.entries] == [first.player_id]
        assert bots.entries[0].game_id == first.game_id and bots.entries[0].player_moves == first.player_moves
        assert bots.par == first.daily.par and bots.seed is None
        around = await reader.get_leaderboard("freecell", "daily", day=TODAY, bots=True, around=first.player_id)
        assert [row.rank for row in around.entries] == [1]

        history = await reader.get_history(first.player_id)
        assert {game.game_id for game in history.games} == {first.game_id, again.game_id}
        ranked = {game.game_id: game.ranked for game in history.games}
        assert ranked == {first.game_id: True, again.game_id: False}

        published = await reader.get_daily("freecell", day=TODAY)
        assert [deal.status for deal in published.deals] == ["open"]
        assert published.deals[0].commitment and published.deals[0].seed is None

        with pytest.raises(ArenaError) as refused:
            await reader.get_leaderboard("no-such-variant", "daily")
        assert refused.value.code == "unknown_variant"


async def test_a_dropped_connection_in_the_daily_resumes_the_same_ranked_game(daily_arena: Arena,
                                                                             tmp_path: Path) -> None:
    token_file = tmp_path / "token.json"
    await identity_from_yesterday(daily_arena.url, token_file, "solver")
    bot = PausingSolverBot(pause_at=8)
    runner = BotRunner(bot, daily_run(daily_arena.url, token_file=token_file))
    playing = asyncio.ensure_future(runner.run())
    try:
        await bot.wait_until_paused()
        assert runner.player_id is not None and runner.game is not None
        game_id = runner.game.game_id
        daily_arena.server.connections[runner.player_id].websocket.transport.abort()
        bot.release.set()
        result = await asyncio.wait_for(playing, 60)
    finally:
        bot.release.set()
        playing.cancel()
    assert result.reconnects >= 1 and result.won
    assert result.game_id == game_id, "the runner went on with the game it had, not a new attempt"
    assert result.daily is not None and result.daily.ranked


def test_the_command_line_takes_a_daily_and_refuses_room_options_with_it() -> None:
    parser = build_parser()
    config = config_from(parser.parse_args(["--daily", "freecell", "--bot", "solver"]), SolverBot())
    assert config.daily == "freecell" and config.room is None and config.create is None
    with pytest.raises(ValueError, match="room options"):
        config_from(parser.parse_args(["--daily", "freecell", "--deal", "3"]), SolverBot())
    with pytest.raises(SystemExit):
        parser.parse_args(["--daily", "freecell", "--room", "ABCD2345"])
