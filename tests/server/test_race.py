"""Races end to end: real websocket clients, a real server, a real database (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from arena_client import ArenaClient, connect_player
from arena_server import RunningArena
from racing import choose_move, open_race, server_board, wire_form

from freecell_arena.engine import VARIANTS, Game, variant_by_id
from freecell_arena.engine.game_text import read_game
from freecell_arena.engine.view import apply_view_changes, player_view

SOLUTION_DEAL_1 = (Path(__file__).resolve().parents[1] / "data" / "ms-deal-1-atomic.sn").read_text().split()


async def play_then_resign(
    arena: RunningArena, client: ArenaClient, game: dict[str, Any], moves: int, rng: random.Random
) -> list[str]:
    """Play up to `moves` legal moves (alternating notation and JSON), then resign if still playing."""
    sent: list[str] = []
    for number in range(moves):
        board = server_board(arena.server, game["game_id"])
        move = choose_move(board, rng)
        if move is None:
            break
        reply = await client.request({"type": "move", "move": wire_form(game["variant"], move, number % 2 == 1)})
        assert reply["type"] == "move_accepted", reply
        assert reply["index"] == len(sent)
        assert reply["player_moves"] == len(sent) + 1
        sent.append(reply["action"])
        if reply["status"] != "playing":
            over = await client.expect("game_over", game_id=game["game_id"])
            assert over["outcome"] == reply["status"]
            return sent
    over = await client.request({"type": "resign"})
    assert over["type"] == "game_over" and over["outcome"] == "resigned", over
    return sent


async def play_solution(client: ArenaClient, game: dict[str, Any]) -> list[str]:
    for index, notation in enumerate(SOLUTION_DEAL_1):
        reply = await client.request({"type": "move", "move": notation})
        assert reply["type"] == "move_accepted", reply
        assert reply["index"] == index
        if reply["status"] == "won":
            over = await client.expect("game_over", game_id=game["game_id"])
            assert over["outcome"] == "won" and over["player_moves"] == index + 1
            return SOLUTION_DEAL_1[: index + 1]
    raise AssertionError("the solution did not win")


@pytest.mark.parametrize("variant", list(VARIANTS))
async def test_three_players_race_to_the_end(arena: RunningArena, variant: str) -> None:
    names = ["ada", "bob", "cyd"]
    clients = [await connect_player(arena.url, name) for name in names]
    try:
        solve = variant == "freecell"
        code, games = await open_race(
            clients[0], clients[1:], variant, seed=1 if solve else None, autoplay=not solve
        )
        assert len({game["game_id"] for game in games.values()}) == 3
        views = [game["view"] for game in games.values()]
        assert all(view == views[0] for view in views), "every player gets the same deal"
        rng = random.Random(variant)
        plays = []
        for position, client in enumerate(clients):
            game = games[client.player_id]
            if solve and position == 0:
                plays.append(play_solution(client, game))
            else:
                plays.append(play_then_resign(arena, client, game, 4 + 5 * position, rng))
        async with asyncio.timeout(60):
            sent = await asyncio.gather(*plays)
        overs = [await client.expect("race_over", code=code) for client in clients]
        standings = overs[0]["standings"]
        assert all(over == overs[0] for over in overs)
        assert [row["rank"] for row in standings] == sorted(row["rank"] for row in standings)
        assert {row["player_id"] for row in standings} == {client.player_id for client in clients}
        if solve:
            assert standings[0]["player_id"] == clients[0].player_id and standings[0]["outcome"] == "won"
        losers = [row for row in standings if row["outcome"] != "won"]
        assert [row["cards_on_foundations"] for row in losers] == sorted(
            (row["cards_on_foundations"] for row in losers), reverse=True
        )
        assert overs[0]["seed"] == str(arena.server.arena.rooms[code].record.seed)
        # after the race every move list is a replay, and it replays to the final board
        for client, actions in zip(clients, sent, strict=True):
            game_id = games[client.player_id]["game_id"]
            replay = await clients[2].request({"type": "get_replay", "game_id": game_id})
            assert replay["type"] == "replay", replay
            assert replay["actions"] == actions
            rebuilt = Game.replay(
                variant_by_id(variant), int(replay["seed"]), replay["actions"], autoplay=replay["autoplay"]
            )
            assert player_view(rebuilt.board) == replay["final_view"]
            view = replay["start_view"]  # what a replay viewer steps through: the steps rebuild the game
            for step in replay["steps"]:
                view = apply_view_changes(view, step)
            assert len(replay["steps"]) == len(actions) and view == replay["final_view"]
            text = read_game(replay["game_text"])  # the game to save: it replays to the end it says
            assert (text.variant, text.seed, list(text.moves)) == (variant, int(replay["seed"]), actions)
            assert text.tag("Result") == (replay["outcome"] or "*") and text.tag("Game") == game_id
            assert player_view(text.check().board) == replay["final_view"]
    finally:
        for client in clients:
            await client.close()


async def test_speed_ranking_and_time_limit_end_the_race(arena: RunningArena) -> None:
    host = await connect_player(arena.url, "host")
    guest = await connect_player(arena.url, "guest")
    try:
        code, games = await open_race(host, [guest], "chinese-freecell", time_limit_s=5, ranking="speed")
        board = server_board(arena.server, games[host.player_id]["game_id"])
        move = choose_move(board, random.Random(3))
        assert move is not None
        reply = await host.request({"type": "move", "move": wire_form("chinese-freecell", move, True)})
        assert reply["type"] == "move_accepted"
        over = await host.expect("race_over", code=code, timeout=20)
        assert {row["outcome"] for row in over["standings"]} == {"timeout"}
        assert (await guest.expect("game_over"))["outcome"] == "timeout"
        late = await guest.request({"type": "move", "move": "t1-c1"})
        assert late["type"] == "error" and late["code"] == "game_not_running"
    finally:
        await host.close()
        await guest.close()
