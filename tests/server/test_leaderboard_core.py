"""Leaderboard, daily and season logic without sockets or SQL: bounded-rank buckets, ties, cursors, commit-reveal."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

import pytest

from freecell_arena.core.effects import Refusal
from freecell_arena.core.records import daily
from freecell_arena.core.records.leaderboard import (
    LEVEL_SHIFTS,
    CursorError,
    count_buckets,
    count_deltas,
    decode_cursor,
    encode_cursor,
    number_rows,
    rank_plan,
    resolve_ranked,
    score,
)
from freecell_arena.core.records.season import BoardRow, SeasonTotals, final_ranks, season_table
from freecell_arena.engine import Game, variant_by_id
from freecell_arena.engine.solver import Status, solve
from freecell_arena.protocol.rooms import RoomOptions

T0 = datetime(2026, 11, 22, 12, tzinfo=UTC)


def counted_below(scores: list[int], target: int) -> int:
    """What the store computes: the count rows of the plan's ranges plus the exact entries of the last bucket."""
    rows: dict[tuple[int, int], int] = {}
    for entry_score in scores:
        for key in count_buckets(entry_score):
            rows[key] = rows.get(key, 0) + 1
    plan = rank_plan(target)
    bucketed = sum(
        n for (level, bucket), n in rows.items()
        for span in plan.ranges if span.level == level and span.low <= bucket <= span.high
    )  # fmt: skip
    exact = sum(1 for entry_score in scores if plan.exact_from <= entry_score < target)
    return bucketed + exact


def test_the_bucket_plan_counts_exactly_the_scores_below() -> None:
    rng = random.Random(5)
    for trial in range(60):
        spread = rng.choice([(40, 60, 10_000), (50, 52, 2_000_000), (1, 3000, 10**9), (100, 100, 5000)])
        scores = [score(rng.randint(spread[0], spread[1]), rng.randint(0, spread[2])) for _ in range(300)]
        targets = [*rng.sample(scores, 10), score(spread[0], 0), score(spread[1] + 1, 0), 0]
        for target in targets:
            assert counted_below(scores, target) == sum(1 for s in scores if s < target), trial


def test_a_rank_reads_at_most_63_count_rows_per_level_and_one_fine_bucket() -> None:
    for target in (0, 1, score(1, 1), score(4000, 86_400_000), score(10**6, 2**35), (1 << 63) - 1):
        plan = rank_plan(target)
        assert all(span.high - span.low + 1 <= 64 for span in plan.ranges if span.level < len(LEVEL_SHIFTS) - 1)
        assert target - plan.exact_from < 1 << LEVEL_SHIFTS[0]


def test_score_orders_by_moves_then_time() -> None:
    assert score(50, 999_999) < score(51, 0) < score(51, 1)
    assert score(2**40, 0) == score(2**27 - 1, 0), "absurd move counts saturate instead of overflowing"
    assert 0 <= score(2**27 - 1, 2**40) < 2**63


def test_count_deltas_touch_only_the_buckets_that_change() -> None:
    new = count_deltas(None, score(50, 1000))
    assert sorted(new.values()) == [1] * len(LEVEL_SHIFTS)
    moved = count_deltas(score(50, 1000), score(50, 900))
    assert set(moved.values()) <= {1, -1} and sum(moved.values()) == 0
    assert len(moved) < 2 * len(LEVEL_SHIFTS), "the coarse levels are shared and untouched"
    assert count_deltas(score(50, 1000), score(50, 1000)) == {}


def test_ties_share_a_rank_only_with_an_equal_finish_instant() -> None:
    rows = [(10, T0), (10, T0), (10, T0 + timedelta(seconds=1)), (11, T0)]
    assert number_rows(rows, lambda row: row, 1, 1) == [(1, 1), (1, 2), (3, 3), (4, 4)]
    assert number_rows(rows[1:], lambda row: row, 2, 1) == [(1, 2), (3, 3), (4, 4)]


def test_final_ranks_and_season_table_order() -> None:
    rows = [
        BoardRow("late", "g1", 50, 1000, T0 + timedelta(seconds=5), score(50, 1000)),
        BoardRow("early", "g2", 50, 1000, T0, score(50, 1000)),
        BoardRow("twin", "g3", 50, 1000, T0, score(50, 1000)),
        BoardRow("long", "g4", 60, 10, T0, score(60, 10)),
    ]
    ranks = final_ranks(rows, par=48)
    assert [(r.player_id, r.rank, r.moves_over_par) for r in ranks] == [
        ("early", 1, 2), ("twin", 1, 2), ("late", 3, 2), ("long", 4, 12)
    ]  # fmt: skip
    table = season_table([
        SeasonTotals("two_wins", 2, 30, 9), SeasonTotals("one_win", 1, 0, 1),
        SeasonTotals("close", 2, 30, 8), SeasonTotals("same", 2, 30, 8),
    ])  # fmt: skip
    assert [(line.player_id, line.rank, line.position) for line in table] == [
        ("close", 1, 1), ("same", 1, 2), ("two_wins", 3, 3), ("one_win", 4, 4)
    ]  # fmt: skip
    assert table[0].average_rank == 4.0


def test_cursors_round_trip_and_refuse_anything_else() -> None:
    token = encode_cursor("board", [123, "2026-11-22T12:00:00+00:00", "p_1"])
    assert decode_cursor("board", token, (int, str, str)) == [123, "2026-11-22T12:00:00+00:00", "p_1"]
    for bad in ("", "not base64 !", encode_cursor("season", [1]), encode_cursor("board", [True, "x", "y"]),
                token[:-3], encode_cursor("board", [1, 2, 3])):  # fmt: skip
        with pytest.raises(CursorError):
            decode_cursor("board", bad, (int, str, str))


def test_ranked_rooms_play_the_standard_options() -> None:
    freecell, three_deck = variant_by_id("freecell"), variant_by_id("freecell-three-deck")
    assert resolve_ranked(freecell, RoomOptions()).ranked is True
    assert resolve_ranked(freecell, RoomOptions(autoplay=False)).ranked is False
    assert resolve_ranked(three_deck, RoomOptions(undo_allowed=True)).ranked is False
    assert resolve_ranked(three_deck, RoomOptions(undo_allowed=False, ranked=True)).ranked is True
    assert resolve_ranked(freecell, RoomOptions(ranked=False)).ranked is False
    with pytest.raises(Refusal) as refusal:
        resolve_ranked(freecell, RoomOptions(autoplay=False, ranked=True))
    assert refusal.value.code == "unranked_options" and "autoplay" in refusal.value.message


# ---------------------------------------------------------------- the daily deal


def test_daily_seeds_are_secret_deterministic_and_in_range() -> None:
    freecell, chinese = variant_by_id("freecell"), variant_by_id("chinese-freecell")
    day = date(2026, 11, 22)
    seed = daily.candidate_seed(b"secret-one", freecell, day, 0)
    assert seed == daily.candidate_seed(b"secret-one", freecell, day, 0)
    assert seed != daily.candidate_seed(b"secret-two", freecell, day, 0)
    assert seed != daily.candidate_seed(b"secret-one", freecell, day + timedelta(days=1), 0)
    assert seed != daily.candidate_seed(b"secret-one", freecell, day, 1)
    for candidate in range(50):
        assert 1 <= daily.candidate_seed(b"s", freecell, day, candidate) <= 2**31 - 1
        assert 0 <= daily.candidate_seed(b"s", chinese, day, candidate) < 2**63


def test_the_commitment_is_checkable_with_sha256_alone() -> None:
    day = date(2026, 11, 22)
    nonce = daily.daily_nonce(b"secret", "freecell", day)
    published = daily.commitment("freecell", day, 617, nonce)
    text = f"freecell-arena/daily/v1|freecell|2026-11-22|617|{nonce}"
    assert hashlib.sha256(text.encode()).hexdigest() == published
    assert len(nonce) == 64, "256 bits that no one can enumerate"
    assert daily.verify_reveal("freecell", day, 617, nonce, published)
    assert not daily.verify_reveal("freecell", day, 618, nonce, published)
    assert not daily.verify_reveal("freecell", day + timedelta(days=1), 617, nonce, published)


@dataclass
class Unknown:
    status: Status = Status.UNKNOWN
    solution: None = None


def test_a_candidate_the_solver_cannot_certify_is_skipped() -> None:
    calls: list[int] = []

    def first_candidate_unknown(board, **budget):  # type: ignore[no-untyped-def]
        calls.append(len(calls))
        return Unknown() if len(calls) == 1 else solve(board, **budget)

    day = date(2026, 11, 22)
    record = daily.prepare_daily(b"k" * 32, "freecell", day, T0, max_nodes=50_000, budget_s=30,
                                 max_candidates=5, solver=first_candidate_unknown)  # fmt: skip
    assert record.candidate == 1 and len(calls) == 2
    assert record.seed == daily.candidate_seed(b"k" * 32, variant_by_id("freecell"), day, 1)
    assert daily.verify_reveal("freecell", day, record.seed, record.nonce, record.commitment)
    assert daily.verify_solution("freecell", record.seed, record.solution, record.par)
    assert record.par == len(record.solution)
    game = Game.replay(variant_by_id("freecell"), record.seed, record.solution, autoplay=True)
    assert game.board.is_won() and game.player_moves == record.par
    with pytest.raises(daily.NoCertifiedDeal):
        daily.prepare_daily(b"k", "freecell", day, T0, max_nodes=1000, budget_s=1, max_candidates=2,
                            solver=lambda board, **budget: Unknown())  # fmt: skip


def test_what_the_public_sees_of_a_day() -> None:
    day = date(2026, 11, 22)
    record = daily.prepare_daily(b"k" * 32, "cell-eleven", day, T0, max_nodes=20_000, budget_s=30, max_candidates=9)
    before = daily.public_view(record, datetime(2026, 11, 21, 23, tzinfo=UTC))
    during = daily.public_view(record, datetime(2026, 11, 22, 23, 59, tzinfo=UTC))
    after = daily.public_view(record, datetime(2026, 11, 23, tzinfo=UTC))
    assert (before.status, before.par, before.seed) == ("upcoming", None, None)
    assert (during.status, during.par, during.seed, during.nonce) == ("open", record.par, None, None)
    assert (after.status, after.seed, after.nonce) == ("closed", record.seed, record.nonce)
    assert before.commitment == during.commitment == after.commitment
    assert daily.verify_solution("cell-eleven", after.seed, after.solution or [], after.par or 0)
