"""Leaderboard reads on a million results: top 50 and around-me against a primary-key lookup, same run.

    PYTHONPATH=$PWD python3 bench/leaderboard.py [--entries 1000000] [--repeat 300] [--backend sqlite|postgres]

Loads `--entries` won ranked results (players, games, leaderboard entries and their bucket counts) into a
fresh SQLite file and into a throwaway PostgreSQL (started and stopped the way the test suite does it:
`tests/conftest.py::throwaway_postgres`), with most of them (90%) on ONE board, the worst case, and the rest
spread over 1000 boards of 100. Then, through the store layer the server uses (`SqlStore`), it times:

- the baseline: a primary-key lookup (`SqlStore.player`, a random player each time);
- top 50 of the big board (`LeaderboardReads.page`);
- a page of 50 deep in the board, after a cursor (one page + one rank);
- around-me (the player's row and 5 above, 5 below) for a player near rank 1, in the middle, and last;
- for contrast, the naive rank (`COUNT(*)` of the better entries) of the middle player, which the bucket
  counts exist to avoid.

Target: top 50 and around-me within 5 x the primary-key lookup. Bulk loading bypasses the store (COPY on
PostgreSQL, one executemany transaction on SQLite): it is set-up, not what is measured.
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
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from freecell_arena.core.records.leaderboard import count_buckets, deal_board, score  # noqa: E402
from freecell_arena.store import SqlStore, migrate  # noqa: E402

T0 = datetime(2026, 10, 1, tzinfo=UTC)
BIG_BOARD = deal_board("freecell", 1, False)
SMALL_BOARDS = 1000
AROUND = 5


class Data:
    """The results, generated deterministically; rows are produced table by table, never all at once."""

    def __init__(self, entries: int) -> None:
        rng = random.Random(2026)
        self.count = entries
        big = int(entries * 0.9)
        self.board_of = [0] * big + [1 + (i % SMALL_BOARDS) for i in range(entries - big)]
        self.moves = [45 + int(rng.gammavariate(2.0, 12.0)) for _ in range(entries)]
        self.time_ms = [int(rng.lognormvariate(12.5, 0.6)) for _ in range(entries)]
        month_ms = 30 * 86_400_000
        self.finished_ms = [rng.randrange(month_ms) for _ in range(entries)]
        for i in range(0, big, 997):  # some exact ties: same moves, time and finish instant as a neighbour
            self.moves[i + 1], self.time_ms[i + 1], self.finished_ms[i + 1] = (
                self.moves[i], self.time_ms[i], self.finished_ms[i]
            )  # fmt: skip
        self.boards = [BIG_BOARD] + [deal_board("freecell", 1 + n, False) for n in range(1, SMALL_BOARDS + 1)]

    def player_id(self, i: int) -> str:
        return f"p_{i:016x}"

    def game_id(self, i: int) -> str:
        return f"g_{i:016x}"

    def finished(self, i: int) -> datetime:
        return T0 + timedelta(milliseconds=self.finished_ms[i])

    def score(self, i: int) -> int:
        return score(self.moves[i], self.time_ms[i])

    def players(self) -> Iterator[tuple[Any, ...]]:
        for i in range(self.count):
            yield (self.player_id(i), f"Player {i}", f"{i:064x}", False, T0)

    def games(self) -> Iterator[tuple[Any, ...]]:
        for i in range(self.count):
            finished = self.finished(i)
            started = finished - timedelta(milliseconds=self.time_ms[i])
            board = self.boards[self.board_of[i]]
            seed = 1 + self.board_of[i]
            yield (self.game_id(i), None, self.player_id(i), "freecell", seed, "1", True, True, True, started,
                   finished, "won", self.moves[i], self.moves[i], 52, self.time_ms[i], board, None)  # fmt: skip

    def entries(self) -> Iterator[tuple[Any, ...]]:
        for i in range(self.count):
            yield (self.boards[self.board_of[i]], self.player_id(i), self.game_id(i), self.moves[i],
                   self.time_ms[i], self.finished(i), self.score(i))  # fmt: skip

    def counts(self) -> list[tuple[str, int, int, int]]:
        tally: Counter[tuple[str, int, int]] = Counter()
        for i in range(self.count):
            board = self.boards[self.board_of[i]]
            for level, bucket in count_buckets(self.score(i)):
                tally[(board, level, bucket)] += 1
        return sorted((board, level, bucket, n) for (board, level, bucket), n in tally.items())

    def big_board_order(self) -> list[int]:
        """Indexes of the big board's entries in board order."""
        big = [i for i in range(self.count) if self.board_of[i] == 0]
        return sorted(big, key=lambda i: (self.score(i), self.finished_ms[i], self.player_id(i)))


GAME_COLUMNS = ["id", "room_id", "player_id", "variant", "seed", "rules_version", "autoplay", "undo_allowed", "ranked",
                "started_at", "finished_at", "outcome", "player_moves", "single_card_moves", "cards_on_foundations",
                "time_ms", "board", "daily_day"]  # fmt: skip
TABLES = {
    "players": ["id", "display_name", "token_hash", "bot", "created_at"],
    "games": GAME_COLUMNS,
    "leaderboard_entries": ["board", "player_id", "game_id", "player_moves", "time_ms", "finished_at", "score"],
    "leaderboard_counts": ["board", "level", "bucket", "entries"],
}


def rows_of(data: Data, table: str) -> Any:
    return {"players": data.players, "games": data.games, "leaderboard_entries": data.entries,
            "leaderboard_counts": data.counts}[table]()  # fmt: skip


# ---------------------------------------------------------------- bulk loads (set-up, not measured)


def sqlite_value(value: Any) -> Any:
    if isinstance(value, datetime):  # SQLAlchemy's SQLite storage: naive UTC text with microseconds
        return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    return value


def load_sqlite(path: Path, data: Data) -> None:
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA synchronous = OFF")  # bulk load only; the server runs FULL
        connection.execute("BEGIN")
        for table, columns in TABLES.items():
            marks = ", ".join("?" for _ in columns)
            statement = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
            connection.executemany(statement, (tuple(sqlite_value(v) for v in row) for row in rows_of(data, table)))
        connection.execute("COMMIT")
        connection.execute("ANALYZE")
    finally:
        connection.close()


async def load_postgres(url: str, data: Data) -> None:
    import asyncpg

    dsn = url.replace("postgresql+asyncpg://", "postgresql://")
    connection = await asyncpg.connect(dsn, timeout=30)
    try:
        for table, columns in TABLES.items():
            await connection.copy_records_to_table(table, records=rows_of(data, table), columns=columns)
        await connection.execute("ANALYZE")
    finally:
        await connection.close()


# ---------------------------------------------------------------- measuring


async def timed(repeat: int, call: Callable[[int], Awaitable[Any]]) -> list[float]:
    for n in range(min(20, repeat)):  # warm-up: connections, statement caches
        await call(n)
    samples = []
    for n in range(repeat):
        start = time.perf_counter()
        await call(n)
        samples.append((time.perf_counter() - start) * 1e6)
    return samples


async def measure(url: str, data: Data, repeat: int) -> list[tuple[str, list[float]]]:
    store = SqlStore(url)
    reads = store.leaderboards
    order = data.big_board_order()
    rng = random.Random(7)
    someone = [data.player_id(rng.randrange(data.count)) for _ in range(repeat + 20)]
    near_first, middle, last = (data.player_id(order[i]) for i in (2, len(order) // 2, len(order) - 1))
    deep = order[len(order) // 2]
    after = (data.score(deep), data.finished(deep), data.player_id(deep))
    try:
        results = [("primary-key lookup (baseline)", await timed(repeat, lambda n: store.player(someone[n])))]
        results.append(("top 50", await timed(repeat, lambda n: reads.page(BIG_BOARD, 50))))
        results.append(("page of 50 after a cursor at the middle", await timed(repeat, lambda n: reads.page(
            BIG_BOARD, 50, after))))  # fmt: skip
        for label, player in (("near rank 1", near_first), ("middle", middle), ("last", last)):
            page = await reads.around(BIG_BOARD, player, AROUND, AROUND)
            assert page is not None and any(row.entry.player_id == player for row in page.rows)
            rank = next(row.rank for row in page.rows if row.entry.player_id == player)
            results.append((f"around-me, {label} (rank {rank})",
                            await timed(repeat, lambda n, p=player: reads.around(BIG_BOARD, p, AROUND, AROUND))))
        results.append(("naive rank: COUNT(*) of better entries, middle (contrast)",
                        await timed(max(5, repeat // 20), lambda n: naive_rank(store, after))))  # fmt: skip
    finally:
        await store.close()
    return results


async def naive_rank(store: SqlStore, key: tuple[int, datetime, str]) -> int:
    from sqlalchemy import func, select, tuple_

    from freecell_arena.store.leaderboards import entries

    async with store.engine.connect() as connection:
        query = select(func.count()).where(
            entries.c.board == BIG_BOARD, tuple_(entries.c.score, entries.c.finished_at) < tuple_(*key[:2])
        )
        return int((await connection.execute(query)).scalar_one())


def report(backend: str, load_s: float, results: list[tuple[str, list[float]]]) -> None:
    baseline = statistics.median(results[0][1])
    print(f"\n{backend}: loaded in {load_s:.0f} s; median and p90 over the repeats, in microseconds")
    print(f"| {backend} | median µs | p90 µs | x baseline |")
    print("|---|---:|---:|---:|")
    for label, samples in results:
        median = statistics.median(samples)
        p90 = statistics.quantiles(samples, n=10)[-1] if len(samples) >= 10 else max(samples)
        print(f"| {label} | {median:,.0f} | {p90:,.0f} | {median / baseline:.1f} |")


async def run_sqlite(data: Data, repeat: int) -> None:
    with tempfile.TemporaryDirectory(prefix="freecell-arena-bench-") as directory:
        path = Path(directory) / "bench.db"
        url = f"sqlite+aiosqlite:///{path}"
        await migrate(url)
        started = time.perf_counter()
        await asyncio.to_thread(load_sqlite, path, data)
        load_s = time.perf_counter() - started
        report("SQLite", load_s, await measure(url, data, repeat))


async def run_postgres(data: Data, repeat: int) -> None:
    sys.path.insert(0, str(REPO / "tests"))
    from conftest import throwaway_postgres  # the test suite's throwaway PostgreSQL, reused

    with throwaway_postgres() as server:
        url = server.url(server.create_database())
        await migrate(url)
        started = time.perf_counter()
        await load_postgres(url, data)
        load_s = time.perf_counter() - started
        report("PostgreSQL", load_s, await measure(url, data, repeat))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entries", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument("--backend", choices=["sqlite", "postgres", "both"], default="both")
    args = parser.parse_args()
    started = time.perf_counter()
    data = Data(args.entries)
    print(f"{args.entries:,} results ({int(args.entries * 0.9):,} on one board, the rest on {SMALL_BOARDS} boards); "
          f"generated in {time.perf_counter() - started:.0f} s")  # fmt: skip
    if args.backend in ("sqlite", "both"):
        asyncio.run(run_sqlite(data, args.repeat))
    if args.backend in ("postgres", "both"):
        asyncio.run(run_postgres(data, args.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
