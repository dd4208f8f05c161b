"""The reference bots, by the name `freecell-arena-bot --bot NAME` knows them."""

from __future__ import annotations

from freecell_arena_client.bot import Bot
from freecell_arena_client.bots.greedy import GreedyBot
from freecell_arena_client.bots.random_bot import RandomBot
from freecell_arena_client.bots.solver_bot import SolverBot

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "solver": SolverBot}

__all__ = ["BOTS", "GreedyBot", "RandomBot", "SolverBot"]
