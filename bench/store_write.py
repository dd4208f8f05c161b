"""CPU time of one `SqlStore.write` transaction of N move records on a fresh database (all threads counted).

    python bench/store_write.py                        # SQLite: 1, 10, 100, 400 records per transaction; ~20 s
    python bench/store_write.py --database postgres    # a throwaway PostgreSQL (its server's CPU not counted)

This is the group commit's transaction: at a few moves per batch its fixed cost is what a move pays, at hundreds
per batch the per-record cost. The median of many transactions is printed (a shared machine adds outliers).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1])]

from load import database_url  # noqa: E402

from freecell_arena.core.ports.records import GameRecord, MoveRecord, PlayerRecord  # noqa: E402
from freecell_arena.store.migrations import migrate  # noqa: E402
from freecell_arena.store.sql_store import SqlStore  # noqa: E402

GAMES = 400


async def measure(url: str) -> None:
    if url.startswith("sqlite"):
        await migrate(url)
    store = SqlStore(url)
    now = datetime.now(UTC)
    await store.write([PlayerRecord("p_bench", "bench", "h" * 64, False, now)])
    games = [GameRecord(f"g_{n}", None, "p_bench", "freecell", n, "1", True, True, False, now)
             for n in range(GAMES)]
    await store.write(games)
    next_index = dict.fromkeys((game.game_id for game in games), 0)
    for size in (1, 10, 100, GAMES):
        samples = []
        for _ in range(200 if size < 100 else 40):
            records = []
            for game in games[:size]:
                records.append(MoveRecord(game.game_id, next_index[game.game_id], "3a", datetime.now(UTC)))
                next_index[game.game_id] += 1
            start = time.process_time()
            await store.write(records)
            samples.append(time.process_time() - start)
        median = sorted(samples)[len(samples) // 2]
        print(f"{size:4d} records: {median * 1e6:6.0f} us CPU per transaction, "
              f"{median * 1e6 / size:6.1f} us per record", flush=True)
    await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    with database_url(parser.parse_args().database) as url:
        asyncio.run(measure(url))


if __name__ == "__main__":
    main()
