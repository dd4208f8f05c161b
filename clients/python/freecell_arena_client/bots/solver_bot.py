"""The solver as a bot: plays a certified solution where every card is visible, and hints in Cell Eleven.

Fully visible deals: `solve` once, then follow the plan. The plan is kept as "position -> move", so it does not
matter whether the server's autoplay or the bot sends the foundation moves, and any position the plan did not
foresee (a surprise) simply triggers a new `solve` from there. When the solver runs out of budget the bot plays
the solver's `hint`, which still leads somewhere promising.

Cell Eleven: face-down cards are unknown to a player, so the bot asks `hint` on every move; it sees only what
the player sees (the board rebuilt from the player view has placeholders where cards are face down).
"""

from __future__ import annotations

import logging

from freecell_arena.engine import Board, Move
from freecell_arena.engine.solver import Status, hint, solve
from freecell_arena.protocol.board import GameView
from freecell_arena_client.bot import Bot

log = logging.getLogger("freecell_arena_client")


class SolverBot(Bot):
    name = "solver"

    def __init__(self, budget_s: float = 10.0, hint_budget_s: float = 2.0) -> None:
        self.budget_s = budget_s
        self.hint_budget_s = hint_budget_s
        self.plan: dict[tuple[object, ...], Move] = {}

    def on_game_start(self, game: GameView) -> None:
        self.plan.clear()

    def choose_move(self, board: Board) -> Move | None:
        if any(board.hidden):
            return hint(board, budget=self.hint_budget_s)
        planned = self.plan.get(board.key())
        if planned is not None:
            return planned
        result = solve(board, budget=self.budget_s)
        if result.status is not Status.SOLVED:
            log.info("solver: %s (%s); following a hint", result.status.value, result.detail)
            return hint(board, budget=self.hint_budget_s)
        self.plan = plan_of(board, result.moves)
        return self.plan[board.key()]


def plan_of(board: Board, moves: tuple[Move, ...]) -> dict[tuple[object, ...], Move]:
    """Every position the solution passes through, with the move it plays there."""
    playing = board.copy(stack=False)
    plan: dict[tuple[object, ...], Move] = {}
    for move in moves:
        plan.setdefault(playing.key(), move)
        playing.push(move)
    return plan
