"""Race helpers shared by the server tests: open a room, start it, pick legal moves from the engine."""

from __future__ import annotations

import random
from typing import Any

from arena_client import ArenaClient

from freecell_arena.engine import FOUNDATION, Board, Move, format_move, move_to_json, variant_by_id
from freecell_arena.net.app import ArenaServer


async def open_race(
    host: ArenaClient, others: list[ArenaClient], variant: str, *, seed: int | None = None, **options: Any
) -> tuple[str, dict[str, dict[str, Any]]]:
    """Create, join, start; return the room code and each player's `race_started` game view."""
    request: dict[str, Any] = {"type": "create_room", "variant": variant, "options": {"countdown_s": 0.1, **options}}
    if seed is not None:
        request["seed"] = seed
    created = await host.request(request)
    assert created["type"] == "room", created
    code = created["room"]["code"]
    for client in others:
        joined = await client.request({"type": "join_room", "code": code})
        assert joined["type"] == "room", joined
    countdown = await host.request({"type": "start_race"})
    assert countdown["type"] == "countdown", countdown
    for client in others:
        seen = await client.expect("countdown", code=code)
        assert seen["starts_at"] == countdown["starts_at"]
    games = {}
    for client in [host, *others]:
        started = await client.expect("race_started", code=code)
        games[client.player_id] = started["game"]
    return code, games


def server_board(server: ArenaServer, game_id: str) -> Board:
    """The authoritative board, read only to choose a legal move the way a bot with the engine would."""
    return server.arena.games[game_id].game.board.copy()


def choose_move(board: Board, rng: random.Random) -> Move | None:
    moves = list(board.legal_moves)
    if not moves:
        return None
    to_foundation = [move for move in moves if move.to_zone == FOUNDATION]
    return rng.choice(to_foundation or moves)


def wire_form(variant_id: str, move: Move, structured: bool) -> str | dict[str, Any]:
    """Both wire forms of a move: the variant's notation or the structured JSON."""
    return move_to_json(move) if structured else format_move(variant_by_id(variant_id), move)
