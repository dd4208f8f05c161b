"""The runner's refusals: a bot that raises, returns nonsense or keeps playing illegal moves gets a clear
`BotError`, and its game is resigned rather than left hanging for the other racers."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from freecell_arena.engine import Board, Move
from freecell_arena.protocol.rooms import RoomOptions
from freecell_arena_client import Bot, BotError, NewRoom, RaceNotStarted, run_bot

from .support import Arena, client_env, serverprocess


class RaisingBot(Bot):
    def choose_move(self, board: Board) -> Move | None:
        raise ValueError("no idea")


class NonsenseBot(Bot):
    def choose_move(self, board: Board) -> Move | None:
        return 42  # type: ignore[return-value]


class IllegalBot(Bot):
    def __init__(self) -> None:
        self.tries = 0

    def choose_move(self, board: Board) -> str:
        self.tries += 1
        return "t1-t1"  # a column onto itself: always refused


def create(variant: str = "freecell") -> dict[str, object]:
    return {"create": NewRoom(variant, deal=1, options=RoomOptions(countdown_s=0)), "max_rate_per_s": None}


@pytest.mark.parametrize(("bot", "complaint"), [(RaisingBot(), "the bot raised ValueError: no idea"),
                                                (NonsenseBot(), "must return a Move, notation text or None")])
async def test_a_failing_bot_is_reported_and_its_game_resigned(sqlite_arena: Arena, bot: Bot, complaint: str) -> None:
    resigned: list[str] = []
    bot.on_game_over = lambda over: resigned.append(over.outcome)  # type: ignore[method-assign]
    with pytest.raises(BotError, match=complaint):
        await run_bot(bot, sqlite_arena.url, **create())
    assert resigned == ["resigned"]


async def test_refused_moves_three_times_in_a_row_give_up(sqlite_arena: Arena) -> None:
    bot = IllegalBot()
    with pytest.raises(BotError, match=r"refused 3 moves in a row; last: move: illegal_move"):
        await run_bot(bot, sqlite_arena.url, **create())
    assert bot.tries == 3


async def test_a_race_nobody_starts_times_out(sqlite_arena: Arena) -> None:
    class Idle(Bot):
        def choose_move(self, board: Board) -> None:
            return None

    with pytest.raises(RaceNotStarted, match=r"1 of 2 players seated, status lobby"):
        await run_bot(Idle(), sqlite_arena.url, **create(), players=2, start_timeout_s=0.5)


class SlowThinker(Bot):
    """Burns the CPU in pure Python for a while before its first move, as a solver on a hard deal does."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.thought = False

    def choose_move(self, board: Board) -> Move | None:
        if not self.thought:
            self.thought = True
            deadline = time.monotonic() + self.seconds
            while time.monotonic() < deadline:
                sum(range(1000))
        return next(iter(board.legal_moves), None)


async def test_pings_are_answered_while_the_bot_thinks(tmp_path: Path) -> None:
    # a server process: in this process the server would share the event loop a blocking bot would stall
    env = {**client_env(), "FREECELL_ARENA_PING_INTERVAL_S": "0.2", "FREECELL_ARENA_PING_TIMEOUT_S": "0.5"}
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'arena.db'}"
    async with serverprocess.running_server(tmp_path, database_url=database_url, env=env) as server:
        bot = SlowThinker(seconds=2.0)  # four times the ping timeout
        result = await run_bot(bot, server.url, **create(), max_moves=3)
    assert bot.thought and result.reconnects == 0 and result.player_moves == 3
