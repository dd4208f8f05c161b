"""bench/moves_btree.py and bench/thread_hop.py keep working: short real runs print each figure beside its
baseline (figures are read by people, never asserted; moves_btree fails itself if a row it wrote is missing)."""

from __future__ import annotations

from bench_runs import run_bench


def test_the_moves_btree_bench_stores_every_row_every_way_and_prints_each() -> None:
    out = run_bench("moves_btree.py", "--games", "50", "--rows", "10", "--commits", "5", "--rounds", "1",
                    "--history", "20")
    for figure in ("appended (baseline)", "keyed, ids by time", "keyed, random ids", "appended, fenced",
                   "the key costs", "the fence", "a history of 2,000 moves"):
        assert figure in out, out


def test_the_thread_hop_bench_prints_the_writer_beside_the_executor() -> None:
    out = run_bench("thread_hop.py", "--hops", "200", "--rounds", "1")
    assert "run_in_executor (baseline)" in out and "SqliteWriter's thread" in out, out
