"""Hints and auto-finish off the event loop: the rules are core's (`core.live.hints`); the search runs in a solver
worker of its own (one process, started on first use), so a hint never waits behind a race's par and never holds
a move.

One hint per player at a time, and `MAX_WAITING` in all: a player pressing Hint again while the first is worked
out, or a crowd asking at once, is told to wait (`rate_limited`) instead of queueing seconds of search each.
"""

from __future__ import annotations

import asyncio

from freecell_arena.core.effects import Refusal
from freecell_arena.core.live.hints import HINT_BUDGET_S, hint_job, work_out
from freecell_arena.core.server_store import ServerStore
from freecell_arena.net.solver_pool import SolverPool, SolverWorkerLost
from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.protocol.play import HintMessage, HintRequest

MAX_WAITING = 8
"""Hints being worked out or waiting for the worker, beyond which a new one is refused for now."""
WORKER_MARGIN_S = 20.0
"""How much longer than the budget a hint may take (a worker's start-up) before the worker counts as dead."""


class HintService:
    def __init__(self, store: ServerStore, budget_s: float = HINT_BUDGET_S) -> None:
        self.store = store
        self.budget_s = budget_s
        self._pool = SolverPool()
        self._turn = asyncio.Semaphore(1)
        self._asking: set[str] = set()

    async def answer(self, request: HintRequest, requester: str | None) -> HintMessage:
        job = hint_job(await self.store.game(request.game_id), requester, request.game_id)
        assert requester is not None  # hint_job refuses a request without its game's player
        if requester in self._asking or len(self._asking) >= MAX_WAITING:
            raise Refusal(ErrorCode.rate_limited, "a hint is being worked out: wait for it")
        self._asking.add(requester)
        try:
            async with self._turn:
                answer = await self._pool.run(work_out, (job,), {}, self.budget_s + WORKER_MARGIN_S)
        except TimeoutError:
            raise Refusal(ErrorCode.internal_error, "the hint took too long: ask again") from None
        except SolverWorkerLost:  # the worker died or the server is stopping
            raise Refusal(ErrorCode.internal_error, "the hint could not be worked out: ask again") from None
        finally:
            self._asking.discard(requester)
        return HintMessage(id=request.id, game_id=job.game_id, move=answer.move, finish=list(answer.finish))

    async def close(self) -> None:
        await self._pool.close()
