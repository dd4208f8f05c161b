"""A legal move chosen at random: the floor every other bot should beat (it rarely finishes a deal)."""

from __future__ import annotations

import random

from freecell_arena.engine import Board, Move
from freecell_arena_client.bot import Bot


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose_move(self, board: Board) -> Move | None:
        moves = list(board.legal_moves)
        return self.rng.choice(moves) if moves else None
