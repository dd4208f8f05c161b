"""A bot whose connection drops, whose server restarts, or which itself restarts, resumes the game in progress
and finishes it: the server's state after the resumed hello says where it stands."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import threading
from pathlib import Path

from freecell_arena.engine import Board, Game, Move, variant_by_id
from freecell_arena.protocol.rooms import RoomOptions, RoomView
from freecell_arena.store import SqlStore
from freecell_arena_client import BotRunner, NewRoom, RaceResult, Reconnect, RunConfig
from freecell_arena_client.bots import RandomBot, SolverBot

from .support import Arena, client_env, serverprocess

PAUSE_TIMEOUT_S = 30


class PausingSolverBot(SolverBot):
    """Stops in the middle of the game (inside `choose_move`, so no move is in flight) until released."""

    def __init__(self, pause_at: int) -> None:
        super().__init__(budget_s=30)
        self.pause_at = pause_at
        self.chosen = 0
        self.paused = threading.Event()
        self.release = threading.Event()

    def choose_move(self, board: Board) -> Move | None:
        self.chosen += 1
        if self.chosen == self.pause_at:
            self.paused.set()
            self.release.wait(PAUSE_TIMEOUT_S)
        return super().choose_move(board)

    async def wait_until_paused(self) -> None:
        assert await asyncio.to_thread(self.paused.wait, PAUSE_TIMEOUT_S), "the bot never reached its pause"


def solo_race(url: str, **settings: object) -> RunConfig:
    options = RoomOptions(countdown_s=0.1)
    return RunConfig(server=url, name="solver", create=NewRoom("freecell", deal=2, options=options), **settings)


async def check_won_and_stored(database_url: str, result: RaceResult) -> None:
    assert result.won, result
    store = SqlStore(database_url)
    try:
        assert result.game_id is not None
        stored = await store.game(result.game_id)
        assert stored is not None and stored.result is not None and stored.result.outcome == "won"
        actions = [move.notation for move in sorted(stored.moves, key=lambda move: move.index)]
        replayed = Game.replay(variant_by_id("freecell"), 2, actions, autoplay=True)
        assert replayed.board.is_won() and replayed.player_moves == result.player_moves
    finally:
        await store.close()


async def test_a_dropped_connection_is_resumed_and_the_game_finished(sqlite_arena: Arena) -> None:
    bot = PausingSolverBot(pause_at=10)
    runner = BotRunner(bot, solo_race(sqlite_arena.url, max_rate_per_s=None))
    playing = asyncio.ensure_future(runner.run())
    try:
        await bot.wait_until_paused()
        assert runner.player_id is not None
        connection = sqlite_arena.server.connections[runner.player_id]
        connection.websocket.transport.abort()  # the TCP connection dies under the bot's feet
        bot.release.set()
        result = await asyncio.wait_for(playing, 60)
    finally:
        bot.release.set()
        playing.cancel()
    assert result.reconnects >= 1
    assert result.player_moves >= 10
    await check_won_and_stored(sqlite_arena.database_url, result)


async def test_a_bot_back_while_the_database_is_away_says_hello_again_until_it_returns(sqlite_arena: Arena) -> None:
    """The bot's connection drops while the server cannot read its database: the resumed hello is answered
    `storage_failed` (not now), and the runner says hello again with its backoff until the database answers, then
    finishes the game (it used to stop there, raising the refusal)."""
    await play_through_the_database_away(sqlite_arena, "access_tokens", cut=True)  # a hello's first read


async def play_through_the_database_away(arena: Arena, table: str, *, cut: bool) -> RaceResult:
    """A bot paused mid-game; `table` renamed away (every read or write of it fails meanwhile), the bot's connection
    cut if `cut`, the bot released: it is answered `storage_failed` at least twice (it keeps trying, and stays in
    its race), then the table comes back and the bot wins its game, stored as it says."""
    import sqlite3

    path = arena.database_url.removeprefix("sqlite+aiosqlite:///")

    def rename(old: str, new: str) -> None:
        with contextlib.closing(sqlite3.connect(path, timeout=30)) as database:
            database.execute(f"ALTER TABLE {old} RENAME TO {new}")
            database.commit()

    bot = PausingSolverBot(pause_at=10)
    runner = BotRunner(bot, solo_race(arena.url, max_rate_per_s=None,
                                      reconnect=Reconnect(first_delay_s=0.05, max_delay_s=0.2)))  # fmt: skip
    playing = asyncio.ensure_future(runner.run())
    errors = arena.server.metrics.errors
    try:
        await bot.wait_until_paused()
        assert runner.player_id is not None
        await asyncio.to_thread(rename, table, f"{table}_away")
        if cut:
            arena.server.connections[runner.player_id].websocket.transport.abort()
        bot.release.set()
        for _ in range(300):
            if errors["storage_failed"] >= 2:  # refused, then refused again: the bot keeps trying
                break
            await asyncio.sleep(0.05)
        assert errors["storage_failed"] >= 2 and not playing.done(), (errors, playing)
        await asyncio.to_thread(rename, f"{table}_away", table)
        result = await asyncio.wait_for(playing, 60)
    finally:
        bot.release.set()
        playing.cancel()
    assert result.reconnects >= 1 and errors["internal_error"] == 0
    await check_won_and_stored(arena.database_url, result)
    return result


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_the_bot_waits_out_a_server_restart_and_finishes(tmp_path: Path) -> None:
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'arena.db'}"
    port = free_port()
    env = client_env()
    bot = PausingSolverBot(pause_at=10)
    config = solo_race(f"ws://127.0.0.1:{port}/", reconnect=Reconnect(first_delay_s=0.1, give_up_after_s=60))
    runner = BotRunner(bot, config)
    playing: asyncio.Future[RaceResult] | None = None
    try:
        async with serverprocess.running_server(tmp_path, database_url=database_url, env=env, port=port) as first:
            playing = asyncio.ensure_future(runner.run())
            await bot.wait_until_paused()
            first.process.send_signal(signal.SIGKILL)  # kill -9: no goodbye, no flush beyond what was acked
            await first.wait()
        bot.release.set()  # the bot now finds nobody listening and retries with backoff
        await asyncio.sleep(1.0)
        async with serverprocess.running_server(tmp_path, database_url=database_url, env=env, port=port):
            result = await asyncio.wait_for(playing, 60)
    finally:
        bot.release.set()
        if playing is not None:
            playing.cancel()
            with contextlib.suppress(BaseException):
                await playing
    assert result.reconnects >= 1
    assert result.player_moves >= 10
    await check_won_and_stored(database_url, result)


async def test_a_restarted_bot_resumes_its_game_from_the_token_file(sqlite_arena: Arena, tmp_path: Path) -> None:
    token_file = tmp_path / "bot-token.json"
    first_bot = PausingSolverBot(pause_at=8)
    first = BotRunner(first_bot, solo_race(sqlite_arena.url, max_rate_per_s=None, token_file=token_file))
    crashed = asyncio.ensure_future(first.run())
    try:
        await first_bot.wait_until_paused()
    finally:
        crashed.cancel()  # the bot process dies in the middle of its game
        first_bot.release.set()
        with contextlib.suppress(BaseException):
            await crashed
    assert token_file.exists() and token_file.stat().st_mode & 0o077 == 0
    again = BotRunner(SolverBot(budget_s=30), solo_race(sqlite_arena.url, max_rate_per_s=None, token_file=token_file))
    result = await asyncio.wait_for(again.run(), 60)
    assert result.player_id == first.player_id
    assert first.game is not None and result.game_id == first.game.game_id
    await check_won_and_stored(sqlite_arena.database_url, result)


async def test_a_host_whose_lobby_vanished_while_it_was_away_hosts_a_new_one(sqlite_arena: Arena) -> None:
    announced: list[str] = []
    new_room = asyncio.Event()

    def on_room(room: RoomView) -> None:
        announced.append(room.code)
        new_room.set()

    host = BotRunner(SolverBot(), solo_race(sqlite_arena.url, max_rate_per_s=None, players=2), on_room=on_room)
    hosting = asyncio.ensure_future(host.run())
    try:
        await asyncio.wait_for(new_room.wait(), 10)
        new_room.clear()
        assert host.player_id is not None
        # alone in its lobby, the host's connection drops: the seat is given up and the empty lobby dropped
        sqlite_arena.server.connections[host.player_id].websocket.transport.abort()
        await asyncio.wait_for(new_room.wait(), 30)
        assert len(announced) == 2 and announced[0] != announced[1]
        guest = BotRunner(RandomBot(seed=3), RunConfig(server=sqlite_arena.url, name="guest", room=announced[1],
                                                       max_moves=5, max_rate_per_s=None))
        results = await asyncio.wait_for(asyncio.gather(hosting, guest.run()), 60)
    finally:
        hosting.cancel()
    assert results[0].won and results[0].reconnects >= 1
    assert results[0].room_code == results[1].room_code == announced[1]


async def test_a_move_the_database_cannot_store_is_played_again_once_it_can(sqlite_arena: Arena) -> None:
    """A move answered `storage_failed` (nothing changed: the server could not write it) does not end the bot's
    race: the runner comes back on a new connection after its backoff, resumes from the stored state and plays on
    once the database takes moves again (it used to stop, raising the refusal: a rolling restart under load
    showed it)."""
    result = await play_through_the_database_away(sqlite_arena, "moves", cut=False)
    assert result.reconnects >= 2, "one new connection after each refused move"
