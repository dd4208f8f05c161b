"""`freecell-arena audit` as a real process on a database filled by a real server (SQLite and PostgreSQL): clean
data passes; a corrupted move, a corrupted move count and a corrupted leaderboard count are each caught."""

from __future__ import annotations

import pytest
from arena_client import connect_player
from arena_server import RunningArena
from boards_helpers import play, winning_moves
from serverprocess import run_command
from sqlalchemy import pool, text

from freecell_arena.commands.audit import audit as audit_in_process
from freecell_arena.store.engine import create_engine

SEED = 5


async def audit(database_url: str, *extra: str) -> tuple[int, list[str], str]:
    code, out, err = await run_command("audit", "--database-url", database_url, *extra, timeout=60)
    return code, out.splitlines(), err


async def sql(database_url: str, statement: str) -> None:
    engine = create_engine(database_url, poolclass=pool.NullPool)
    try:
        async with engine.begin() as connection:
            await connection.execute(text(statement))
    finally:
        await engine.dispose()


async def audited_here(database_url: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The same audit in this process (quicker than a process per check); its report lines."""
    capsys.readouterr()
    await audit_in_process(database_url, 100)
    return capsys.readouterr().out.splitlines()


async def test_the_audit_replays_ranked_games_and_catches_corruption(
    arena: RunningArena, capsys: pytest.CaptureFixture[str]
) -> None:
    ada, bob = await connect_player(arena.url, "ada"), await connect_player(arena.url, "bob")
    try:
        created = await ada.request({"type": "create_room", "variant": "freecell", "seed": SEED,
                                     "options": {"countdown_s": 0.05}})  # fmt: skip
        await bob.request({"type": "join_room", "code": created["room"]["code"]})
        await ada.request({"type": "start_race"})
        game = (await ada.expect("race_started"))["game"]
        await bob.expect("race_started")
        moves = winning_moves("freecell", SEED)
        played = [moves[0], "undo", *moves]
        assert (await play(ada, played))["status"] == "won"
        await play(bob, moves[:3])
        assert (await bob.request({"type": "resign"}))["outcome"] == "resigned"
        await arena.server.writer.flush()
    finally:
        await ada.close()
        await bob.close()
    url, game_id = arena.database_url, game["game_id"]

    code, lines, summary = await audit(url, "--batch", "1")
    assert (code, lines) == (0, []), summary
    assert "audited 2 ranked games and 1 leaderboard entries: no mismatch; 1 win flagged as implausible" in summary
    assert f"flagged: game {game_id} of player {ada.player_id} on freecell/deal/{SEED}/bots:" in summary, (
        "ada won at machine speed: kept, flagged, on the bots' side")  # fmt: skip

    assert played[6] != played[4]
    await sql(url, f"UPDATE moves SET notation = '{played[6]}' WHERE game_id = '{game_id}' AND \"index\" = 4")
    code, lines, _ = await audit(url)
    assert code == 1 and lines and all(line.startswith(f"game {game_id}:") for line in lines), lines
    await sql(url, f"UPDATE moves SET notation = '{played[4]}' WHERE game_id = '{game_id}' AND \"index\" = 4")

    await sql(url, f"UPDATE games SET player_moves = player_moves - 2 WHERE id = '{game_id}'")
    lines = await audited_here(url, capsys)
    assert f"game {game_id}: player_moves stored {len(played) - 2}, the replay gives {len(played)}" in lines, lines
    assert any(line.startswith("entry ") for line in lines), "the entry no longer matches its game either"
    await sql(url, f"UPDATE games SET player_moves = player_moves + 2 WHERE id = '{game_id}'")

    await sql(url, "UPDATE leaderboard_counts SET entries = entries + 1 WHERE level = 3")
    lines = await audited_here(url, capsys)
    assert lines == [line for line in lines if line.startswith("counts freecell/deal/5/bots level 3")]  # flagged
    assert lines and "stored 2, the entries say 1" in lines[0], lines
