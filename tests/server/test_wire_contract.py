"""The wire contract as a bot author in any language meets it (issue 34), against a real server: strict frames (a
boolean, a float or a string is no number, a string no boolean), seeds exact through JavaScript's `JSON.parse`, a
deal board of a seed nobody was dealt refused as such, the limits announced in `welcome`, and replays of a running
race as the contract says."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from arena_client import ArenaClient, connect_player
from arena_server import RunningArena, started_arena
from boards_helpers import http_get
from racing import open_race

from freecell_arena.protocol.wire import MAX_SAFE_INTEGER

REPO = Path(__file__).resolve().parents[2]
BIG_SEED = "7654041082873553397"
"""A seed JavaScript's numbers cannot hold: `JSON.parse` of it as a number gives 7654041082873553000."""
ROUNDED_SEED = "7654041082873553000"


async def racing_alone(arena: RunningArena, name: str = "ada", variant: str = "freecell", **room: Any) -> tuple[
    ArenaClient, dict[str, Any]
]:  # fmt: skip
    client = await connect_player(arena.url, name)
    _, games = await open_race(client, [], variant, **room)
    return client, games[client.player_id]


@pytest.mark.parametrize(
    ("move", "field"),
    [
        ({"from": "tableau", "from_index": True, "to": "cell"}, "`move.from_index` must be a whole number, not true"),
        ({"from": "tableau", "from_index": 1.0, "to": "cell"}, "`move.from_index` must be a whole number, not 1.0"),
        ({"from": "tableau", "from_index": 1, "to": "cell", "count": "2"}, "`move.count` must be a whole number"),
        ({"from": "tableau", "from_index": 1, "to": "cell", "to_index": False}, "`move.to_index`"),
        ({"from": "tableau", "from_index": 1, "to": "cell", "colour": "red"}, "`move.colour` is not a known field"),
        (7, "`move` must be notation text"),
    ],
)
async def test_a_structured_move_of_the_wrong_json_types_is_bad_notation_and_plays_nothing(
    arena: RunningArena, move: object, field: str
) -> None:
    """Protocol 3 took `true` as index 1 and played it; `1.0` and `"2"` were numbers too."""
    client, game = await racing_alone(arena)
    try:
        refused = await client.request({"type": "move", "move": move})
        assert (refused["type"], refused["code"]) == ("error", "bad_notation"), refused
        assert field in refused["message"], refused["message"]
        state = await client.request({"type": "get_state"})
        assert state["game"]["actions"] == [] and state["game"]["view"] == game["view"], "nothing changed"
        accepted = await client.request({"type": "move", "move": {"from": "tableau", "from_index": 1, "to": "cell"}})
        assert accepted["type"] == "move_accepted" and accepted["index"] == 0, "the well-typed move plays"
    finally:
        await client.close()


@pytest.mark.parametrize(
    ("frame", "field"),
    [
        ({"type": "hello", "name": "eve", "bot": "yes"}, "`bot` must be true or false"),
        ({"type": "hello", "name": "eve", "bot": 1}, "`bot` must be true or false"),
        ({"type": "hello", "name": 5}, "`name` must be a string"),
        ({"type": "hello", "name": "eve", "id": True}, "`id` must be a string or a whole number"),
        ({"type": "hello", "name": "eve", "id": 2.5}, "`id` must be a string or a whole number"),
        ({"type": "hello", "name": "eve", "id": MAX_SAFE_INTEGER + 2}, "`id` must be at most 9007199254740991"),
        ({"type": "hello", "name": "eve", "colour": "red"}, "`colour` is not a known field"),
    ],
)
async def test_a_hello_of_the_wrong_json_types_is_refused_naming_the_field(
    arena: RunningArena, frame: dict[str, Any], field: str
) -> None:
    client = await ArenaClient.open(arena.url)
    try:
        await client.send(frame)
        refused = await client.expect("error")
        assert refused["code"] == "invalid_message" and field in refused["message"], refused
        assert "Input should be" not in refused["message"], "a sentence, not pydantic's text"
        welcome = await client.request({"type": "hello", "name": "eve", "bot": True})
        assert welcome["type"] == "welcome", "nothing was registered: the connection still says hello"
    finally:
        await client.close()


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"max_players": 2.0}, "`options.max_players` must be a whole number"),
        ({"max_players": "2"}, "`options.max_players` must be a whole number"),
        ({"countdown_s": "3"}, "`options.countdown_s` must be a number"),
        ({"autoplay": "false"}, "`options.autoplay` must be true or false"),
        ({"autoplay": 0}, "`options.autoplay` must be true or false"),
    ],
)
async def test_room_options_of_the_wrong_json_types_are_refused(
    arena: RunningArena, options: dict[str, Any], field: str
) -> None:
    client = await connect_player(arena.url, "host")
    try:
        refused = await client.request({"type": "create_room", "variant": "freecell", "options": options})
        assert refused["code"] == "invalid_message" and field in refused["message"], refused
        assert (await client.request({"type": "get_state"}))["room"] is None, "no room was made"
    finally:
        await client.close()


async def test_an_old_clients_valid_frames_still_work(arena: RunningArena) -> None:
    """Protocol 3 clients sent seeds and deal numbers as JSON integers and whole numbers for floats: still fine
    within I-JSON's range."""
    client = await connect_player(arena.url, "old")
    try:
        created = await client.request({"type": "create_room", "variant": "freecell", "deal": 617,
                                        "options": {"countdown_s": 0, "max_players": 4}})  # fmt: skip
        assert created["room"]["seed"] == "617", created
        await client.request({"type": "leave_room"})
        seeded = await client.request({"type": "create_room", "variant": "chinese-freecell", "seed": MAX_SAFE_INTEGER})
        assert seeded["room"]["seed"] == str(MAX_SAFE_INTEGER)
        await client.request({"type": "leave_room"})
        too_big = await client.request({"type": "create_room", "variant": "chinese-freecell",
                                        "seed": MAX_SAFE_INTEGER + 2})  # fmt: skip
        assert too_big["code"] == "invalid_message" and "decimal string" in too_big["message"], too_big
    finally:
        await client.close()


def node_parse(text: str, expression: str) -> str:
    """What JavaScript's `JSON.parse` makes of a frame: `expression` over `frame`, printed by node."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (apt-get install nodejs)")
    parse = "const frame = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
    script = f"{parse}\nprocess.stdout.write(String({expression}))"
    done = subprocess.run([node, "-e", script], input=text, capture_output=True, text=True, timeout=60, check=True)
    return done.stdout


async def test_a_big_seed_round_trips_through_javascript_unchanged(arena: RunningArena) -> None:
    """A seed past 2^53 comes as a decimal string in every frame: `JSON.parse` keeps it, and sent back it names the
    same deal (protocol 3 sent it as a number, which JavaScript rounded to another deal)."""
    host = await connect_player(arena.url, "host")
    try:
        code, games = await open_race(host, [], "chinese-freecell", seed=BIG_SEED)
        room_frame = next(raw for raw in host.raw if '"type":"room"' in raw)
        assert node_parse(room_frame, "frame.room.seed") == BIG_SEED
        started = next(raw for raw in host.raw if '"type":"race_started"' in raw)
        assert node_parse(started, "frame.game.seed") == BIG_SEED
        assert games[host.player_id]["seed"] == BIG_SEED
        assert arena.server.arena.rooms[code].record.seed == int(BIG_SEED)
        over = await host.request({"type": "resign"})
        assert over["type"] == "game_over"
        race_over = await host.expect("race_over")
        assert race_over["seed"] == BIG_SEED
        again = await host.request({"type": "create_room", "variant": "chinese-freecell",
                                    "seed": node_parse(started, "frame.game.seed")})  # fmt: skip
        assert again["room"]["seed"] == BIG_SEED, "sent back as JavaScript holds it: the same deal"
    finally:
        await host.close()


async def test_a_deal_board_of_a_seed_nobody_was_dealt_says_so(arena: RunningArena) -> None:
    """A ranked race dealt BIG_SEED and nobody won: its board is empty but known. The seed as JavaScript rounds a
    number, and a deal nobody was dealt, are refused `unknown_seed` (protocol 3 answered both with an empty
    board)."""
    host = await connect_player(arena.url, "host")
    try:
        await open_race(host, [], "chinese-freecell", seed=BIG_SEED)
        await host.request({"type": "resign"})
        board = {"type": "get_leaderboard", "variant": "chinese-freecell", "board": "deal"}
        known = await host.request({**board, "seed": BIG_SEED})
        assert (known["type"], known["total"], known["seed"]) == ("leaderboard", 0, BIG_SEED), known
        bots = await host.request({**board, "seed": BIG_SEED, "bots": True})
        assert bots["type"] == "leaderboard", "dealt to humans: the bots' board of the deal is known too"
        not_on = await host.request({**board, "seed": BIG_SEED, "around": "p_nobody"})
        assert not_on["code"] == "not_on_board", not_on
        for seed in (ROUNDED_SEED, 12345):
            unknown = await host.request({**board, "seed": seed})
            assert unknown["code"] == "unknown_seed" and str(seed) in unknown["message"], unknown
        status, body = await http_get(arena.server.port, f"/api/leaderboards/chinese-freecell/deal/{ROUNDED_SEED}")
        assert (status, body["code"]) == (404, "unknown_seed"), body
        status, body = await http_get(arena.server.port, f"/api/leaderboards/chinese-freecell/deal/{BIG_SEED}")
        assert (status, body["seed"], body["total"]) == (200, BIG_SEED, 0), body
    finally:
        await host.close()


async def test_welcome_announces_the_limits_this_server_runs_with(database_url: str) -> None:
    settings = {"max_message_bytes": 4096, "rate_limit_per_s": 7.0, "rate_limit_burst": 9, "ping_interval_s": 11.0,
                "ping_timeout_s": 12.0, "hello_timeout_s": 13.0, "idle_timeout_s": 140.0,
                "quick_race_min_players": 3, "quick_race_max_players": 5, "quick_race_wait_s": 4.0}  # fmt: skip
    async with started_arena(database_url, **settings) as server:
        url = f"ws://127.0.0.1:{server.port}/"
        client = await ArenaClient.open(url)
        try:
            welcome = await client.hello("limited")
            assert welcome["protocol"] == 4
            assert welcome["limits"] == {"max_message_bytes": 4096, "max_frame_bytes": 16384, "rate_per_s": 7.0,
                                         "burst": 9, "ping_interval_s": 11.0, "ping_timeout_s": 12.0,
                                         "hello_timeout_s": 13.0, "idle_timeout_s": 140.0}  # fmt: skip
            assert welcome["quick_race"] == {"min_players": 3, "max_players": 5, "countdown_s": 4.0}
            token = welcome["token"]
        finally:
            await client.close()
        again = await ArenaClient.open(url)
        try:
            resumed = await again.hello("limited", token=token)
            assert resumed["resumed"] is True and resumed["limits"]["burst"] == 9, "announced on a resume too"
            await again.send_raw("x" * 5000)
            too_large = await again.expect("error")
            assert too_large["code"] == "message_too_large"
            await again.send_raw("x" * 17000)
            async with asyncio.timeout(10):
                await again.websocket.wait_closed()
            assert again.websocket.close_code == 1009, "past max_frame_bytes the connection closes"
        finally:
            await again.close()


async def test_your_own_replay_mid_race_but_never_an_opponents(arena: RunningArena) -> None:
    """A replay of your own running game holds nothing you were not shown (your moves, your board, a seed the
    room shows); an opponent's would show their moves: refused until the race is over."""
    ada = await connect_player(arena.url, "ada")
    bob = await connect_player(arena.url, "bob")
    try:
        _, games = await open_race(ada, [bob], "freecell", seed=5)
        mine, theirs = games[ada.player_id]["game_id"], games[bob.player_id]["game_id"]
        await ada.request({"type": "move", "move": "1a"})
        replay = await ada.request({"type": "get_replay", "game_id": mine})
        assert (replay["type"], replay["actions"], replay["seed"], replay["outcome"]) == ("replay", ["1a"], "5", None)
        refused = await ada.request({"type": "get_replay", "game_id": theirs})
        assert refused["code"] == "replay_not_available", refused
        await ada.request({"type": "resign"})
        still = await ada.request({"type": "get_replay", "game_id": theirs})
        assert still["code"] == "replay_not_available", "bob still races"
        await bob.request({"type": "resign"})
        await ada.expect("race_over")
        opened = await ada.request({"type": "get_replay", "game_id": theirs})
        assert opened["type"] == "replay", "the race is over: every replay opens"
    finally:
        await ada.close()
        await bob.close()


async def test_a_cell_eleven_racer_gets_no_replay_of_their_own_running_game(arena: RunningArena) -> None:
    """Its seed would show every face-down card."""
    client, game = await racing_alone(arena, variant="cell-eleven")
    try:
        refused = await client.request({"type": "get_replay", "game_id": game["game_id"]})
        assert refused["code"] == "replay_not_available", refused
        assert game["seed"] is None
    finally:
        await client.close()


def test_every_server_frame_of_the_schema_is_i_json() -> None:
    """No integer field of a server frame may exceed 2^53 - 1 unbounded, but a seed: the schema types seeds as
    strings in server frames, everywhere."""
    schema = json.loads((REPO / "docs" / "schema" / "protocol.json").read_text())
    seeds = [(name, spec) for name, model in schema["$defs"].items() for field, spec in
             model.get("properties", {}).items() if field == "seed"]  # fmt: skip
    assert seeds, "the schema has seed fields"
    for name, spec in seeds:
        text = json.dumps(spec)
        if name.endswith("Request") or name.endswith("-Input"):
            assert '"type": "string"' in text and '"type": "integer"' in text, (name, spec)
        else:
            assert '"type": "integer"' not in text and '"type": "string"' in text, (name, spec)
