"""One move of look-ahead: play the legal move whose resulting position scores best, never one seen before.

The score rewards cards on foundations, free cells and empty columns, face-down cards turned up, and cards
sitting in proper runs; it punishes cards piled on the ones the foundations need next. Remembering the
positions already played keeps it from shuffling a card back and forth forever; when every move leads back to
a known position it plays a random one.
"""

from __future__ import annotations

import random

from freecell_arena.engine import Board, Move, safe_autoplay
from freecell_arena.protocol.board import GameView
from freecell_arena_client.bot import Bot


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.seen: set[tuple[object, ...]] = set()

    def on_game_start(self, game: GameView) -> None:
        self.seen.clear()

    def choose_move(self, board: Board) -> Move | None:
        self.seen.add(board.key())
        moves = list(board.legal_moves)
        if not moves:
            return None
        best: tuple[float, Move] | None = None
        for move in moves:
            after = board.copy(stack=False)
            after.push(move)
            safe_autoplay(after)
            key = after.key()
            if key in self.seen:
                continue
            value = score(after) + self.rng.random()  # random tie-break
            if best is None or value > best[0]:
                best = (value, move)
        if best is None:
            return self.rng.choice(moves)
        return best[1]


def score(board: Board) -> float:
    variant = board.variant
    value = 100.0 * board.cards_on_foundations
    value += 6.0 * board.cells.count(0) + 12.0 * board.tableau.count([])
    value -= 20.0 * sum(board.hidden)
    wanted = set()
    for slot, suit in enumerate(variant.foundation_suits):
        on = board.foundations[slot]
        if on < 13 * variant.foundation_laps:
            wanted.add((on % 13 + 1) << 2 | suit)
    builds_on = variant.builds_on
    for index, column in enumerate(board.tableau):
        for depth, card in enumerate(column):
            if card in wanted:
                value -= 4.0 * (len(column) - depth - 1)
        run = 1
        while run < len(column) - board.hidden[index] and builds_on[column[-run]][column[-run - 1]]:
            run += 1
        value += 1.5 * run if column else 0.0
    return value
