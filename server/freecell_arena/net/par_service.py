"""Pars worked out after races, off the event loop: one solver worker, one solve per deal at a time.

`par_of` answers from the store when the deal's par is known (any process may have solved it), else solves it
in the worker (`core.records.review.solve_par`, with the node budget, so the par is the same whichever process or
machine
solves it) and stores a settled answer. Two requests for the same
deal while it is being solved share the one solve. A deal the budget did not settle is answered `unknown` and
tried again at the next request; a worker that dies or overruns answers `unknown` too, and is replaced.

Solves take turns for the one worker, and a solve's time limit starts with its turn: a queue of deals waiting
must not count as a worker that overran (which would kill the solve in progress and every one after it).
`backlog` says how many deals are waiting, so a caller that only wants a par early (a race that just ended)
can leave it to the first review when the worker is busy.
"""

from __future__ import annotations

import asyncio
import logging

from freecell_arena.core.clock import Clock
from freecell_arena.core.records.review import PAR_BUDGET_S, PAR_NODES, Par, ParLedger, ParStatus, solve_par
from freecell_arena.engine import RULES_VERSION
from freecell_arena.net.background import CANCEL_WITHIN_S, stop_tasks
from freecell_arena.net.solver_pool import SolverPool, SolverWorkerLost

log = logging.getLogger(__name__)
WORKER_MARGIN_S = 30.0
"""How much longer than the budget a solve may take before its worker counts as dead (start-up, certification)."""
CLOSE_WAIT_S = 1.0
"""How long `close` lets the solves it ended answer (and store a par already found) before cancelling them."""


class ParService:
    def __init__(
        self, store: ParLedger, clock: Clock, budget_s: float = PAR_BUDGET_S, max_nodes: int = PAR_NODES
    ) -> None:
        self.store = store
        self.clock = clock
        self.budget_s = budget_s
        self.max_nodes = max_nodes
        self._pool = SolverPool()
        self._solving: dict[tuple[str, int], asyncio.Task[Par]] = {}
        self._turn = asyncio.Semaphore(1)
        self._closed = False

    @property
    def backlog(self) -> int:
        """Deals being solved or waiting for the worker."""
        return len(self._solving)

    async def par_of(self, variant: str, seed: int, *, wait_s: float | None = None) -> Par:
        """The deal's par. `wait_s`: answer `unknown` after that long if the solve is not done, and let it go on
        (a later ask gets it): a review asked over HTTP must answer before the connection's handshake timeout."""
        known = await self.store.get(variant, seed, RULES_VERSION)
        if known is not None:
            return known
        key = (variant, seed)
        task = self._solving.get(key)
        if task is None:
            task = asyncio.create_task(self._solve(variant, seed), name=f"par {variant} {seed}")
            self._solving[key] = task
            task.add_done_callback(lambda _: self._solving.pop(key, None))
        try:
            async with asyncio.timeout(wait_s):
                return await asyncio.shield(task)
        except TimeoutError:
            return Par(variant, seed, RULES_VERSION, ParStatus.UNKNOWN)

    async def _solve(self, variant: str, seed: int) -> Par:
        try:
            async with self._turn:
                longest = self.budget_s + WORKER_MARGIN_S
                par = await self._pool.run(solve_par, (variant, seed, self.budget_s, self.max_nodes), {}, longest)
        except (TimeoutError, SolverWorkerLost):
            if self._closed:
                return Par(variant, seed, RULES_VERSION, ParStatus.UNKNOWN)
            log.warning("par of %s deal %s: the solver worker did not answer; tried again at the next request",
                        variant, seed)  # fmt: skip
            return Par(variant, seed, RULES_VERSION, ParStatus.UNKNOWN)
        if par.status is ParStatus.UNKNOWN:
            return par
        return await self.store.save(par, self.clock.now())

    async def close(self) -> None:
        """Stop the worker: the solve in progress and those waiting answer `unknown` at once, so a review waiting
        for one is answered rather than holding up a shutdown; what is still running after CLOSE_WAIT_S (a par
        being stored) is cancelled."""
        self._closed = True
        await self._pool.close()
        if self._solving:
            await asyncio.wait(list(self._solving.values()), timeout=CLOSE_WAIT_S)
        await stop_tasks(list(self._solving.values()), CANCEL_WITHIN_S)
