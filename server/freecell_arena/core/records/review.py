"""Review against par: a deal's par (the solver's certified line, as a player types it with autoplay on) and
each player's result beside it.

Par is worked out once per deal, after the race on it is over, in a worker process with a node budget
(`solve_par` is pure CPU; `freecell_arena.net.par_service` runs it off the event loop and the store keeps it per
deal, so every process and every later race on the same deal reads it instead of solving again). The budget is
counted in nodes, not seconds, so a deal's par is the same on every machine however busy it is (the seconds are
only a safety net), as a daily's is. A deal the solver does not settle within the budget has no par: the review
then shows the players' results alone, and says why. A daily's par is the one certified when the day was
prepared (`core.records.daily`).

Nothing of the deal leaves the server before the race is over for everyone (the solver's line is a full
solution): `review` is asked for only once the room is finished, which the caller checks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol

from freecell_arena.core.records.daily import player_actions
from freecell_arena.engine import RULES_VERSION, Board, variant_by_id
from freecell_arena.engine.solver import Status, solve
from freecell_arena.engine.view import replay_steps

PAR_NODES = 400_000
"""The solver's node budget per deal: about 10 s on a quiet 2-core machine (30,000-40,000 nodes a second), enough
for every MS deal and 97 % of the other variants' (performance.md). Counted in nodes, the par is the same on every
machine and in every process."""
PAR_BUDGET_S = 60.0
"""The safety net in seconds: a solve that has not spent its nodes by then (a machine far busier than usual) ends
`unknown`, and the deal is tried again at the next review."""


class ParStatus(StrEnum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"
    """The budget ran out before the solver settled the deal."""


@dataclass(frozen=True, slots=True)
class Par:
    """A deal's par: the solver's line as player actions (autoplay on), or why there is none."""

    variant: str
    seed: int
    rules_version: str
    status: ParStatus
    line: tuple[str, ...] = ()

    @property
    def moves(self) -> int | None:
        return len(self.line) if self.status is ParStatus.SOLVED else None


def solve_par(variant_id: str, seed: int, budget_s: float = PAR_BUDGET_S, max_nodes: int = PAR_NODES) -> Par:
    """The deal's par: the same for the same `max_nodes` on any machine. Pure CPU for up to `budget_s`: run it in a
    worker process, never on the event loop."""
    variant = variant_by_id(variant_id)
    result = solve(Board.deal(variant, seed), budget=budget_s, max_nodes=max_nodes)
    if result.status is Status.SOLVED and result.solution is not None:
        line = tuple(player_actions(variant, seed, result.solution.moves))
        return Par(variant.id, seed, RULES_VERSION, ParStatus.SOLVED, line)
    status = ParStatus.UNSOLVABLE if result.status is Status.UNSOLVABLE else ParStatus.UNKNOWN
    return Par(variant.id, seed, RULES_VERSION, status)


def par_replay(par: Par) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The solver's line as the replay viewer steps through it (the opening board and each action's changes):
    a few milliseconds of replaying, asked for only once the race is over. A par not solved has no line: the
    opening board alone (the wire's `start_view` is always a board)."""
    line = par.line if par.status is ParStatus.SOLVED else ()
    return replay_steps(variant_by_id(par.variant), par.seed, line, autoplay=True)


@dataclass(frozen=True, slots=True)
class ReviewedResult:
    player_id: str
    name: str
    outcome: str
    moves: int
    time_ms: int
    over_par: int | None
    """Moves beyond par for a win (negative: shorter than the solver's line); None without a win or a par."""


def reviewed(results: Iterable[tuple[str, str, str, int, int]], par: Par) -> list[ReviewedResult]:
    """Each (player id, name, outcome, moves, time) beside the par, in the order given (the standings')."""
    par_moves = par.moves
    return [
        ReviewedResult(player_id, name, outcome, moves, time_ms,
                       moves - par_moves if outcome == "won" and par_moves is not None else None)
        for player_id, name, outcome, moves, time_ms in results
    ]  # fmt: skip


class ParLedger(Protocol):
    """Where settled pars are kept (implemented by `freecell_arena.store.pars.ParStore`)."""

    async def get(self, variant: str, seed: int, rules_version: str) -> Par | None: ...

    async def save(self, par: Par, at: datetime) -> Par: ...
