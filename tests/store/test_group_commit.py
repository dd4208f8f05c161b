"""GroupCommitWriter on both backends: few transactions for many submitters, acknowledged only once committed,
a refused submission fails alone, close() loses nothing."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import DBAPIError
from store_builders import game, move, player

from freecell_arena.core.ports.records import GameRecord, Record
from freecell_arena.store import GroupCommitWriter, RecordRefusedError, SqlStore, WriterClosedError


@pytest.fixture
async def reader(database_url: str) -> AsyncIterator[SqlStore]:
    """A second store with its own connections: it sees only what was committed."""
    reader = SqlStore(database_url)
    yield reader
    await reader.close()


async def started_game(store: SqlStore) -> GameRecord:
    owner = player()
    played = game(1, owner)
    await store.write([owner, played])
    return played


def count_commits(store: SqlStore) -> Callable[[], int]:
    """Commits from now on: SQLAlchemy's commit events, plus the transactions of the SQLite writer (its own
    `sqlite3` connection, which SQLAlchemy does not see)."""
    events = [0]

    def on_commit(_connection: object) -> None:
        events[0] += 1

    event.listen(store.engine.sync_engine, "commit", on_commit)
    direct = store.transactions_committed - store.commits
    return lambda: events[0] + store.transactions_committed - store.commits - direct


async def stored_indices(reader: SqlStore, game_id: str) -> list[int]:
    stored = await reader.game(game_id)
    assert stored is not None
    return [m.index for m in stored.moves]


async def test_many_concurrent_submits_share_few_transactions(store: SqlStore) -> None:
    played = await started_game(store)
    commits = count_commits(store)
    writer = GroupCommitWriter(store, max_batch=50)
    await asyncio.gather(*(writer.submit(move(played, index)) for index in range(200)))
    await writer.close()
    assert 1 <= commits() <= 200 // 50
    assert writer.transactions == commits()
    assert await stored_indices(store, played.game_id) == list(range(200))


async def test_a_submit_returns_only_once_its_record_is_committed(store: SqlStore, reader: SqlStore) -> None:
    played = await started_game(store)
    writer = GroupCommitWriter(store)
    seen_after_ack: list[bool] = []

    async def submit_then_look(index: int) -> None:
        await writer.submit(move(played, index))
        seen_after_ack.append(index in await stored_indices(reader, played.game_id))

    await asyncio.gather(*(submit_then_look(index) for index in range(30)))
    await writer.close()
    assert seen_after_ack == [True] * 30


async def test_a_refused_submission_fails_alone_and_its_batch_mates_are_committed(store: SqlStore) -> None:
    played = await started_game(store)
    await store.write([move(played, 0, "3a")])
    writer = GroupCommitWriter(store)
    outcomes = await asyncio.gather(
        writer.submit(move(played, 1, "a3")),
        writer.submit(move(played, 0, "8h")),  # a stale writer's index
        writer.submit_many([move(played, 2, "4b"), move(played, 3, "b4")]),
        return_exceptions=True,
    )
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], RecordRefusedError)
    await writer.submit(move(played, 4, "1h"))  # the writer carries on
    await writer.close()
    stored = await store.game(played.game_id)
    assert stored is not None
    assert [(m.index, m.notation) for m in stored.moves] == [(0, "3a"), (1, "a3"), (2, "4b"), (3, "b4"), (4, "1h")]


async def test_a_database_failure_goes_to_every_submitter_of_the_batch_and_the_writer_carries_on(
    store: SqlStore,
) -> None:
    played = await started_game(store)
    async with store.engine.begin() as connection:  # a real failure: the table the moves go to is gone
        await connection.execute(text("DROP TABLE moves"))
    writer = GroupCommitWriter(store)
    outcomes = await asyncio.gather(*(writer.submit(move(played, index)) for index in range(5)), return_exceptions=True)
    assert all(isinstance(outcome, DBAPIError) for outcome in outcomes)
    assert writer.transactions == 1  # not retried one by one: the database, not a record, failed
    later = player(2)
    await writer.submit(later)
    await writer.close()
    assert await store.player(later.player_id) == later


async def test_the_records_of_one_submit_many_are_kept_together_or_not_at_all(store: SqlStore) -> None:
    played = await started_game(store)
    await store.write([move(played, 0)])
    writer = GroupCommitWriter(store)
    with pytest.raises(RecordRefusedError):
        await writer.submit_many([move(played, 1), move(played, 0)])
    await writer.close()
    assert await stored_indices(store, played.game_id) == [0]


async def test_a_submission_larger_than_a_batch_is_committed_whole(store: SqlStore) -> None:
    played = await started_game(store)
    commits = count_commits(store)
    writer = GroupCommitWriter(store, max_batch=10)
    await writer.submit_many([move(played, index) for index in range(25)])
    await writer.close()
    assert commits() == 1
    assert await stored_indices(store, played.game_id) == list(range(25))


async def test_close_commits_everything_pending_then_refuses_more(store: SqlStore, reader: SqlStore) -> None:
    played = await started_game(store)
    # A delay far longer than the test: only close() can make these records commit.
    writer = GroupCommitWriter(store, max_delay_ms=600_000)
    submitters = [asyncio.create_task(writer.submit(move(played, index))) for index in range(20)]
    await asyncio.sleep(0)
    assert await stored_indices(reader, played.game_id) == []
    await writer.close()
    assert all(task.done() and task.exception() is None for task in submitters)
    assert await stored_indices(reader, played.game_id) == list(range(20))
    with pytest.raises(WriterClosedError):
        await writer.submit(move(played, 20))


async def test_flush_waits_for_earlier_submissions_without_waiting_out_the_delay(
    store: SqlStore, reader: SqlStore
) -> None:
    played = await started_game(store)
    writer = GroupCommitWriter(store, max_delay_ms=600_000)
    submitters = [asyncio.create_task(writer.submit(move(played, index))) for index in range(5)]
    await asyncio.sleep(0)
    await writer.flush()
    assert await stored_indices(reader, played.game_id) == list(range(5))
    assert all(task.done() for task in submitters)
    await writer.close()


async def test_the_writer_is_a_store_whose_reads_see_its_writes(store: SqlStore) -> None:
    owner = player()
    played = game(1, owner)
    records: list[Record] = [owner, played, move(played, 0)]
    async with GroupCommitWriter(store) as writer:
        await writer.write(records)
        assert await writer.player(owner.player_id) == owner
        assert await writer.player_by_token_hash(owner.token_hash) == owner
        stored = await writer.game(played.game_id)
        assert stored is not None and stored.moves == [move(played, 0)]
        assert [g.game for g in await writer.unfinished_games(owner.player_id)] == [played]
        assert await writer.room_by_code("NONE") is None
        assert await writer.room("r_none") is None
