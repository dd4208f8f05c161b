"""What the database grows by, per 1,000 races, table by table, beside the whole database's size for the same races.

    python bench/growth.py                                   # SQLite, 300 races; about a minute
    python bench/growth.py --races 1000 --database postgres  # a throwaway PostgreSQL (tests/conftest.py's)

A real server (in this process, on a fresh database) carries `--races` races, each of two players on a deal the
server draws (ranked, so rated): a returning player (one of a pool of 20) and a newcomer who never comes back,
each playing `--moves` legal moves (the solver's line, as a bot plays; on until a card is home, so the race is
rated) then resigning; and beside each race a practice game: a
drive-by's unranked solo room, `--moves` moves, never back. Then, per table: its rows and its bytes (data and
indexes: SQLite's dbstat, PostgreSQL's pg_total_relation_size) per 1,000 races, and the whole database (the file
after a checkpoint, or pg_database_size) per 1,000 races, the baseline the tables add up to. Then `prune` (with
its clock a year on, so every idle unsaved player qualifies): what it deletes per 1,000 races, and the database
compacted before and after it (SQLite's VACUUM gives freed pages back to the file system, PostgreSQL's VACUUM
FULL too; without them the space is reused by later rows).
Passkey challenges and revoked tokens do not grow with races: their cost is per 1,000 rows. Traffic goes to
127.0.0.1 only, bounded by `--races`.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import random
import sqlite3
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "bench")]

from load import database_url  # noqa: E402
from sqlalchemy import func, insert, pool, select, text  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

from freecell_arena.core.records.review import solve_par  # noqa: E402
from freecell_arena.engine import FOUNDATION, format_move, variant_by_id  # noqa: E402
from freecell_arena.net.app import ArenaServer  # noqa: E402
from freecell_arena.settings import Settings  # noqa: E402
from freecell_arena.store import GroupCommitWriter, SqlStore, migrate  # noqa: E402
from freecell_arena.store.engine import create_engine  # noqa: E402
from freecell_arena.store.models import AccessToken, WebauthnChallenge, metadata, table_of  # noqa: E402
from freecell_arena.store.retention import Retention, RetentionStore  # noqa: E402
from freecell_arena.store.urls import parse_database_url  # noqa: E402

POOL = 20
PROGRESS_WITHIN = 200
PARALLEL = 10  # races at once (a divisor of POOL: each regular hosts in one lane only)
FREECELL = variant_by_id("freecell")
PER = 1000


class Player:
    """A websocket client that says hello and answers requests in order (one request at a time)."""

    def __init__(self, websocket: ClientConnection) -> None:
        self.websocket = websocket
        self.player_id = ""
        self.events: list[dict[str, Any]] = []

    @classmethod
    async def hello(cls, url: str, name: str) -> Player:
        player = cls(await connect(url, max_queue=None))
        welcome = await player.request({"type": "hello", "name": name})
        player.player_id = welcome["player_id"]
        return player

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        await self.websocket.send(json.dumps({**message, "id": 1}))
        while True:
            frame = json.loads(await self.websocket.recv())
            if frame.get("id") == 1:
                return frame
            self.events.append(frame)

    async def expect(self, kind: str) -> dict[str, Any]:
        for frame in self.events:
            if frame["type"] == kind:
                self.events.remove(frame)
                return frame
        while (frame := json.loads(await self.websocket.recv()))["type"] != kind:
            self.events.append(frame)
        return frame


@functools.cache
def par_line(seed: int) -> tuple[str, ...]:
    """The solver's line for the deal (what a review shows as par; empty when not found within 2 s)."""
    return solve_par("freecell", seed, budget_s=2.0).line or ()


async def play(server: ArenaServer, player: Player, moves: int, rng: random.Random) -> None:
    """Legal moves, then resign; the game's id from its `race_started`. The moves follow the solver's line, as a bot
    would play (random legal moves dead-end on many deals before a card is home), then random legal ones, cards home
    first; past `moves`, on until a card is home beyond the deal's opening (at most `PROGRESS_WITHIN` more): a race
    where nobody got one home changes no rating (`made_progress`), and the ratings' tables would grow by chance."""
    game_id = (await player.expect("race_started"))["game"]["game_id"]
    game = server.arena.games[game_id].game
    opening, line = game.cards_on_foundations, par_line(game.seed)
    for played in range(moves + PROGRESS_WITHIN):
        game = server.arena.games[game_id].game
        if played >= moves and game.cards_on_foundations > opening:
            break
        legal = list(game.board.legal_moves)
        if not legal:
            break
        home = [move for move in legal if move.to_zone == FOUNDATION]
        notation = line[played] if played < len(line) else format_move(FREECELL, rng.choice(home or legal))
        reply = await player.request({"type": "move", "move": notation})
        if reply["type"] != "move_accepted" or reply.get("status") in ("won", "stuck"):
            return
    await player.request({"type": "resign"})


async def race(server: ArenaServer, url: str, host: Player, serial: int, moves: int, rng: random.Random) -> None:
    newcomer = await Player.hello(url, f"newcomer {serial}")
    created = await host.request({"type": "create_room", "variant": "freecell", "options": {"countdown_s": 0}})
    await newcomer.request({"type": "join_room", "code": created["room"]["code"]})
    await host.request({"type": "start_race"})
    await asyncio.gather(play(server, host, moves, rng), play(server, newcomer, moves, rng))
    for player in (host, newcomer):
        await player.expect("race_over")
    await newcomer.websocket.close()
    drive_by = await Player.hello(url, f"drive-by {serial}")
    await drive_by.request({"type": "create_room", "variant": "freecell",
                            "options": {"countdown_s": 0, "ranked": False}})  # fmt: skip
    await drive_by.request({"type": "start_race"})
    await play(server, drive_by, moves, rng)
    await drive_by.expect("race_over")
    await drive_by.websocket.close()


async def sizes(url: str) -> tuple[dict[str, tuple[int, int]], int]:
    """(rows, bytes) of each table, indexes included, and the whole database's bytes."""
    if url.startswith("sqlite"):
        return sqlite_sizes(sqlite_file(url))
    engine = create_engine(url, poolclass=pool.NullPool)
    try:
        async with engine.connect() as connection:
            found = {}
            for name, table in metadata.tables.items():
                rows = (await connection.execute(select(func.count()).select_from(table))).scalar_one()
                size = (await connection.execute(text("SELECT pg_total_relation_size(:t)"), {"t": name})).scalar_one()
                found[name] = (int(rows), int(size))
            whole = (await connection.execute(text("SELECT pg_database_size(current_database())"))).scalar_one()
    finally:
        await engine.dispose()
    return found, int(whole)


def sqlite_file(url: str) -> str:
    return str(parse_database_url(url).database)


def sqlite_sizes(path: str) -> tuple[dict[str, tuple[int, int]], int]:
    """dbstat's pages of each table and of its indexes, after a checkpoint (the WAL's pages into the file)."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        owner = dict(connection.execute("SELECT name, tbl_name FROM sqlite_master").fetchall())
        size = dict.fromkeys(metadata.tables, 0)
        for name, used in connection.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
            if owner.get(name) in size:
                size[owner[name]] += int(used)
        found = {name: (connection.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0], size[name])
                 for name in metadata.tables}  # fmt: skip
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        page = connection.execute("PRAGMA page_size").fetchone()[0]
    finally:
        connection.close()
    return found, pages * page


async def compact(url: str) -> None:
    """Give the pages the deleted rows held back: SQLite's VACUUM, PostgreSQL's VACUUM FULL."""
    if url.startswith("sqlite"):
        connection = sqlite3.connect(sqlite_file(url), isolation_level=None)
        try:
            connection.execute("VACUUM")
        finally:
            connection.close()
        return
    engine = create_engine(url, poolclass=pool.NullPool, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as connection:
            await connection.exec_driver_sql("VACUUM FULL")
    finally:
        await engine.dispose()


async def add_rows(url: str, count: int) -> None:
    """`count` expired passkey challenges and `count` revoked tokens (of the first player), as real ones look."""
    engine = create_engine(url, poolclass=pool.NullPool)
    now = datetime.now(UTC)
    try:
        async with engine.begin() as connection:
            owner = (await connection.execute(text("SELECT id FROM players ORDER BY id LIMIT 1"))).scalar_one()
            await connection.execute(insert(table_of(WebauthnChallenge)), [
                {"challenge": f"{n:043d}", "ceremony": "register", "player_id": owner, "expires_at": now,
                 "user_handle": f"{n:043d}"} for n in range(count)])  # fmt: skip
            await connection.execute(insert(table_of(AccessToken)), [
                {"token_hash": f"{n:064x}", "player_id": owner, "kind": "session", "label": "Firefox on Linux",
                 "created_at": now, "last_used_at": now, "revoked_at": now} for n in range(count)])  # fmt: skip
    finally:
        await engine.dispose()


def mib(per_race_bytes: float) -> str:
    return f"{per_race_bytes * PER / 2**20:8.2f} MiB"


async def measure(url: str, races: int, moves: int) -> None:
    if url.startswith("sqlite"):
        await migrate(url)
    settings = Settings(host="127.0.0.1", port=0, database_url=url, rate_limit_per_s=1e6, rate_limit_burst=10**6,
                        max_connections_per_address=10**6, new_players_per_minute=1e9, daily_prepare_interval_s=0,
                        par_at_race_end=False)  # fmt: skip
    _, empty = await sizes(url)
    store = SqlStore(url)
    server = ArenaServer(settings, store, GroupCommitWriter(store))
    await server.start()
    address = f"ws://127.0.0.1:{server.port}/"
    pool_of = [await Player.hello(address, f"regular {n}") for n in range(POOL)]
    started = asyncio.get_running_loop().time()

    async def lane(first: int) -> None:
        """Every PARALLEL-th race, hosted in turn by the regulars of this lane (one request at a time each)."""
        for serial in range(first, races, PARALLEL):
            await race(server, address, pool_of[serial % POOL], serial, moves, random.Random(serial))

    await asyncio.gather(*(lane(first) for first in range(PARALLEL)))
    took = asyncio.get_running_loop().time() - started
    for player in pool_of:
        await player.websocket.close()
    await server.shutdown()

    tables, whole = await sizes(url)
    backend = "SQLite" if url.startswith("sqlite") else "PostgreSQL"
    print(f"growth: {races} races of two ({moves} moves each, rated) and {races} practice games ({moves} moves, "
          f"unranked, a drive-by's) on {backend}, in {took:.0f} s")  # fmt: skip
    print(f"{'table':22} {'rows per 1,000 races':>21} {'bytes per 1,000 races':>22} {'bytes a row':>12} {'share':>6}")
    for name, (rows, size) in sorted(tables.items(), key=lambda item: -item[1][1]):
        if rows:
            print(f"{name:22} {rows * PER / races:21,.0f} {mib(size / races):>22} {size / rows:12,.0f} "
                  f"{size / whole:6.0%}")  # fmt: skip
    print(f"{'the whole database':22} {'':21} {mib((whole - empty) / races):>22}   (what it grew by: from "
          f"{empty / 2**20:.1f} MiB empty and migrated to {whole / 2**20:.1f} MiB)")  # fmt: skip

    await compact(url)
    _, compacted = await sizes(url)
    retention = Retention(datetime.now(UTC) + timedelta(days=365), timedelta(days=30), timedelta(days=90))
    engine = create_engine(url, poolclass=pool.NullPool)
    try:
        pruned = await RetentionStore(engine).prune(retention, dry_run=False)
    finally:
        await engine.dispose()
    await compact(url)
    _, after = await sizes(url)
    gone = ", ".join(f"{count * PER / races:,.0f} {kind}" for kind, count in
                     (("players", pruned.players), ("games", pruned.games), ("moves", pruned.moves),
                      ("rooms", pruned.rooms)))  # fmt: skip
    vacuum = "VACUUM" if backend == "SQLite" else "VACUUM FULL"
    print(f"prune a year on (unsaved players idle 30 days, no ranked game): per 1,000 races {gone} go")
    print(f"the whole database's growth per 1,000 races after {vacuum}: {mib((compacted - empty) / races).strip()}; "
          f"after prune and {vacuum}: {mib((after - empty) / races).strip()}")  # fmt: skip

    before, _ = await sizes(url)
    await add_rows(url, PER)
    grown_to, _ = await sizes(url)
    for name, what in (("webauthn_challenges", "passkey challenges"), ("access_tokens", "revoked tokens")):
        grown = grown_to[name][1] - before[name][1]
        print(f"{what}: {grown / 1024:,.0f} KiB per 1,000 rows ({grown / PER:,.0f} bytes a row)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=300)
    parser.add_argument("--moves", type=int, default=40, help="moves each player plays before resigning (default 40)")
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    args = parser.parse_args()
    with database_url(args.database) as url:
        asyncio.run(measure(url, args.races, args.moves))


if __name__ == "__main__":
    main()
