"""Every game as open data: `freecell-arena export` and `GET /api/players/{player_id}/games` over a real server on
loopback and its real database (SQLite here; PostgreSQL where the suite has it).

Each exported line replays through the engine to its stored result; the per-player API leaves out a running race's
game and a cup heat's before the cup is over; bad input is refused in words and changes nothing."""

from __future__ import annotations

import asyncio
import gzip
import http.client
import io
import json
import random
import sys
from pathlib import Path
from typing import Any

from arena_client import ArenaClient, connect_player
from arena_server import RunningArena
from boards_helpers import play, winning_moves
from racing import choose_move, open_race, server_board, wire_form
from serverprocess import REPO, run_command
from sqlalchemy import pool, text

from freecell_arena.commands.export import export
from freecell_arena.core.ports.reads import ExportFilter
from freecell_arena.engine import VARIANTS
from freecell_arena.engine.game_text import GameText
from freecell_arena.protocol.export import NDJSON, ExportGame
from freecell_arena.store.engine import create_engine

VERIFY = REPO / "docs" / "examples" / "verify_export.py"


async def sql(database_url: str, statement: str) -> list[Any]:
    engine = create_engine(database_url, poolclass=pool.NullPool)
    try:
        async with engine.begin() as connection:
            result = await connection.execute(text(statement))
            return list(result.all()) if result.returns_rows else []
    finally:
        await engine.dispose()


async def random_then_resign(arena: RunningArena, client: ArenaClient, game: dict[str, Any], moves: int,
                             rng: random.Random) -> None:  # fmt: skip
    for _ in range(moves):
        move = choose_move(server_board(arena.server, game["game_id"]), rng)
        if move is None:
            break
        reply = await client.request({"type": "move", "move": wire_form(game["variant"], move, False)})
        if reply["status"] != "playing":
            return
    assert (await client.request({"type": "resign"}))["type"] == "game_over"


async def solo_race(arena: RunningArena, client: ArenaClient, variant: str, rng: random.Random, **options: Any) -> str:
    """A race of one: a win of FreeCell deal 5, else random moves and a resign. Its room's code once it is over."""
    code, games = await open_race(client, [], variant, seed=5 if variant == "freecell" else None, **options)
    game = games[client.player_id]
    if variant == "freecell":
        await play(client, winning_moves("freecell", 5))
    else:
        await random_then_resign(arena, client, game, 12, rng)
    await client.expect("race_over", code=code)
    return code


def replays_to_its_result(line: dict[str, Any]) -> None:
    game = ExportGame.model_validate(line)  # the schema's model reads it back
    record = GameText.of(game.variant, game.seed, game.moves, autoplay=game.autoplay,
                         tags={"Result": game.result, "Moves": game.player_moves})  # fmt: skip
    replayed = record.check()  # the engine: every move legal, `won` iff the moves win, the move count
    assert replayed.cards_on_foundations == game.cards_on_foundations, line


async def exported(database_url: str, **wanted: Any) -> list[dict[str, Any]]:
    out = io.StringIO()
    await export(database_url, ExportFilter(**wanted), 2, out)  # batches of 2: the keyset paging is exercised
    return [json.loads(line) for line in out.getvalue().splitlines()]


async def test_every_exported_game_replays_to_its_stored_result(arena: RunningArena, tmp_path: Path) -> None:
    rng = random.Random(52)
    ada = await connect_player(arena.url, "ada")
    try:
        for variant in VARIANTS:
            await solo_race(arena, ada, variant, rng)
        await arena.server.writer.flush()
    finally:
        await ada.close()
    lines = await exported(arena.database_url)
    assert sorted(line["variant"] for line in lines) == sorted(VARIANTS)
    assert [line["finished_at"] for line in lines] == sorted(line["finished_at"] for line in lines), "oldest first"
    for line in lines:
        replays_to_its_result(line)
        assert line["deal"] == (int(line["seed"]) if line["variant"] == "freecell" else None)
        assert isinstance(line["seed"], str) and line["room_code"] and line["daily"] is None
    assert [line["result"] for line in lines if line["variant"] == "freecell"] == ["won"]
    assert [line["variant"] for line in await exported(arena.database_url, variant="cell-eleven")] == ["cell-eleven"]

    # the command as an operator runs it: gzip, then the docs' verification script (the SDK alone) over the file
    dump = tmp_path / "games.ndjson.gz"
    code, _, err = await run_command("export", "--database-url", arena.database_url, "--output", str(dump))
    assert code == 0 and "exported 5 games" in err, err
    assert not list(tmp_path.glob(".*.partial")), "the whole export took the file's name"
    with gzip.open(dump, "rt") as handle:
        assert [json.loads(line) for line in handle] == lines
    process = await asyncio.create_subprocess_exec(sys.executable, str(VERIFY), str(dump),
                                                   stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err_bytes = await process.communicate()
    assert process.returncode == 0 and "5 games replayed to their results" in out.decode(), err_bytes.decode()


def get(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        connection.close()


async def api(arena: RunningArena, path: str) -> tuple[int, dict[str, str], bytes]:
    return await asyncio.to_thread(get, arena.server.port, path)


async def test_the_api_streams_public_games_only_and_pages_back_in_time(arena: RunningArena) -> None:
    rng = random.Random(3)
    ada, bob = await connect_player(arena.url, "ada"), await connect_player(arena.url, "bob")
    try:
        codes = [await solo_race(arena, ada, "chinese-freecell", rng) for _ in range(3)]
        running, games = await open_race(ada, [bob], "freecell-four-deck")  # ada done, bob still racing
        await random_then_resign(arena, ada, games[ada.player_id], 2, rng)
        await arena.server.writer.flush()
        # a cup's heat: its seed sealed until the cup is over (as `core.competition.tournaments.owner` seals it)
        await sql(arena.database_url, "UPDATE rooms SET seed_sealed_until = '2999-01-01 00:00:00.000000' "
                                      f"WHERE code = '{codes[0]}'")  # fmt: skip

        status, headers, body = await api(arena, f"/api/players/{ada.player_id}/games?limit=1")
        assert status == 200 and headers["Content-Type"] == NDJSON, body
        first = [json.loads(line) for line in body.decode().splitlines()]
        assert [line["room_code"] for line in first] == [codes[2]], "newest first; the running race's game is not there"
        link = headers["Link"]
        assert link.startswith(f"</api/players/{ada.player_id}/games?before=") and link.endswith('>; rel="next"')
        status, headers, body = await api(arena, link[1:link.index(">")])
        assert status == 200 and "Link" not in headers, "the sealed heat is left out: this is the last page"
        assert [json.loads(line)["room_code"] for line in body.decode().splitlines()] == [codes[1]]
        every = [json.loads(line)["room_code"] for line in (await api(arena, f"/api/players/{ada.player_id}/games"))[2]
                 .decode().splitlines()]  # fmt: skip
        assert every == [codes[2], codes[1]] and running not in every and codes[0] not in every

        await sql(arena.database_url, f"UPDATE rooms SET seed_sealed_until = '2000-01-01 00:00:00.000000' "
                                      f"WHERE code = '{codes[0]}'")  # fmt: skip
        lines = (await api(arena, f"/api/players/{ada.player_id}/games"))[2].decode().splitlines()
        assert [json.loads(line)["room_code"] for line in lines] == [codes[2], codes[1], codes[0]], "the cup is over"
        assert (await api(arena, f"/api/players/{bob.player_id}/games"))[2] == b"", "bob's game runs still"
        assert running not in {line["room_code"] for line in await exported(arena.database_url)}
    finally:
        await ada.close()
        await bob.close()


async def test_bad_input_is_refused_in_words_and_changes_nothing(arena: RunningArena, tmp_path: Path) -> None:
    ada = await connect_player(arena.url, "ada")
    try:
        await solo_race(arena, ada, "freecell", random.Random(1))
        await arena.server.writer.flush()
    finally:
        await ada.close()
    counted = "SELECT (SELECT COUNT(*) FROM games), (SELECT COUNT(*) FROM moves), (SELECT COUNT(*) FROM players)"
    before = await sql(arena.database_url, counted)
    path = f"/api/players/{ada.player_id}/games"
    for query, status, words in [
        ("?limit=0", 400, "limit"), ("?limit=501", 400, "limit"), ("?before=yesterday", 400, "before"),
        ("?before=2026-12-01T00:00:00", 400, "UTC offset"), ("?before_id=g_1", 400, "before_id"),
        ("?cursor=x", 400, "unknown parameter"),
    ]:  # fmt: skip
        got, _, body = await api(arena, path + query)
        assert (got, json.loads(body)["type"]) == (status, "error") and words in json.loads(body)["message"], body
    got, _, body = await api(arena, "/api/players/p_nobody/games")
    assert got == 404 and json.loads(body)["code"] == "unknown_player"

    for args, words in [
        (("--from", "2026-02-30"), "--from takes a day"), (("--to", "soon"), "--to takes a day"),
        (("--from", "2026-12-01", "--to", "2026-11-01"), "is not before"), (("--variant", "spider"), "unknown variant"),
        (("--player", "p_nobody"), "there is no player"), (("--from", "2026-12-01T00:00:00"), "UTC offset"),
    ]:  # fmt: skip
        code, out, err = await run_command("export", "--database-url", arena.database_url, *args)
        assert code == 2 and out == "" and words in err, (args, err)
    # a refused export to a file leaves no file (nor a half one), and a file it would have replaced as it was
    dumps = tmp_path / "dumps"
    dumps.mkdir()
    last_month = dumps / "last-month.ndjson.gz"
    last_month.write_bytes(b"last month's dump")
    for output in (last_month, dumps / "this-month.ndjson"):
        code, _, err = await run_command("export", "--database-url", arena.database_url, "--player", "p_nobody",
                                         "--output", str(output))  # fmt: skip
        assert code == 2 and "there is no player" in err, err
    assert sorted(dumps.iterdir()) == [last_month] and last_month.read_bytes() == b"last month's dump"
    assert await sql(arena.database_url, counted) == before


def test_the_docs_show_the_script_the_tests_run() -> None:
    """docs/server.md prints the check script a reader copies: each of its statements is the tested file's."""
    docs = (REPO / "docs" / "server.md").read_text()
    block = docs.split('```python\n"""Check a FreeCell Arena export', 1)[1].split("```", 1)[0]
    script = {line.split("  #")[0].rstrip() for line in VERIFY.read_text().splitlines()}
    shown = [line.split("  #")[0].rstrip() for line in block.splitlines()[1:] if line.strip()]
    assert shown and [line for line in shown if line not in script] == []
