"""CPU of storing a move row as the server does, beside appending the same row to a log with no key (the baseline,
in the same run, on the same file): what the moves table's key by (game, index) costs once many games interleave.

    python bench/moves_btree.py                 # 1,000 live games, 180 moves a commit (the server's batches at
                                                # 1,000 connections), 400 commits each way, alternated 3 times
    python bench/moves_btree.py --pragmas sqlite   # SQLite's own page cache and checkpoint interval instead

Both sides are plain `sqlite3` in one thread, opened as the server's writer opens its connection (WAL,
synchronous=FULL, foreign keys on, its checkpoint interval and page cache: `--pragmas server`, the default), or with
SQLite's own checkpoint interval (1,000 pages) and page cache (2 MiB) instead (`--pragmas sqlite`); the keyed side
is the `moves` table the migrations create (its primary key and the foreign key to `games`), the baseline a rowid
table with the same columns (what the Colyseus peer and our durable echo append to). A commit carries the moves of
as many games as it has rows, as under load: the key puts each game's rows together, so a commit touches a page of
the b-tree per game, where an append touches one or two pages in all.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "server")]

from freecell_arena.store.engine import sqlite_pragmas  # noqa: E402
from freecell_arena.store.migrations import migrate  # noqa: E402
from freecell_arena.store.sqlite_writer import WRITER_CACHE_KIB  # noqa: E402

AT = "2026-12-02 04:00:00.000000"
KEYED = 'INSERT INTO moves (game_id, "index", notation, at) VALUES (?, ?, ?, ?)'
APPENDED = 'INSERT INTO move_log (game_id, "index", notation, at) VALUES (?, ?, ?, ?)'


def open_database(path: Path, games: int, pragmas: str) -> tuple[sqlite3.Connection, list[str]]:
    asyncio.run(migrate(f"sqlite+aiosqlite:///{path}"))
    connection = sqlite3.connect(path, isolation_level=None)
    for pragma in sqlite_pragmas():
        connection.execute(pragma)
    if pragmas == "server":
        connection.execute(f"PRAGMA cache_size = -{WRITER_CACHE_KIB}")
    else:
        connection.execute("PRAGMA wal_autocheckpoint = 1000")
    connection.execute('CREATE TABLE move_log (id INTEGER PRIMARY KEY, game_id TEXT NOT NULL, "index" INTEGER NOT '
                       "NULL, notation TEXT NOT NULL, at TEXT NOT NULL)")  # fmt: skip
    connection.execute("INSERT INTO players (id, display_name, token_hash, bot, created_at) "
                       "VALUES ('p_bench', 'bench', ?, 0, ?)", ("h" * 64, AT))  # fmt: skip
    ids = [f"g_{random.getrandbits(64):016x}" for _ in range(games)]  # as `core.identity.new_id` makes them
    connection.executemany("INSERT INTO games (id, player_id, variant, seed, rules_version, autoplay, undo_allowed, "
                           "ranked, started_at) VALUES (?, 'p_bench', 'freecell', 1, '1', 1, 1, 0, ?)",
                           [(game_id, AT) for game_id in ids])  # fmt: skip
    return connection, ids


def us_per_row(connection: sqlite3.Connection, sql: str, ids: list[str], moves: dict[str, int], commits: int,
               rows: int) -> float:  # fmt: skip
    chooser = random.Random(1)
    started = time.process_time()
    for _ in range(commits):
        batch = []
        for game_id in chooser.sample(ids, rows):  # each row a different game, as in a batch under load
            batch.append((game_id, moves[game_id], "3a", AT))
            moves[game_id] += 1
        connection.execute("BEGIN IMMEDIATE")
        connection.executemany(sql, batch)
        connection.execute("COMMIT")
    return (time.process_time() - started) / (commits * rows) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rows", type=int, default=180, help="rows a commit (default %(default)s)")
    parser.add_argument("--commits", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pragmas", choices=("server", "sqlite"), default="server",
                        help="the server writer's checkpoint interval and page cache, or SQLite's defaults")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        connection, ids = open_database(Path(folder) / "arena.db", arguments.games, arguments.pragmas)
        keyed_moves, appended_moves = dict.fromkeys(ids, 0), dict.fromkeys(ids, 0)
        figures: dict[str, list[float]] = {"appended (baseline)": [], "keyed by (game, index)": []}
        for _ in range(arguments.rounds):
            figures["appended (baseline)"].append(
                us_per_row(connection, APPENDED, ids, appended_moves, arguments.commits, arguments.rows))
            figures["keyed by (game, index)"].append(
                us_per_row(connection, KEYED, ids, keyed_moves, arguments.commits, arguments.rows))
        stored = [connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in ("move_log", "moves")]
        connection.close()
    expected = arguments.rounds * arguments.commits * arguments.rows
    if stored != [expected, expected]:
        raise SystemExit(f"stored {stored} rows (log, keyed), expected {expected} each: the bench is broken")
    print(f"{arguments.games} games, {arguments.rows} rows a commit, {arguments.commits} commits a run, SQLite "
          f"{sqlite3.sqlite_version}, {arguments.pragmas}'s page cache and checkpoint interval")  # fmt: skip
    for name, runs in figures.items():
        listed = ", ".join(f"{run:.1f}" for run in runs)
        print(f"  {name:24s} median {statistics.median(runs):5.1f} us CPU a row: {listed}")
    base, keyed = (statistics.median(runs) for runs in figures.values())
    print(f"  the key costs {keyed - base:.1f} us a row more ({keyed / base:.1f} x)")


if __name__ == "__main__":
    main()
