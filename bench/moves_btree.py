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

    python bench/moves_btree.py --history 20000   # 2 million moves of finished games stored first

A third side is the layout that would keep the key's refusal without its page a move: the same append, and a
trigger that checks and advances a narrow row a live game holds (its next index), so a stale writer's row is
refused as the key refuses it now; a live game's rows would go under the key in one run when it ends (not
measured here: a game's rows together fill a leaf or two). The bench checks that the fence refuses a stale row.

The live games' ids are made as the server makes them (`core.identity.new_ordered_id`: by time, so they sort after
the history), and again as it made them before (64 random bits, among the history): with a history, a random id's
rows land anywhere in the whole key, and the keyed row costs more the longer the history is.
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
from datetime import UTC, datetime
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "server")]

from freecell_arena.core.identity import new_id, new_ordered_id  # noqa: E402
from freecell_arena.store.engine import sqlite_pragmas  # noqa: E402
from freecell_arena.store.migrations import migrate  # noqa: E402
from freecell_arena.store.sqlite_writer import WRITER_CACHE_KIB  # noqa: E402

AT = "2026-12-02 04:00:00.000000"
HISTORY_MOVES = 100
KEYED = 'INSERT INTO moves (game_id, "index", notation, at) VALUES (?, ?, ?, ?)'
APPENDED = 'INSERT INTO move_log (game_id, "index", notation, at) VALUES (?, ?, ?, ?)'
FENCED = 'INSERT INTO fenced_log (game_id, "index", notation, at) VALUES (?, ?, ?, ?)'
FENCE = (
    'CREATE TABLE fenced_log (id INTEGER PRIMARY KEY, game_id TEXT NOT NULL, "index" INTEGER NOT NULL, '
    "notation TEXT NOT NULL, at TEXT NOT NULL)",
    "CREATE TABLE live_games (game_id TEXT PRIMARY KEY, next_index INTEGER NOT NULL) WITHOUT ROWID",
    "CREATE TRIGGER fence AFTER INSERT ON fenced_log BEGIN "
    "SELECT RAISE(ABORT, 'stale writer') WHERE (SELECT next_index FROM live_games WHERE game_id = NEW.game_id) "
    'IS NOT NEW."index"; '
    'UPDATE live_games SET next_index = NEW."index" + 1 WHERE game_id = NEW.game_id; END',
)
"""The fenced log: each live game's row says which index comes next, and a row for any other is refused."""


def open_database(path: Path, pragmas: str) -> sqlite3.Connection:
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
    for statement in FENCE:
        connection.execute(statement)
    connection.execute("INSERT INTO players (id, display_name, token_hash, bot, created_at) "
                       "VALUES ('p_bench', 'bench', ?, 0, ?)", ("h" * 64, AT))  # fmt: skip
    return connection


def add_games(connection: sqlite3.Connection, ids: list[str], moves_each: int = 0) -> list[str]:
    """Games with these ids, each with its first `moves_each` moves stored (the history), in one transaction."""
    connection.execute("BEGIN IMMEDIATE")
    connection.executemany("INSERT INTO games (id, player_id, variant, seed, rules_version, autoplay, undo_allowed, "
                           "ranked, started_at) VALUES (?, 'p_bench', 'freecell', 1, '1', 1, 1, 0, ?)",
                           [(game_id, AT) for game_id in ids])  # fmt: skip
    connection.executemany(KEYED, ((game_id, index, "3a", AT) for game_id in ids for index in range(moves_each)))
    connection.execute("COMMIT")
    return ids


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


def refuses(connection: sqlite3.Connection, sql: str, row: tuple[str, int, str, str]) -> bool:
    """Whether storing `row` (an index already stored: a stale writer's) is refused, leaving nothing behind."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        connection.execute(sql, row)
    except sqlite3.IntegrityError:
        return True
    finally:
        connection.execute("ROLLBACK")
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rows", type=int, default=180, help="rows a commit (default %(default)s)")
    parser.add_argument("--commits", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pragmas", choices=("server", "sqlite"), default="server",
                        help="the server writer's checkpoint interval and page cache, or SQLite's defaults")
    parser.add_argument("--history", type=int, default=0, metavar="GAMES",
                        help="finished games of 100 moves stored first, with random ids (default %(default)s)")
    arguments = parser.parse_args()
    started_at = datetime.now(UTC)
    with tempfile.TemporaryDirectory() as folder:
        connection = open_database(Path(folder) / "arena.db", arguments.pragmas)
        add_games(connection, [new_id("g") for _ in range(arguments.history)], moves_each=HISTORY_MOVES)
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        ordered = add_games(connection, [new_ordered_id("g", started_at) for _ in range(arguments.games)])
        scattered = add_games(connection, [new_id("g") for _ in range(arguments.games)])
        moves = dict.fromkeys(ordered + scattered, 0)
        appended_moves = dict.fromkeys(ordered, 0)
        fenced_moves = dict.fromkeys(ordered, 0)
        connection.executemany("INSERT INTO live_games VALUES (?, 0)", [(game_id,) for game_id in ordered])
        figures: dict[str, list[float]] = {"appended (baseline)": [], "keyed, ids by time": [],
                                           "keyed, random ids": [], "appended, fenced": []}  # fmt: skip
        for _ in range(arguments.rounds):
            figures["appended (baseline)"].append(
                us_per_row(connection, APPENDED, ordered, appended_moves, arguments.commits, arguments.rows))
            figures["keyed, ids by time"].append(
                us_per_row(connection, KEYED, ordered, moves, arguments.commits, arguments.rows))
            figures["keyed, random ids"].append(
                us_per_row(connection, KEYED, scattered, moves, arguments.commits, arguments.rows))
            figures["appended, fenced"].append(
                us_per_row(connection, FENCED, ordered, fenced_moves, arguments.commits, arguments.rows))
        stale_refused = refuses(connection, FENCED, (ordered[0], fenced_moves[ordered[0]] - 1, "3a", AT))
        stored = [connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                  for table in ("move_log", "moves", "fenced_log")]  # fmt: skip
        connection.close()
    expected = arguments.rounds * arguments.commits * arguments.rows
    if stored != [expected, 2 * expected + arguments.history * HISTORY_MOVES, expected] or not stale_refused:
        raise SystemExit(f"stored {stored} rows (log, keyed, fenced), expected {expected} appended, twice that keyed "
                         f"beside the history and {expected} fenced; a stale row refused: {stale_refused}: the bench "
                         "is broken")  # fmt: skip
    print(f"{arguments.games} games, {arguments.rows} rows a commit, {arguments.commits} commits a run, SQLite "
          f"{sqlite3.sqlite_version}, {arguments.pragmas}'s page cache and checkpoint interval, a history of "
          f"{arguments.history * HISTORY_MOVES:,} moves")  # fmt: skip
    for name, runs in figures.items():
        listed = ", ".join(f"{run:.1f}" for run in runs)
        print(f"  {name:24s} median {statistics.median(runs):5.1f} us CPU a row: {listed}")
    base, keyed, scattered_keyed, fenced = (statistics.median(runs) for runs in figures.values())
    print(f"  the key costs {keyed - base:.1f} us a row more ({keyed / base:.1f} x); with random ids "
          f"{scattered_keyed - base:.1f} more ({scattered_keyed / base:.1f} x); the fence {fenced - base:.1f} more "
          f"({fenced / base:.1f} x)")


if __name__ == "__main__":
    main()
