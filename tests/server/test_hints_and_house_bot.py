"""Hints, auto-finish and the house bot (issue 33), on a real server over real websockets (SQLite; the store's part
is the game and room reads every other test covers on both backends).

- A hint is a legal next move of the player's own unranked game, worked out in a solver worker; once the game is
  decided, `finish` lists the moves that send every card home, and playing them wins. Ranked races refuse hints
  (`no_hints`), and so do other players' games and finished ones.
- A player alone in a quick race's lobby asks for the house bot: a real client of the protocol joins (a bot
  member), the race starts by itself, and the bot plays moves through the server like anyone.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from arena_client import ArenaClient, connect_player
from arena_server import start_arena
from boards_helpers import play, winning_moves

from freecell_arena.engine import Game, variant_by_id
from freecell_arena.engine.solver import finish
from freecell_arena.net.app import ArenaServer

SEED = 6  # the solver wins it in a few hundredths of a second


@pytest.fixture
async def server(sqlite_url: str) -> AsyncIterator[ArenaServer]:
    arena = await start_arena(sqlite_url, quick_race_wait_s=0.2, house_bot_moves_per_s=20.0)
    try:
        yield arena
    finally:
        await arena.shutdown()


async def solo_race(client: ArenaClient, *, ranked: bool) -> str:
    created = await client.request({"type": "create_room", "variant": "freecell", "seed": str(SEED),
                                    "options": {"countdown_s": 0, "ranked": ranked}})  # fmt: skip
    assert created["room"]["options"]["ranked"] is ranked
    await client.request({"type": "start_race"})
    game_id: str = (await client.expect("race_started"))["game"]["game_id"]
    return game_id


def decided_after(line: list[str]) -> int:
    """How many moves of the winning line decide the game: the first point from which cards only go home."""
    variant = variant_by_id("freecell")
    return next(count for count in range(len(line))
                if finish(Game.replay(variant, SEED, line[:count], autoplay=True)) is not None)  # fmt: skip


async def test_a_hint_is_a_legal_move_and_a_decided_game_finishes_itself(server: ArenaServer) -> None:
    url = f"ws://127.0.0.1:{server.port}/"
    ada, bob = await connect_player(url, "ada"), await connect_player(url, "bob")
    try:
        game_id = await solo_race(ada, ranked=False)
        first = await ada.request({"type": "get_hint", "game_id": game_id})
        assert first["type"] == "hint" and first["move"] and first["finish"] == [], first
        assert (await ada.request({"type": "move", "move": first["move"]}))["type"] == "move_accepted"
        other = await bob.request({"type": "get_hint", "game_id": game_id})
        assert (other["type"], other["code"]) == ("error", "not_your_game")

        line = list(winning_moves("freecell", SEED))
        await play(ada, ["undo", *line[:decided_after(line)]])  # what is left is cards going home
        decided = await ada.request({"type": "get_hint", "game_id": game_id})
        assert decided["finish"] and decided["move"] == decided["finish"][0], decided
        assert (await play(ada, decided["finish"]))["status"] == "won", "auto-finish wins"
        over = await ada.request({"type": "get_hint", "game_id": game_id})
        assert (over["type"], over["code"]) == ("error", "game_not_running")

        ranked = await solo_race(bob, ranked=True)
        refused = await bob.request({"type": "get_hint", "game_id": ranked})
        assert (refused["type"], refused["code"]) == ("error", "no_hints")
        assert "ranked" in refused["message"] and "daily" in refused["message"]
    finally:
        await ada.close()
        await bob.close()


async def test_a_player_alone_in_a_quick_race_races_the_house_bot(server: ArenaServer) -> None:
    url = f"ws://127.0.0.1:{server.port}/"
    ada = await connect_player(url, "ada")
    try:
        nobody = await ada.request({"type": "race_bot"})
        assert (nobody["type"], nobody["code"]) == ("error", "not_in_room")
        quiet = await ada.request({"type": "get_quick_races"})
        assert quiet["bot_after_s"] == 15.0 and {race["players"] for race in quiet["races"]} == {0}
        code = (await ada.request({"type": "quick_race", "variant": "freecell"}))["room"]["code"]
        waiting = await ada.request({"type": "get_quick_races"})
        assert [(race["code"], race["players"]) for race in waiting["races"] if race["variant"] == "freecell"] == [
            (code, 1)]  # fmt: skip

        coming = await ada.request({"type": "race_bot"})
        assert (coming["type"], coming["code"]) == ("race_bot", code), coming
        joined = await ada.expect("member_joined", code=code)
        assert joined["member"]["bot"] is True and joined["member"]["name"] == coming["name"]
        await ada.expect("race_started", code=code)
        bot_id = joined["member"]["player_id"]
        moved = await ada.expect("progress", code=code)
        assert moved["progress"]["player_id"] == bot_id and moved["progress"]["moves"] >= 1, "the bot plays"
        again = await ada.request({"type": "race_bot"})
        assert (again["type"], again["code"]) == ("error", "room_started")
    finally:
        await ada.close()
