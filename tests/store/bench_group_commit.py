"""Benchmark: group commit against one transaction per move, on SQLite and on a throwaway PostgreSQL.

    python3 tests/store/bench_group_commit.py [--players 100] [--moves 20]

Each simulated player awaits each move before sending the next (as a real client waits for its ack), all
players at once, through one SqlStore. Not a test (no assertions, not collected): it prints figures for
docs/storage.md. Takes a few seconds; the PostgreSQL part is skipped when PostgreSQL is not installed.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import pwd
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1]), str(HERE.parent), str(HERE)]

from conftest import PostgresServer, free_port, postgres_bindir  # noqa: E402
from store_builders import game, player  # noqa: E402

from freecell_arena.core.ports.records import MoveRecord  # noqa: E402
from freecell_arena.store import GroupCommitWriter, SqlStore, migrate  # noqa: E402


async def measure(url: str, mode: str, players: int, moves: int) -> str:
    await migrate(url)
    store = SqlStore(url)
    games = [game(n, player(n)) for n in range(players)]
    await store.write([record for played in games for record in (player(int(played.game_id[2:], 16)), played)])
    writer = GroupCommitWriter(store)

    async def play(game_id: str) -> None:
        for index in range(moves):
            record = MoveRecord(game_id, index, "3a", datetime.now(UTC))
            await (writer.submit(record) if mode == "group-commit" else store.write([record]))

    started = time.perf_counter()
    await asyncio.gather(*(play(played.game_id) for played in games))
    elapsed = time.perf_counter() - started
    await writer.close()
    await store.close()
    total = players * moves
    transactions = writer.transactions if mode == "group-commit" else total
    return f"{store.backend:>10} {mode:>13}: {total} moves in {elapsed:.2f} s = {total / elapsed:>8,.0f} moves/s, " \
        f"{transactions} transactions"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args()
    modes = ("per-record", "group-commit")
    scratch = Path(tempfile.mkdtemp(prefix="freecell-arena-bench-"))
    try:
        for mode in modes:
            print(asyncio.run(measure(f"sqlite:///{scratch / mode}.db", mode, args.players, args.moves)))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    bindir = postgres_bindir()
    if bindir is None:
        print("PostgreSQL not installed: skipped")
        return
    base = Path(tempfile.mkdtemp(prefix="freecell-arena-pg-"))
    as_postgres: list[str] = []
    if os.geteuid() == 0:
        account = pwd.getpwnam("postgres")
        os.chown(base, account.pw_uid, account.pw_gid)
        as_postgres = ["runuser", "-u", "postgres", "--"]
    server = PostgresServer(bindir, base, free_port(), as_postgres, itertools.count(1))
    try:
        server.run("initdb", "-D", str(server.data), "-A", "trust", "-U", "postgres", "--no-sync")
        server.start()
        try:
            for mode in modes:
                print(asyncio.run(measure(server.url(server.create_database()), mode, args.players, args.moves)))
        finally:
            server.stop()
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
