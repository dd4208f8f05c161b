"""Ratings live (issue 23 part 1) and review against par (part 6), end to end: real clients, a real server, a
real database (SQLite and PostgreSQL). A rated race is one on a server-drawn deal: the test reads its seed from
`race_started` (freecell's seed is public) and the winner plays the solver's line, the other resigns."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from typing import Any

from arena_client import ArenaClient, connect_player
from arena_server import RunningArena
from racing import open_race

from freecell_arena.core.records.review import solve_par


async def win_with_par(client: ArenaClient, game: dict[str, Any]) -> int:
    par = solve_par(game["variant"], int(game["seed"]))  # the server's node budget: the same par
    assert par.moves is not None
    for action in par.line:
        reply = await client.request({"type": "move", "move": action})
        assert reply["type"] == "move_accepted", reply
    assert reply["status"] == "won"
    return par.moves


async def race_won_by(winner: ArenaClient, loser: ArenaClient, **options: Any) -> tuple[str, int]:
    """A race of two that `winner` wins on the solver's line; `loser` resigns first."""
    code, games = await open_race(winner, [loser], "freecell", **options)
    assert (await loser.request({"type": "resign"}))["type"] == "game_over"
    moves = await win_with_par(winner, games[winner.player_id])
    return code, moves


def http_json(arena: RunningArena, path: str) -> tuple[int, dict[str, Any]]:
    url = arena.url.replace("ws://", "http://").rstrip("/") + path
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


async def test_a_rated_race_moves_ratings_the_way_the_standings_go(arena: RunningArena) -> None:
    winner = await connect_player(arena.url, "Winner")
    loser = await connect_player(arena.url, "Loser")
    try:
        code, _ = await race_won_by(winner, loser)
        for client in (winner, loser):
            over = await client.expect("race_over", code=code)
            assert [row["player_id"] for row in over["standings"]] == [winner.player_id, loser.player_id]
            rated = await client.expect("race_ratings", code=code)
            changes = {change["player_id"]: change for change in rated["changes"]}
            assert changes[winner.player_id]["delta"] > 0 > changes[loser.player_id]["delta"]
            assert changes[winner.player_id]["before"]["rating"] == 1500
            assert changes[winner.player_id]["after"]["rating"] == 1500 + changes[winner.player_id]["delta"]
            assert changes[winner.player_id]["after"]["provisional"] is True

        board = await loser.request({"type": "get_ratings", "variant": "freecell", "around": loser.player_id})
        assert board["type"] == "ratings", board
        assert [row["player_id"] for row in board["top"]] == [winner.player_id, loser.player_id]
        assert [row["position"] for row in board["around"]] == [1, 2]
        assert (await loser.request({"type": "get_ratings", "variant": "freecell", "bots": True}))["top"] == []

        page = await winner.request({"type": "get_player"})
        assert page["type"] == "player", page
        (freecell,) = page["variants"]
        assert (freecell["games"], freecell["won"], freecell["win_percent"]) == (1, 1, 100.0)
        assert freecell["rating"]["rating"] == changes[winner.player_id]["after"]["rating"]
        assert [point["code"] for point in freecell["history"]] == [code]

        mine = next(row for row in over["standings"] if row["player_id"] == winner.player_id)
        shared = await winner.request({"type": "get_share", "game_id": mine["game_id"],
                                       "origin": "https://arena.example"})  # fmt: skip
        assert shared["type"] == "share", shared
        delta = changes[winner.player_id]["delta"]
        assert shared["text"].splitlines() == [
            "FreeCell Arena · FreeCell race of 2", shared["text"].splitlines()[1], f"rating +{delta}",
            f"https://arena.example/r/{code}"]  # fmt: skip
        assert shared["text"].splitlines()[1].endswith("· #1 of 2") and str(over["seed"]) not in shared["text"]
        bad = await winner.request({"type": "get_share", "game_id": mine["game_id"], "origin": "javascript:x"})
        assert bad["type"] == "error" and bad["code"] == "invalid_message"

        for client in (winner, loser):  # each race of a history with its place and the rating it moved
            (race,) = (await client.request({"type": "get_history"}))["games"]
            place = 1 if client is winner else 2
            assert (race["room_code"], race["place"], race["players"], race["rating_delta"]) == (
                code, place, 2, changes[client.player_id]["delta"])  # fmt: skip

        status, body = await asyncio.to_thread(http_json, arena, "/api/ratings/freecell?limit=1")
        assert status == 200 and [row["player_id"] for row in body["top"]] == [winner.player_id]
        status, body = await asyncio.to_thread(http_json, arena, f"/api/players/{loser.player_id}")
        assert status == 200 and body["variants"][0]["rating"]["rating"] < 1500
    finally:
        await winner.close()
        await loser.close()


async def test_a_host_chosen_deal_rates_nobody(arena: RunningArena) -> None:
    winner = await connect_player(arena.url, "Host")
    loser = await connect_player(arena.url, "Guest")
    try:
        code, _ = await race_won_by(winner, loser, seed=12345)
        await winner.expect("race_over", code=code)
        page = await winner.request({"type": "get_player"})
        assert page["variants"][0]["games"] == 1 and page["variants"][0]["rating"] is None
        assert (await winner.request({"type": "get_ratings", "variant": "freecell"}))["top"] == []
    finally:
        await winner.close()
        await loser.close()


async def test_the_review_opens_at_the_end_with_each_result_beside_par(arena: RunningArena) -> None:
    winner = await connect_player(arena.url, "Fast")
    loser = await connect_player(arena.url, "Slow")
    try:
        code, games = await open_race(winner, [loser], "freecell")
        early = await loser.request({"type": "get_review", "code": code})
        assert early["type"] == "error" and early["code"] == "race_not_over", early
        status, body = await asyncio.to_thread(http_json, arena, f"/api/races/{code}/review")
        assert status == 409 and body["code"] == "race_not_over" and "line" not in body
        assert (await loser.request({"type": "resign"}))["type"] == "game_over"
        moves = await win_with_par(winner, games[winner.player_id])
        await loser.expect("race_over", code=code)

        review = await loser.request({"type": "get_review", "code": code})
        assert review["type"] == "review", review
        assert review["par_status"] == "solved" and review["par"] == moves == len(review["line"])
        assert len(review["steps"]) == moves
        assert review["start_view"], "the solver's line comes with the replay viewer's boards"
        rows = {row["player_id"]: row for row in review["results"]}
        assert rows[winner.player_id]["over_par"] == 0 and rows[winner.player_id]["outcome"] == "won"
        assert rows[loser.player_id]["over_par"] is None and rows[loser.player_id]["outcome"] == "resigned"
        unknown = await loser.request({"type": "get_review", "code": "NOSUCH"})
        assert unknown["code"] == "unknown_room"
    finally:
        await winner.close()
        await loser.close()
