"""Engine speed per variant, printed beside the cost of one stdlib `json.loads` of a small move message.

    PYTHONPATH=. python3 bench/engine.py            # about a minute on two cores
    PYTHONPATH=. python3 bench/engine.py --quick    # fewer rounds, for a smoke run

For each variant a long game is recorded first: from a fixed seed, a depth-first walk that never repeats a position
(foundation moves first, then moves onto a card, then the rest at random; dead ends backed out of) leaves a legal
game of 600 moves. Then, on
every position of that game with the move the game played there:

- validate+apply: `Board.play(move)` (that is `check` then `push`) followed by `Board.pop()`, so the position stays
  the game's own; the figure includes the pop, so it overstates validate+apply alone;
- check: `Board.check(move)` alone (validation, nothing applied);
- listing: `list(board.legal_moves)` (every legal move, one representative per interchangeable target);

and once per round: replay, `Game.replay(variant, seed, actions)` of the whole recorded game from its notation (deal,
parse and validate every action). Every figure is the best of several rounds; the baseline is measured in the same
run, so the ratio holds on whatever machine runs it. The target is validate+apply <= 2 x json.loads.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
import timeit
from collections.abc import Callable
from dataclasses import dataclass

from freecell_arena.engine import FOUNDATION, TABLEAU, VARIANTS, Board, Game, Move, Variant, format_move

MOVE_MESSAGE = '{"type":"move","id":7,"move":"t3-c1"}'
GAME_LENGTH = 600
SEEDS = {"freecell": 1, "chinese-freecell": 11, "freecell-four-deck": 7, "cell-eleven": 3, "freecell-three-deck": 5}


@dataclass
class RecordedGame:
    variant: Variant
    seed: int
    moves: list[Move]
    actions: list[str]


def record_game(variant: Variant, seed: int, length: int) -> RecordedGame:
    """A long legal game: a depth-first walk that never returns to a position it has seen, trying foundation moves
    first, then moves onto a card, then the rest in random order, and backing out of dead ends. The moves left on
    its stack are a legal game that moves cards all over the board (runs, empty columns, cells, foundations)."""
    rng = random.Random(seed)
    board = Board.deal(variant, seed)
    seen = {board.key()}
    choices = [ordered(board, rng)]
    while choices and len(board.move_stack) < length:
        if not choices[-1]:
            choices.pop()
            if board.move_stack:
                board.pop()
            continue
        board.push(choices[-1].pop())
        if board.key() in seen:
            board.pop()
            continue
        seen.add(board.key())
        choices.append(ordered(board, rng))
    moves = list(board.move_stack)
    return RecordedGame(variant, seed, moves, [format_move(variant, move) for move in moves])


def ordered(board: Board, rng: random.Random) -> list[Move]:
    """The legal moves, the one to try first last (they are popped)."""
    moves = list(board.legal_moves)
    rng.shuffle(moves)
    def preference(move: Move) -> tuple[bool, bool]:
        return move.to_zone == FOUNDATION, move.to_zone == TABLEAU and bool(board.tableau[move.to_index])

    moves.sort(key=preference)
    return moves


def best_of(rounds: int, run: Callable[[], int]) -> float:
    """Best seconds per operation over `rounds`; `run` returns how many operations it timed."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        operations = run()
        best = min(best, (time.perf_counter() - start) / operations)
    return best


def per_position(game: RecordedGame, repeat: int, work: Callable[[Board, Move], None]) -> Callable[[], int]:
    """A round: walk the game; at each position run `work` `repeat` times, then play the game's move."""

    def round_() -> int:
        board = Board.deal(game.variant, game.seed)
        for move in game.moves:
            for _ in range(repeat):
                work(board, move)
            board.push(move)
        return repeat * len(game.moves)

    return round_


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds (a smoke run, noisier figures)")
    args = parser.parse_args()
    rounds = 3 if args.quick else 7
    repeat = 20 if args.quick else 100

    loads_number = 200_000
    json_loads = min(timeit.repeat(lambda: json.loads(MOVE_MESSAGE), number=loads_number, repeat=rounds))
    json_loads /= loads_number
    print(f"python {platform.python_version()} on {platform.machine()}; best of {rounds} rounds")
    print(f"baseline: json.loads({MOVE_MESSAGE!r}) = {json_loads * 1e6:.2f} us")
    print()
    header = (f"{'variant':<20} {'moves':>5} {'play+pop us':>11} {'x loads':>7} {'check us':>8} "
              f"{'listing us':>10} {'listed':>6} {'replay ms':>9} {'us/action':>9}")  # fmt: skip
    print(header)
    print("-" * len(header))
    for variant_id, variant in VARIANTS.items():
        game = record_game(variant, SEEDS[variant_id], GAME_LENGTH)

        def play_and_pop(board: Board, move: Move) -> None:
            board.play(move)
            board.pop()

        def listing(board: Board, move: Move) -> None:
            list(board.legal_moves)

        def replay(game: RecordedGame = game) -> int:
            Game.replay(game.variant, game.seed, game.actions)
            return 1

        # the walk itself (dealing, pushing the game's moves) is timed alone and taken off each figure
        walk = best_of(rounds, per_position(game, 1, lambda board, move: None))
        play_pop = best_of(rounds, per_position(game, repeat, play_and_pop)) - walk / repeat
        check = best_of(rounds, per_position(game, repeat, lambda board, move: board.check(move))) - walk / repeat
        list_repeat = max(repeat // 10, 1)
        listed = best_of(rounds, per_position(game, list_repeat, listing)) - walk / list_repeat
        replayed = best_of(rounds, replay)
        average_listed = sum(
            len(list(board.legal_moves)) for board in positions(game)
        ) / len(game.moves)  # fmt: skip
        print(f"{variant_id:<20} {len(game.moves):>5} {play_pop * 1e6:>11.2f} {play_pop / json_loads:>7.2f} "
              f"{check * 1e6:>8.2f} {listed * 1e6:>10.1f} {average_listed:>6.1f} {replayed * 1e3:>9.2f} "
              f"{replayed / len(game.actions) * 1e6:>9.1f}")  # fmt: skip
    print()
    print("play+pop: Board.play (check + push) then Board.pop, per move of the recorded game; target <= 2 x loads")


def positions(game: RecordedGame):
    board = Board.deal(game.variant, game.seed)
    for move in game.moves:
        yield board
        board.push(move)


if __name__ == "__main__":
    main()
