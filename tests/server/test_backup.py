"""Backups that restore (commands/backup.py), on SQLite and PostgreSQL: `freecell-arena backup` taken while a real
server carries races of players moving as fast as it answers, restored into a fresh file or database as
docs/server.md says, passes `freecell-arena audit` and holds every move acknowledged before the backup began."""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from arena_client import ArenaClient, connect_player
from arena_server import started_arena
from racing import choose_move, open_race, server_board
from serverprocess import run_command
from websockets.exceptions import ConnectionClosed

from freecell_arena.cli import build_parser
from freecell_arena.engine import format_move, variant_by_id
from freecell_arena.net.app import ArenaServer
from freecell_arena.store import SqlStore, migrate

PAIRS = 3
MOVES_A_GAME = 25
NEVER_RATED = "finished, rateable and never rated"
FREECELL = variant_by_id("freecell")


async def play_game(server: ArenaServer, player: ArenaClient, game_id: str, rng: random.Random,
                    acknowledged: dict[str, list[str]]) -> None:  # fmt: skip
    """Legal moves (chosen with the engine, as a bot would) as fast as the server answers, then resign."""
    actions = acknowledged.setdefault(game_id, [])
    for _ in range(MOVES_A_GAME):
        move = choose_move(server_board(server, game_id), rng)
        if move is None:
            break
        reply = await player.request({"type": "move", "move": format_move(FREECELL, move)})
        if reply["type"] != "move_accepted":
            return  # the game ended (won, stuck) with the move before
        actions.append(reply["action"])
        if reply.get("status") in ("won", "stuck"):
            return
    await player.request({"type": "resign"})


async def keep_racing(server: ArenaServer, url: str, pair: int, acknowledged: dict[str, list[str]],
                      stop: asyncio.Event) -> int:  # fmt: skip
    """Races of two on deals the server draws (so each is rated), one after the other until `stop`."""
    rng = random.Random(pair)
    host, rival = await connect_player(url, f"host{pair}"), await connect_player(url, f"rival{pair}")
    races = 0
    try:
        while not stop.is_set():
            code, games = await open_race(host, [rival], "freecell", autoplay=False)
            await asyncio.gather(*(play_game(server, client, games[client.player_id]["game_id"], rng, acknowledged)
                                   for client in (host, rival)))  # fmt: skip
            for client in (host, rival):
                await client.expect("race_over", code=code, timeout=30)
            races += 1  # the next create_room and join_room leave this finished room
    except ConnectionClosed:
        pass  # the server stopped under the last race
    finally:
        for client in (host, rival):
            with contextlib.suppress(Exception):
                await client.close()
    return races


async def restore(backup: Path, database_url: str, tmp_path: Path, postgres: object) -> str:
    """docs/server.md's restore: the backup file copied to a fresh SQLite file, or pg_restore into a fresh
    PostgreSQL database. The restored database's URL."""
    if database_url.startswith("sqlite"):
        restored = tmp_path / "restored.db"
        shutil.copyfile(backup, restored)
        return f"sqlite+aiosqlite:///{restored}"
    name = postgres.create_database()  # type: ignore[attr-defined]
    url: str = postgres.url(name)  # type: ignore[attr-defined]
    libpq = url.replace("postgresql+asyncpg://", "postgresql://")
    pg_restore = shutil.which("pg_restore")
    assert pg_restore is not None, "PostgreSQL's client tools come with the server the suite runs"
    done = await asyncio.to_thread(subprocess.run, [pg_restore, "--no-owner", "--no-privileges", "--exit-on-error",
                                                    f"--dbname={libpq}", str(backup)],
                                   capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return url


async def test_a_backup_under_load_restores_audits_clean_and_keeps_every_acknowledged_move(
    database_url: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    acknowledged: dict[str, list[str]] = {}
    stop = asyncio.Event()
    backup = tmp_path / "arena.backup"
    async with started_arena(database_url) as server:
        url = f"ws://127.0.0.1:{server.port}/"
        load = [asyncio.create_task(keep_racing(server, url, pair, acknowledged, stop)) for pair in range(PAIRS)]
        async with asyncio.timeout(60):
            while sum(map(len, acknowledged.values())) < 150:  # several races in, every pair mid-game
                await asyncio.sleep(0.05)
        before = {game_id: list(actions) for game_id, actions in acknowledged.items()}  # all durable by now
        code, out, err = await run_command("backup", str(backup), "--database-url", database_url)
        assert code == 0 and f"to {backup}" in out, err
        await asyncio.sleep(0.3)  # the load goes on after it
        stop.set()
        races = await asyncio.gather(*load)
    assert sum(races) >= PAIRS, "races finished (and were rated) while the backup was taken"

    postgres = None if database_url.startswith("sqlite") else request.getfixturevalue("postgres_server")
    restored = await restore(backup, database_url, tmp_path, postgres)
    store = SqlStore(restored)
    try:
        for game_id, actions in before.items():
            stored = await store.game(game_id)
            assert stored is not None, f"game {game_id}, acknowledged before the backup, is not in it"
            assert [move.notation for move in stored.moves][: len(actions)] == actions, game_id
    finally:
        await store.close()

    code, out, err = await run_command("audit", "--database-url", restored)
    # a race whose finish was committed in the instant before the backup, and rated an instant after, is in the
    # backup unrated: the only thing the audit may name, and the first server started on the copy rates it
    assert all(line.endswith(NEVER_RATED) for line in out.splitlines()), out
    if code != 0:
        async with started_arena(restored) as server:  # its rating sweep at start
            async with asyncio.timeout(30):
                while [race async for race in server.store.ratings.unrated_races()]:
                    await asyncio.sleep(0.1)
        code, out, err = await run_command("audit", "--database-url", restored)
    assert (code, out) == (0, ""), err


async def test_a_backup_never_overwrites_and_says_why_it_was_not_taken(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "arena.db"
    await migrate(f"sqlite+aiosqlite:///{database}")
    taken = tmp_path / "taken.backup"
    taken.write_text("an earlier backup")
    missing = tmp_path / "missing.db"
    for target, source, reason in (
        (taken, database, f"{taken} exists: give a new path"),
        (tmp_path / "new.backup", missing, f"there is no SQLite file {missing}"),
        (tmp_path / "no" / "such" / "folder", database, "does not exist"),
    ):
        args = build_parser(["backup"]).parse_args(["backup", str(target), "--database-url", f"sqlite:///{source}"])
        capsys.readouterr()
        assert args.run(args) == 2
        out, err = capsys.readouterr()
        assert out == "" and reason in err and len(err.splitlines()) == 1, err
    assert taken.read_text() == "an earlier backup" and not missing.exists(), "nothing written, nothing created"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["arena.db", "taken.backup"], "no partial file left"
