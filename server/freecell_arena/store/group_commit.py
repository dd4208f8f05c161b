"""`GroupCommitWriter`: many concurrent writers, one transaction (and one fsync) per few milliseconds.

Every accepted move must be durable before it is acknowledged, but a commit (an fsync) per move caps a
server at a few hundred moves per second. The writer queues the records of all players; one background
task commits everything pending in one transaction, then resolves the futures of exactly that batch.

- `await writer.submit(record)` / `submit_many(records)` return only after the records are committed, and
  raise if they were refused. The records of one `submit_many` are atomic: one transaction, never split.
- If the database refuses a record of a batch (`RecordRefusedError`: e.g. a stale process's duplicate move
  index), the batch is retried one submission per transaction, so the bad submission fails alone and the
  other submitters of that batch are still committed. Any other failure (the database is down) goes to
  every submitter of the batch. Nothing is dropped: the writer keeps running after any failure.
- Knobs: `max_delay_ms` — how long the first pending submission waits for company before the commit starts
  (0 = commit as soon as the writer is free; submissions that arrive during a commit form the next batch
  either way); `max_batch` — most records per transaction (a larger single `submit_many` goes alone).
- `flush()` waits for everything submitted before it; `close()` refuses new submissions, commits what is
  pending and stops the task (used on SIGTERM).

If a submitter is cancelled while waiting, its records are still written (they may already be in the
transaction); only the acknowledgement is lost.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass

from freecell_arena.core.ports.records import CommitObserver, PlayerRecord, Record, Store, StoredGame, StoredRoom
from freecell_arena.store.errors import RecordRefusedError, WriterClosedError

log = logging.getLogger(__name__)

DEFAULT_MAX_DELAY_MS = 2.0
DEFAULT_MAX_BATCH = 1000


@dataclass(slots=True)
class _Submission:
    records: list[Record]
    done: asyncio.Future[None]


class GroupCommitWriter:
    """Batches the writes of many coroutines into few transactions on `store`.

    It is itself a `Store`: `write` goes through the batching, reads go straight to `store`, so the server
    can hand it to code that expects a `Store`. `close()` stops the writer; it closes `store` too only when
    `close_store=True`.
    """

    def __init__(
        self,
        store: Store,
        *,
        max_delay_ms: float = DEFAULT_MAX_DELAY_MS,
        max_batch: int = DEFAULT_MAX_BATCH,
        close_store: bool = False,
    ) -> None:
        if max_delay_ms < 0:
            raise ValueError("max_delay_ms must be >= 0")
        if max_batch < 1:
            raise ValueError("max_batch must be >= 1")
        self.store = store
        self.max_delay_ms = max_delay_ms
        self.max_batch = max_batch
        self.close_store = close_store
        self.last_failure_at: float | None = None
        """time.monotonic() of the first failed transaction since the last one that committed (readiness)."""
        self.on_commit: CommitObserver | None = None
        """Told (records, seconds, committed) after every batch transaction: the server's metrics."""
        self.transactions = 0  # transactions run, committed or not (a batch retried one by one counts each)
        self._pending: deque[_Submission] = deque()
        self._flushes_pending = 0  # a flush cuts the wait for company short
        self._records_pending = 0
        self._wakeup: asyncio.Event | None = None
        self._gathering: asyncio.Future[None] | None = None  # set while the writer waits for company
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    # --- submitting ------------------------------------------------------------------------------------

    async def submit(self, record: Record) -> None:
        """Return once `record` is committed; raise (e.g. `RecordRefusedError`) if it was not."""
        await self.submit_many([record])

    def submit_many(self, records: Sequence[Record]) -> asyncio.Future[None]:
        """Done once all `records` are committed together, in order, in one transaction; raises if not. The
        submission's own future: a submitter awaits it with no frame of the writer's around it."""
        return self._enqueue(list(records))

    async def write(self, records: Sequence[Record]) -> None:
        """`Store.write` through the group commit (same as `submit_many`)."""
        await self.submit_many(records)

    async def flush(self) -> None:
        """Wait until everything submitted before this call has been committed or refused."""
        await self._enqueue([])

    def _enqueue(self, records: list[Record]) -> asyncio.Future[None]:
        if self._closed:
            raise WriterClosedError("the writer is closed: no more records are accepted")
        task = self._task  # while the writer runs, every submitter is on its loop (asking the running loop would
        # ask the kernel for the process id: a system call a move)
        loop = task.get_loop() if task is not None and not task.done() else asyncio.get_running_loop()
        submission = _Submission(records, loop.create_future())
        self._pending.append(submission)
        self._records_pending += len(records)
        if not records:
            self._flushes_pending += 1
        gathering = self._gathering
        if gathering is None:
            self._start().set()
        elif (self._flushes_pending or self._records_pending >= self.max_batch) and not gathering.done():
            gathering.set_result(None)  # cut the wait for company short: the batch is full, or a flush waits
        return submission.done

    def _start(self) -> asyncio.Event:
        if self._wakeup is None:
            self._wakeup = asyncio.Event()
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(self._wakeup), name="group-commit-writer")
        return self._wakeup

    # --- the background task ---------------------------------------------------------------------------

    async def _run(self, wakeup: asyncio.Event) -> None:
        batch: list[_Submission] = []
        try:
            while True:
                await wakeup.wait()
                wakeup.clear()
                while self._pending:
                    if self.max_delay_ms > 0:
                        await self._gather_for(self.max_delay_ms / 1000)
                    batch = self._take_batch()
                    await self._commit(batch)
                    batch = []
                if self._closed:
                    return
        except BaseException as error:
            # Never leave a submitter waiting forever: whatever stopped the writer is their answer too.
            stopped = WriterClosedError(f"the writer stopped: {error!r}")
            _settle([*batch, *self._pending], stopped)
            self._pending.clear()
            self._records_pending = self._flushes_pending = 0
            raise

    async def _gather_for(self, seconds: float) -> None:
        """Wait up to `seconds` for more submissions; stop early once a batch is full, on a flush or on close.
        One future and one timer per batch: a submission arriving meanwhile wakes nobody unless it fills the
        batch (with a thousand players that is most submissions, each of which would otherwise wake the writer)."""
        if self._closed or self._flushes_pending or self._records_pending >= self.max_batch:
            return
        loop = asyncio.get_running_loop()
        gathering: asyncio.Future[None] = loop.create_future()
        timer = loop.call_later(seconds, _resolve, gathering)
        self._gathering = gathering
        try:
            await gathering
        finally:
            self._gathering = None
            timer.cancel()

    def _take_batch(self) -> list[_Submission]:
        batch = [self._pending.popleft()]
        size = len(batch[0].records)
        while self._pending and size + len(self._pending[0].records) <= self.max_batch:
            size += len(self._pending[0].records)
            batch.append(self._pending.popleft())
        self._records_pending -= size
        self._flushes_pending -= sum(1 for submission in batch if not submission.records)
        return batch

    async def _commit(self, batch: list[_Submission]) -> None:
        records = [record for submission in batch for record in submission.records]
        started = time.perf_counter()
        failure = await _failure_of(self.store.write(records))
        self.transactions += 1
        if failure is None:
            _settle(batch, None)
            self._observe(len(records), started, committed=True)
            return
        self._observe(len(records), started, committed=False)
        writers = sum(1 for submission in batch if submission.records)
        if not isinstance(failure, RecordRefusedError) or writers <= 1:
            # The database itself failed (or there is nobody to separate): every submitter of this batch
            # gets the error, so the server refuses those moves; the next batch is tried afresh.
            _settle(batch, failure)
            return
        # One submission was refused: find it by committing each on its own, so only it fails.
        log.warning("group commit of %d records refused (%s): retrying one at a time", len(records), failure)
        for submission in batch:
            await self._commit_alone(submission)

    def _observe(self, records: int, started: float, *, committed: bool) -> None:
        """Note the transaction for health and metrics. Called after the batch is settled: its submitters are
        woken first, and the metrics (`on_commit`) wait for the next turn of the loop, after their replies."""
        if committed:
            self.last_failure_at = None
        elif self.last_failure_at is None:
            self.last_failure_at = time.monotonic()
        if self.on_commit is not None:
            asyncio.get_running_loop().call_soon(self.on_commit, records, time.perf_counter() - started, committed)

    async def _commit_alone(self, submission: _Submission) -> None:
        if not submission.records:
            _settle([submission], None)
            return
        self.transactions += 1
        _settle([submission], await _failure_of(self.store.write(submission.records)))

    # --- shutting down ---------------------------------------------------------------------------------

    async def close(self) -> None:
        """Refuse new submissions, commit everything pending, stop the background task."""
        if not self._closed:
            self._closed = True
            if self._gathering is not None and not self._gathering.done():
                self._gathering.set_result(None)
            if self._task is not None and self._wakeup is not None:
                self._wakeup.set()
                try:
                    await asyncio.shield(self._task)
                except Exception:  # its submitters already got the error; closing must still finish
                    log.exception("the group-commit writer had stopped on an error")
        if self.close_store:
            await self.store.close()

    async def __aenter__(self) -> GroupCommitWriter:
        return self

    async def __aexit__(self, *_exc_info: object) -> None:
        await self.close()

    # --- reads go straight to the store ----------------------------------------------------------------

    async def player_by_token_hash(self, token_hash: str) -> PlayerRecord | None:
        return await self.store.player_by_token_hash(token_hash)

    async def player(self, player_id: str) -> PlayerRecord | None:
        return await self.store.player(player_id)

    async def game(self, game_id: str) -> StoredGame | None:
        return await self.store.game(game_id)

    async def unfinished_games(self, player_id: str) -> list[StoredGame]:
        return await self.store.unfinished_games(player_id)

    async def room_by_code(self, code: str) -> StoredRoom | None:
        return await self.store.room_by_code(code)

    async def room(self, room_id: str) -> StoredRoom | None:
        return await self.store.room(room_id)

    async def uncounted_in_race(self, room_id: str) -> frozenset[str]:
        return await self.store.uncounted_in_race(room_id)


async def _failure_of(write: Awaitable[None]) -> Exception | None:
    """What `write` raised, or None: the caller then awaits its retry outside any `except` block, as a coroutine
    compiled by mypyc must (build.py's `suspends_while_handling`: awaiting there would hand the exception being
    handled to every other task of the loop as its `__context__`)."""
    try:
        await write
    except Exception as error:
        return error
    return None


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _settle(batch: list[_Submission], error: BaseException | None) -> None:
    for submission in batch:
        if submission.done.done():  # the submitter was cancelled: its records were still written
            continue
        if error is None or not submission.records:  # a flush marker never fails
            submission.done.set_result(None)
        else:
            submission.done.set_exception(error)
