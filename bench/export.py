"""`freecell-arena export` of N finished games (default 100,000) beside a plain SELECT of the same rows, each in a
fresh process: wall time and peak memory (the child's maxrss, `os.wait4`).

    PYTHONPATH=$PWD/server:$PWD/clients/python python3 bench/export.py [--games 100000] [--moves 40]

The games go straight into a new SQLite file with the store's own tables (`migrate`, then bulk inserts: a bench,
not the server's write path): room-less finished games of the five variants, each with `--moves` stored actions
(the export does not replay them, so any text will do). The baseline reads the same games and moves with one
`SELECT ... JOIN moves ORDER BY` through the sqlite3 module and touches every row; the export must stay flat in
memory (keyset batches) and within a small factor of it in time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

VARIANTS = ("freecell", "chinese-freecell", "freecell-four-deck", "cell-eleven", "freecell-three-deck")
PLAYERS = 100
BASELINE = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1])
rows = connection.execute("SELECT g.*, m.notation FROM games g JOIN moves m ON m.game_id = g.id "
                          "WHERE g.outcome IS NOT NULL ORDER BY g.finished_at, g.id, m.\\"index\\"")
games = 0
last = None
for row in rows:
    if row[0] != last:
        games, last = games + 1, row[0]
print(games)
"""


def fill(path: Path, games: int, moves: int) -> None:
    from freecell_arena.store.migrations import migrate

    url = f"sqlite+aiosqlite:///{path}"
    asyncio.run(migrate(url))
    start = datetime(2026, 11, 1, tzinfo=UTC)
    stamp = "%Y-%m-%d %H:%M:%S.%f"
    connection = sqlite3.connect(path)
    with connection:
        connection.executemany("INSERT INTO players (id, display_name, token_hash, bot, created_at) VALUES (?,?,?,?,?)",
                               [(f"p_{n:016x}", f"Player {n}", f"{n:064x}", n % 2, start.strftime(stamp))
                                for n in range(PLAYERS)])  # fmt: skip
        for first in range(0, games, 10_000):
            game_rows, move_rows = [], []
            for n in range(first, min(games, first + 10_000)):
                began = start + timedelta(seconds=n)
                game_id = f"g_{n:016x}"
                game_rows.append((game_id, f"p_{n % PLAYERS:016x}", VARIANTS[n % 5], n + 1, "1", 1, 0, 0,
                                  began.strftime(stamp), (began + timedelta(seconds=90)).strftime(stamp), "resigned",
                                  moves, moves, 3, 90_000))  # fmt: skip
                move_rows += [(game_id, index, "3a", began.strftime(stamp)) for index in range(moves)]
            connection.executemany(
                "INSERT INTO games (id, player_id, variant, seed, rules_version, autoplay, undo_allowed, ranked, "
                "started_at, finished_at, outcome, player_moves, single_card_moves, cards_on_foundations, time_ms) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", game_rows)  # fmt: skip
            connection.executemany('INSERT INTO moves (game_id, "index", notation, at) VALUES (?,?,?,?)', move_rows)
    connection.close()


def measured(command: list[str]) -> tuple[float, float, str]:
    """Wall seconds, peak resident MiB (the child's own maxrss) and its standard output."""
    began = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - began
        child.returncode = os.waitstatus_to_exitcode(status)
        assert child.returncode == 0, command
        out.seek(0)
        return wall, usage.ru_maxrss / 1024, out.read().decode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--fill", metavar="FILE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.fill:
        fill(Path(args.fill), args.games, args.moves)
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "export.db"
        began = time.perf_counter()
        # in a child of its own: a child's maxrss starts at its parent's, so this process stays small
        subprocess.run([sys.executable, __file__, "--games", str(args.games), "--moves", str(args.moves),
                        "--fill", str(path)], check=True)  # fmt: skip
        print(f"{args.games:,} games of {args.moves} moves written in {time.perf_counter() - began:.1f} s "
              f"({path.stat().st_size / 2**20:.0f} MiB)")  # fmt: skip
        dump = Path(folder) / "games.ndjson"
        export = [sys.executable, "-m", "freecell_arena", "export", "--database-url", f"sqlite:///{path}",
                  "--output", str(dump)]  # fmt: skip
        select = [sys.executable, "-c", BASELINE, str(path)]
        wall, peak, _ = measured(export)
        lines = sum(1 for _ in dump.open())
        assert lines == args.games, lines
        base_wall, base_peak, counted = measured(select)
        assert int(counted) == args.games, counted
        print(f"export: {wall:.2f} s, peak {peak:.0f} MiB, {dump.stat().st_size / 2**20:.0f} MiB of NDJSON")
        print(f"SELECT: {base_wall:.2f} s, peak {base_peak:.0f} MiB")
        print(f"ratio: {wall / base_wall:.1f} x time, {peak / base_peak:.1f} x peak memory")


if __name__ == "__main__":
    main()
