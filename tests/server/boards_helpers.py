"""Helpers for the leaderboard and daily tests: a hand-driven clock, plain HTTP GET, and winning move lists."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from datetime import datetime, timedelta
from functools import cache
from typing import Any

from arena_client import ArenaClient

from freecell_arena.core.records.daily import player_actions
from freecell_arena.engine import Board, variant_by_id
from freecell_arena.engine.solver import solve

HTTP_TIMEOUT_S = 10.0


class ManualClock:
    """The server's clock in these tests: it moves only when the test says so (the day rolls over on cue)."""

    def __init__(self, start: datetime) -> None:
        self.instant = start

    def now(self) -> datetime:
        return self.instant

    def advance(self, seconds: float) -> None:
        self.instant += timedelta(seconds=seconds)

    def set(self, instant: datetime) -> None:
        self.instant = instant


async def http_get(port: int, path: str) -> tuple[int, dict[str, Any]]:
    """A real HTTP client (urllib, in a thread): the status and the JSON body, errors included."""

    def fetch() -> tuple[int, dict[str, Any]]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=HTTP_TIMEOUT_S) as response:
                assert response.headers["Content-Type"] == "application/json"
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            assert error.headers["Content-Type"] == "application/json"
            return error.code, json.loads(error.read())

    async with asyncio.timeout(HTTP_TIMEOUT_S * 2):
        return await asyncio.to_thread(fetch)


@cache
def winning_moves(variant_id: str, seed: int) -> tuple[str, ...]:
    """A win as a player types it with autoplay on (the solver's certified solution)."""
    variant = variant_by_id(variant_id)
    result = solve(Board.deal(variant, seed), budget=30)
    assert result.solution is not None, f"{variant_id} {seed} not solved"
    return tuple(player_actions(variant, seed, result.solution.moves))


async def play(client: ArenaClient, moves: list[str] | tuple[str, ...], clock: ManualClock | None = None,
               seconds_per_move: float = 1.0) -> dict[str, Any]:  # fmt: skip
    """Send every move (`undo` as an undo request; each must be accepted); return the last `move_accepted`."""
    reply: dict[str, Any] = {}
    for move in moves:
        if clock is not None:
            clock.advance(seconds_per_move)
        reply = await client.request({"type": "undo"} if move == "undo" else {"type": "move", "move": move})
        assert reply["type"] == "move_accepted", reply
    return reply


def without_id(message: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in message.items() if key != "id"}
