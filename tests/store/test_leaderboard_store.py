"""Leaderboards in the database (SQLite and PostgreSQL): the best entry kept, ranks with ties, pages and
around-me checked against a brute force, counts kept exact, and every read an index range, never a scan."""

from __future__ import annotations

import itertools
import random
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import event, pool, text
from store_builders import T0, player

from freecell_arena.core.ports.reads import BoardPage
from freecell_arena.core.ports.records import BoardClaim, GameRecord, Record, ResultRecord
from freecell_arena.core.records.leaderboard import score
from freecell_arena.store import SqlStore
from freecell_arena.store.engine import create_engine

BOARD = "freecell/deal/42/humans"


def ranked_game(n: int, player_n: int, board: str = BOARD) -> GameRecord:
    return GameRecord(f"g_{n:016x}", None, player(player_n).player_id, "freecell", 42, "1", True, True, True,
                      T0, board=board)  # fmt: skip


def won(game: GameRecord, moves: int, time_ms: int, finished_at: datetime) -> ResultRecord:
    assert game.board is not None
    return ResultRecord(game.game_id, "won", moves, moves, 52, time_ms, finished_at,
                        claim=BoardClaim(game.board, game.player_id))  # fmt: skip


class Board:
    """Results written through SqlStore.write, and what a brute force says the board must be."""

    def __init__(self) -> None:
        self.best: dict[str, tuple[int, datetime, str]] = {}
        self.games = 0

    def results(self, plays: list[tuple[int, int, int, datetime]]) -> list[Record]:
        records: list[Record] = []
        for player_n, moves, time_ms, finished_at in plays:
            self.games += 1
            game = ranked_game(self.games, player_n)
            records += [game, won(game, moves, time_ms, finished_at)]
            key = (score(moves, time_ms), finished_at, game.player_id)
            if game.player_id not in self.best or key[:2] < self.best[game.player_id][:2]:
                self.best[game.player_id] = key
        return records

    def expected(self) -> list[tuple[int, int, str]]:
        """(rank, position, player_id) in board order."""
        order = sorted(self.best.values())
        return [
            (1 + sum(1 for other in order if other[:2] < key[:2]), position, key[2])
            for position, key in enumerate(order, start=1)
        ]


def numbered(page: BoardPage) -> list[tuple[int, int, str]]:
    return [(row.rank, row.position, row.entry.player_id) for row in page.rows]


def plays_with_ties(rng: random.Random, players: int) -> list[tuple[int, int, int, datetime]]:
    plays = []
    for n in range(1, players + 1):
        moves = rng.choice([48, 50, 50, 50, 52, 60, 75])
        time_ms = rng.choice([30_000, 30_000, 31_000, 45_500, rng.randint(20_000, 900_000)])
        finished = T0 + timedelta(seconds=rng.choice([600, 600, 601, rng.randint(0, 5000)]))
        plays.append((n, moves, time_ms, finished))
    return plays


async def test_best_entry_ranks_pages_and_around_me_match_a_brute_force(database_url: str) -> None:
    store = SqlStore(database_url)
    board = Board()
    rng = random.Random(11)
    try:
        players = 90
        await store.write([player(n) for n in range(1, players + 1)])
        await store.write(board.results(plays_with_ties(rng, players)))
        # the same players again: some better (kept), some worse or equal (ignored), in later transactions
        again = [(n, rng.choice([40, 50, 80]), rng.choice([10_000, 30_000]), T0 + timedelta(hours=1))
                 for n in rng.sample(range(1, players + 1), 30)]  # fmt: skip
        await store.write(board.results(again[:15]))
        for play in again[15:]:
            await store.write(board.results([play]))
        expected = board.expected()
        assert len(expected) == players
        assert any(a[0] == b[0] for a, b in itertools.pairwise(expected)), "the data has ties"
        reads = store.leaderboards

        # every page, cursor after cursor: the first starts at rank 1, the last says there is no more
        seen: list[tuple[int, int, str]] = []
        after = None
        while True:
            page = await reads.page(BOARD, 7, after)
            assert page.total == players
            seen += numbered(page)
            if not page.more:
                break
            after = page.rows[-1].entry.key
        assert seen == expected
        assert numbered(await reads.page(BOARD, players)) == expected
        assert not (await reads.page(BOARD, players)).more and (await reads.page(BOARD, players - 1)).more
        last = await reads.page(BOARD, 5, (await reads.page(BOARD, players - 1)).rows[-1].entry.key)
        assert numbered(last) == expected[-1:] and not last.more

        # around me: rank 1, a tie in the middle, the last rank, and windows cut by the ends of the board
        ids = [player_id for _, _, player_id in expected]
        tied = next(i for i in range(1, players) if expected[i][0] == expected[i - 1][0])
        for index in (0, 1, tied, tied - 1, players // 2, players - 1):
            around = await reads.around(BOARD, ids[index], 3, 4)
            assert around is not None
            assert numbered(around) == expected[max(0, index - 3) : index + 5], index
        assert await reads.around(BOARD, "p_nobody", 3, 3) is None

        # the entry kept is each player's best (moves, then time, then the earlier finish)
        for player_id, key in board.best.items():
            entry = await reads.entry(BOARD, player_id)
            assert entry is not None and (entry.score, entry.finished_at) == key[:2]
    finally:
        await store.close()


async def test_boards_are_kept_apart(database_url: str) -> None:
    store = SqlStore(database_url)
    try:
        await store.write([player(1), player(2, bot=True)])
        human = ranked_game(1, 1)
        bot = ranked_game(2, 2, board="freecell/deal/42/bots")
        await store.write([human, bot, won(human, 60, 1000, T0), won(bot, 40, 10, T0)])
        humans = await store.leaderboards.page(BOARD, 10)
        bots = await store.leaderboards.page("freecell/deal/42/bots", 10)
        assert [row.entry.player_id for row in humans.rows] == [player(1).player_id]
        assert [row.entry.player_id for row in bots.rows] == [player(2).player_id]
        assert (await store.leaderboards.page("freecell/deal/43/humans", 10)).total == 0
    finally:
        await store.close()


async def test_board_reads_are_index_ranges_never_scans(database_url: str) -> None:
    store = SqlStore(database_url)
    board = Board()
    try:
        await store.write([player(n) for n in range(1, 41)])
        await store.write(board.results(plays_with_ties(random.Random(3), 40)))
        statements: list[tuple[str, Any]] = []

        def capture(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
            if statement.lstrip().upper().startswith(("SELECT", "WITH")):
                statements.append((statement, parameters))

        event.listen(store.engine.sync_engine, "before_cursor_execute", capture)
        first = await store.leaderboards.page(BOARD, 10)
        await store.leaderboards.page(BOARD, 10, first.rows[-1].entry.key)
        await store.leaderboards.around(BOARD, first.rows[5].entry.player_id, 5, 5)
        await store.history.page(player(1).player_id, 10, (T0, "g_x"))
        await store.dailies.has_ranked_attempt(player(1).player_id, "freecell", T0.date())
        await store.seasons.page("freecell", False, 7, 10, around=player(1).player_id)
    finally:
        await store.close()
    assert len(statements) >= 6
    tables = ("leaderboard_entries", "leaderboard_counts", "players", "games", "rooms", "season_standings")
    engine = create_engine(database_url, poolclass=pool.NullPool)
    async with engine.connect() as connection:
        postgres = engine.dialect.name == "postgresql"
        if postgres:
            await connection.execute(text("SET enable_seqscan = off"))
        for statement, parameters in statements:
            explain = "EXPLAIN ANALYZE " if postgres else "EXPLAIN QUERY PLAN "
            rows = (await connection.exec_driver_sql(explain + statement, parameters)).all()
            plan = "\n".join(str(row[-1]) for row in rows)
            walks_from_a_key = "(e.score, e.finished_at, e.player_id)" in statement
            if postgres:
                assert "Seq Scan" not in plan, f"{statement}\n{plan}"
                if walks_from_a_key:  # the key is an index condition of the walk: no rows filtered out, no sort
                    assert "Rows Removed by Join Filter" not in plan and "Sort" not in plan, f"{statement}\n{plan}"
            else:
                scans = [line for line in plan.splitlines() if line.strip().startswith("SCAN")]
                assert not [line for line in scans if line.split()[1] in tables], f"{statement}\n{plan}"
                assert "TEMP B-TREE" not in plan, f"{statement}\n{plan}"
                if walks_from_a_key:
                    assert "ix_leaderboard_entries_order (board=?)" not in plan, f"{statement}\n{plan}"
    await engine.dispose()
