"""Print, a line a step, what the engine did with seeded games: the test that compares the compiled and the
interpreted builds (tests/test_build.py) runs this once with each and compares the two texts line by line.

    python3 tests/engine_trace.py --games 40 --steps 150

Each game is a variant, a seed and a random generator seeded from both. At each step the game is offered, in
text notation, a legal move (most of the time), an undo, or a move drawn from every move the board could name,
legal or not; the line says what came back: the turn (concrete move, autoplay, undone moves, revealed), or the
refusal's code and message; then the position (`Board.key()`), the counts, the outcome and the legal moves
listed. A few deals are solved too, with a node limit (the same nodes and solution, not the same seconds).
Nothing here is timed; the line says only what a player or a bot could see.
"""

from __future__ import annotations

import argparse
import random

from freecell_arena.build import running_build
from freecell_arena.engine import (
    CELL,
    FOUNDATION,
    TABLEAU,
    UNDO,
    VARIANTS,
    Board,
    EngineError,
    Game,
    Move,
    Variant,
    format_move,
)
from freecell_arena.engine.solver.solve import solve


def any_move(board: Board, rng: random.Random) -> Move:
    """A move the notation can name, legal or not: from any zone and index to any zone and index."""
    variant = board.variant
    sizes = {TABLEAU: variant.columns, CELL: variant.cells, FOUNDATION: len(variant.foundation_suits)}
    source = rng.choice((TABLEAU, CELL))
    target = rng.choice((TABLEAU, CELL, FOUNDATION))
    count = rng.randint(1, 4) if source == TABLEAU and target == TABLEAU else 1
    return Move(source, rng.randrange(sizes[source]), target, rng.randrange(sizes[target]), count)


def play(variant: Variant, seed: int, steps: int) -> list[str]:
    rng = random.Random(f"{variant.id}:{seed}")
    game = Game(variant, seed, autoplay=rng.random() < 0.5, undo_allowed=True)
    lines = [f"{variant.id} {seed} autoplay={game.autoplay} opening={game.opening_autoplay}"]
    for _ in range(steps):
        legal = list(game.board.legal_moves)
        roll = rng.random()
        if roll < 0.1:
            action = UNDO
        elif roll < 0.3 or not legal:
            action = format_move(variant, any_move(game.board, rng))
        else:
            action = format_move(variant, rng.choice(legal))
        try:
            turn = game.act(action)
            said = f"turn {turn.action} {turn.move} auto={turn.autoplay} undone={turn.undone} revealed={turn.revealed}"
        except EngineError as error:
            said = f"refused {type(error).__name__} {getattr(error, 'code', '')} {error}"
        lines.append(f"{action}: {said} | {game.board.key()} {game.counts(0)} {game.outcome} legal={legal}")
        if game.outcome is not None:
            break
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per variant")
    parser.add_argument("--steps", type=int, default=150, help="actions offered per game, at most")
    parser.add_argument("--solves", type=int, default=3, help="deals solved per variant (node-limited)")
    arguments = parser.parse_args()
    print(f"# build {running_build()}")  # the only line that may differ between the two builds
    for variant in VARIANTS.values():
        for seed in range(1, arguments.games + 1):
            print("\n".join(play(variant, seed * 7919, arguments.steps)))
        for seed in range(1, arguments.solves + 1):
            found = solve(Board.deal(variant, seed), max_nodes=3000, budget=60)
            print(f"solve {variant.id} {seed}: {found.status} nodes={found.nodes} {found.notation}")


if __name__ == "__main__":
    main()
