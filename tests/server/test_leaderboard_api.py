"""Deal boards from real races, queried over HTTP and over the websocket (SQLite and PostgreSQL): the same
answers, cursor paging and around-me, bots apart, ranked options, and bad parameters refused the same way."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import quote

from arena_client import ArenaClient, connect_player
from arena_server import RunningArena
from boards_helpers import ManualClock, http_get, play, winning_moves, without_id
from serverprocess import REPO

SEED = 6  # the solver wins it in a few hundredths of a second


async def race_to_a_win(clients: list[ArenaClient], seed: int, clock: ManualClock, detour: bool = False
                        ) -> dict[str, dict[str, Any]]:  # fmt: skip
    """Everyone in one ranked room plays the same winning moves, one after the other (so in time order), a
    second a move on the server's clock (a win at machine speed would be screened off the human board).
    With `detour`, each first plays a move and takes it back: two moves more than the others' best."""
    host, others = clients[0], clients[1:]
    created = await host.request({"type": "create_room", "variant": "freecell", "seed": seed,
                                  "options": {"countdown_s": 0.05}})  # fmt: skip
    assert created["room"]["options"]["ranked"] is True, "rooms with standard options are ranked by default"
    for client in others:
        assert (await client.request({"type": "join_room", "code": created["room"]["code"]}))["type"] == "room"
    await host.request({"type": "start_race"})
    clock.advance(1)  # the countdown ends on the server's next tick
    games = {client.player_id: (await client.expect("race_started"))["game"] for client in clients}
    moves = winning_moves("freecell", seed)
    for number, client in enumerate(clients):
        clock.advance(number)  # distinct finish instants and times, in this order
        won = await play(client, [moves[0], "undo", *moves] if detour else moves, clock)
        assert won["status"] == "won"
    for client in clients:
        await client.expect("race_over")  # the server's tick has settled the race: its room is finished
    return games  # type: ignore[return-value]


async def both_ways(arena: RunningArena, client: ArenaClient, path: str, request: dict[str, Any]
                    ) -> tuple[int, dict[str, Any]]:  # fmt: skip
    """The HTTP answer, after checking the websocket gives the very same message."""
    status, body = await http_get(arena.server.port, path)
    over_ws = await client.request(request)
    assert without_id(over_ws) == without_id(body), path
    return status, body


async def test_deal_boards_over_http_and_websocket(paced_arena: tuple[RunningArena, ManualClock]) -> None:
    arena, clock = paced_arena
    ada, bob, cyd = [await connect_player(arena.url, name) for name in ("ada", "bob", "cyd")]
    robot = await ArenaClient.open(arena.url)
    await robot.hello("robot", bot=True)
    try:
        await race_to_a_win([ada, bob, robot], SEED, clock)
        deal = {"type": "get_leaderboard", "variant": "freecell", "board": "deal", "seed": SEED}
        base = f"/api/leaderboards/freecell/deal/{SEED}"
        status, board = await both_ways(arena, cyd, base, deal)
        assert status == 200 and board["total"] == 2 and board["next_cursor"] is None
        par = len(winning_moves("freecell", SEED))
        assert [(row["rank"], row["name"], row["player_moves"]) for row in board["entries"]] == [
            (1, "ada", par), (2, "bob", par)
        ]  # fmt: skip
        assert board["entries"][0]["time_ms"] < board["entries"][1]["time_ms"]
        _, bots = await both_ways(arena, cyd, base + "?bots=true", {**deal, "bots": True})
        assert [row["name"] for row in bots["entries"]] == ["robot"], "bots have their own board"

        # ada plays the deal again, worse (two moves more): her best stays; a page of one, then the last page
        await race_to_a_win([ada], SEED, clock, detour=True)
        _, first = await both_ways(arena, cyd, base + "?limit=1", {**deal, "limit": 1})
        assert [row["name"] for row in first["entries"]] == ["ada"] and first["total"] == 2
        assert first["entries"][0] == board["entries"][0], "the better game stays on the board"
        cursor = first["next_cursor"]
        assert cursor
        _, last = await both_ways(arena, cyd, f"{base}?limit=1&cursor={quote(cursor)}",
                                  {**deal, "limit": 1, "cursor": cursor})  # fmt: skip
        assert [(row["rank"], row["name"]) for row in last["entries"]] == [(2, "bob")] and last["next_cursor"] is None
        _, around = await both_ways(arena, cyd, f"{base}?around={bob.player_id}&limit=3",
                                    {**deal, "around": bob.player_id, "limit": 3})  # fmt: skip
        assert [row["name"] for row in around["entries"]] == ["ada", "bob"]

        _, history = await both_ways(arena, ada, f"/api/players/{ada.player_id}/history",
                                     {"type": "get_history"})  # fmt: skip
        assert [(game["board"], game["seed"], game["outcome"]) for game in history["games"]] == [
            ("deal", str(SEED), "won"), ("deal", str(SEED), "won")
        ]  # fmt: skip
        assert history["games"][0]["player_moves"] == par + 2, "newest first: the game with the detour"
        _, newest = await http_get(arena.server.port, f"/api/players/{ada.player_id}/history?limit=1")
        assert newest["games"] == history["games"][:1] and newest["next_cursor"]
        _, older = await http_get(arena.server.port,
                                  f"/api/players/{ada.player_id}/history?limit=1&cursor={newest['next_cursor']}")
        assert older["games"] == history["games"][1:] and older["next_cursor"] is None
    finally:
        for client in (ada, bob, cyd, robot):
            await client.close()


async def test_ranked_rooms_refuse_options_that_change_move_counts(arena: RunningArena) -> None:
    ada = await connect_player(arena.url, "ada")
    try:
        refused = await ada.request({"type": "create_room", "variant": "freecell",
                                     "options": {"autoplay": False, "ranked": True}})  # fmt: skip
        assert refused["code"] == "unranked_options" and "autoplay" in refused["message"], refused
        casual = await ada.request({"type": "create_room", "variant": "freecell", "options": {"autoplay": False}})
        assert casual["room"]["options"]["ranked"] is False, "non-standard options make an unranked room"
    finally:
        await ada.close()


async def test_bad_parameters_get_the_websocket_error_over_http(arena: RunningArena) -> None:
    client = await connect_player(arena.url, "eve")
    try:
        deal = {"type": "get_leaderboard", "variant": "freecell", "board": "deal", "seed": SEED}
        base = f"/api/leaderboards/freecell/deal/{SEED}"
        for path, request, status, code in [
            (base + "?cursor=nonsense", {**deal, "cursor": "nonsense"}, 400, "bad_cursor"),
            (base + "?around=p_nobody", {**deal, "around": "p_nobody"}, 404, "unknown_seed"),  # nobody was dealt it
            ("/api/leaderboards/klondike/deal/1", {**deal, "variant": "klondike"}, 400, "unknown_variant"),
            ("/api/leaderboards/freecell/deal/0", {**deal, "seed": 0}, 400, "bad_seed"),
            (base + "?limit=0", {**deal, "limit": 0}, 400, "invalid_message"),
            (base + "?limit=101", {**deal, "limit": 101}, 400, "invalid_message"),
            (base + "?cursor=a&around=b", {**deal, "cursor": "a", "around": "b"}, 400, "invalid_message"),
            ("/api/leaderboards/freecell/season?days=8", {"type": "get_season", "variant": "freecell", "days": 8},
             400, "invalid_message"),
            ("/api/players/p_nobody/history", {"type": "get_history", "player_id": "p_nobody"}, 404,
             "unknown_player"),
            ("/api/daily/freecell/2020-01-01", {"type": "get_daily", "variant": "freecell", "day": "2020-01-01"},
             404, "unknown_daily"),
        ]:  # fmt: skip
            got_status, body = await http_get(arena.server.port, path)
            over_ws = await client.request(request)
            assert (got_status, body["type"], body["code"]) == (status, "error", code), (path, body)
            assert over_ws["code"] == code and set(body) == set(over_ws), "the same error shape both ways"
        for path, status, code in [
            (base + "?limit=1&limit=2", 400, "invalid_message"),
            (base + "?colour=red", 400, "invalid_message"),
            ("/api/leaderboards/freecell/nothing", 404, "not_found"),
            ("/api/nothing", 404, "not_found"),
            ("/favicon.ico", 404, "not_found"),
        ]:
            got_status, body = await http_get(arena.server.port, path)
            assert (got_status, body["code"]) == (status, code), (path, body)
        assert (await client.request({"type": "get_state"}))["type"] == "game_state", "the connection stays usable"
    finally:
        await client.close()


async def test_requests_too_large_for_the_http_parser_get_the_documented_answer(arena: RunningArena) -> None:
    """A request line or a header over 8 KiB is refused by websockets' parser before any route runs (as plain
    text): the OpenAPI document lists those answers on every route, so a client generated from it expects them."""
    document = json.loads((REPO / "docs" / "schema" / "openapi.json").read_text())
    path = f"/api/leaderboards/freecell/deal/{SEED}"

    def fetch(url: str, headers: dict[str, str]) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as response:
                return response.status, response.headers["Content-Type"]
        except urllib.error.HTTPError as error:
            return error.code, error.headers["Content-Type"]

    base = f"http://127.0.0.1:{arena.server.port}{path}"
    for url, headers, status in [(base + "?limit=" + "9" * 9000, {}, 414), (base, {"X-Padding": "x" * 9000}, 431)]:
        got_status, content_type = await asyncio.to_thread(fetch, url, headers)
        assert got_status == status and content_type.startswith("text/plain"), (status, got_status, content_type)
        for operation in document["paths"].values():
            assert "text/plain" in operation["get"]["responses"][str(status)]["content"]
    status, _ = await http_get(arena.server.port, "/api/quick-races")
    assert status == 200, "the server answers the next request as usual"


async def fetch_raw(port: int, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """The status, headers (lower-case names) and body as they came, a 304 included."""

    def fetch() -> tuple[int, dict[str, str], bytes]:
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()

    return await asyncio.to_thread(fetch)


async def test_a_read_is_kept_for_its_max_age_and_revalidated_with_a_304(
    paced_arena: tuple[RunningArena, ManualClock],
) -> None:
    """A board polled by many is read from the database once per max-age by each process: within it the same
    bytes come back (a new win shows after it), a known tag gets a 304 with no body, and refusals are never kept."""
    arena, clock = paced_arena
    port, path = arena.server.port, f"/api/leaderboards/freecell/deal/{SEED}"
    ada = await connect_player(arena.url, "ada")
    await race_to_a_win([ada], SEED, clock)
    status, headers, first = await fetch_raw(port, path)
    assert status == 200 and headers["cache-control"] == "public, max-age=10", headers
    etag = headers["etag"]
    assert [entry["name"] for entry in json.loads(first)["entries"]] == ["ada"]

    await rename_in_the_database(arena.database_url, ada.player_id, "ada lovelace")  # behind the server's back
    status, headers, kept = await fetch_raw(port, path)
    assert (status, headers["etag"], kept) == (200, etag, first), "within its max-age the kept answer is served"
    for if_none_match in (etag, f"W/{etag}", f'"older", {etag}', "*"):
        status, headers, body = await fetch_raw(port, path, **{"If-None-Match": if_none_match})
        assert (status, body, headers["etag"]) == (304, b"", etag), if_none_match
        assert headers["cache-control"].startswith("public, max-age=")

    clock.advance(10)
    status, headers, fresh = await fetch_raw(port, path, **{"If-None-Match": etag})
    assert status == 200 and headers["etag"] != etag, "past its max-age the board is read again: it changed"
    assert [entry["name"] for entry in json.loads(fresh)["entries"]] == ["ada lovelace"]
    status, headers, body = await fetch_raw(port, path, **{"If-None-Match": headers["etag"]})
    assert (status, body) == (304, b"")

    refused = "/api/leaderboards/freecell/deal/0"
    for _ in range(2):
        status, headers, _ = await fetch_raw(port, refused)
        assert status == 400 and headers["cache-control"] == "no-cache" and "etag" not in headers
    await ada.close()


async def rename_in_the_database(database_url: str, player_id: str | None, name: str) -> None:
    from sqlalchemy import pool, text

    from freecell_arena.store.engine import create_engine

    engine = create_engine(database_url, poolclass=pool.NullPool)
    try:
        async with engine.begin() as connection:
            await connection.execute(text("UPDATE players SET display_name = :name WHERE id = :id"),
                                     {"name": name, "id": player_id})  # fmt: skip
    finally:
        await engine.dispose()
