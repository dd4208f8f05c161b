"""Turn a search path into engine moves and prove it on a real engine `Board` before anyone sees it.

The search runs on the solver's own `State`; nothing it says is trusted. The path is played on a copy of the
engine board with `Board.play` (full validation), the engine's own `safe_autoplay` supplies the foundation moves
the search took as macros (emitted as explicit moves, because `replay` applies exactly what it is given), and then
the notation of every move is parsed back and replayed once more on a fresh copy. Only a path that ends in a won
board survives; anything else is reported as a solver bug, never as a solution.
"""

from __future__ import annotations

from dataclasses import dataclass

from freecell_arena.engine import (
    CELL,
    FOUNDATION,
    TABLEAU,
    Board,
    EngineError,
    Move,
    format_move,
    parse_move,
    safe_autoplay,
    single_card_moves,
)
from freecell_arena.engine.solver.state import SolverMove


class CertificationError(Exception):
    """The search produced a path the engine refuses or that does not win: a solver bug, never shown as a result."""


@dataclass(frozen=True, slots=True)
class CertifiedSolution:
    moves: tuple[Move, ...]
    """Every move in order, foundation moves included: what `freecell-arena replay` needs."""
    notation: tuple[str, ...]
    player_moves: int
    """Moves a player makes with safe autoplay on (multi-card moves count one): the par."""
    single_card_moves: int
    """The same moves counted one card at a time (autoplay's foundation moves not included)."""
    autoplay_moves: int
    """Safe foundation moves that autoplay would make on its own."""


def engine_move(board: Board, move: SolverMove) -> Move:
    """The engine move for a solver move on `board` (cell sources are found by card; targets resolved)."""
    from_zone, source, to_zone, target, count = move
    if from_zone == CELL:
        source = board.cells.index(source)
    if to_zone == TABLEAU:
        return Move(from_zone, source, TABLEAU, target, count)  # type: ignore[arg-type]  # the solver's zones are the engine's Zone values as plain ints
    return board.check(Move(from_zone, source, to_zone, None, 1))  # type: ignore[arg-type]  # the solver's zones are the engine's Zone values as plain ints


def certify(board: Board, path: list[SolverMove]) -> CertifiedSolution:
    """Replay `path` on copies of `board` and return the certified solution, or raise CertificationError."""
    variant = board.variant
    playing = board.copy(stack=False)
    moves: list[Move] = []
    player_moves = 0
    single = 0
    autoplay = safe_autoplay(playing)
    moves.extend(autoplay)
    autoplay_count = len(autoplay)
    try:
        for step in path:
            move = playing.check(engine_move(playing, step))
            if move.count > 1:
                assert move.to_index is not None, "a run always goes to a named column"
                other_empty = playing.tableau.count([]) - (0 if playing.tableau[move.to_index] else 1)
                single += single_card_moves(move.count, playing.cells.count(0), other_empty)
            else:
                single += 1
            player_moves += 1
            playing.play(move)
            moves.append(move)
            autoplay = safe_autoplay(playing)
            moves.extend(autoplay)
            autoplay_count += len(autoplay)
    except (EngineError, ValueError) as error:
        raise CertificationError(f"the engine refused move {len(moves) + 1} of the solver's path: {error}") from None
    if not playing.is_won():
        raise CertificationError("the solver's path does not win on the engine board")
    notation = tuple(format_move(variant, move) for move in moves)
    check_notation(board, notation)
    return CertifiedSolution(tuple(moves), notation, player_moves, single, autoplay_count)


def check_notation(board: Board, notation: tuple[str, ...]) -> None:
    """What `replay` does: parse every written move against the position and play it; it must end won."""
    replaying = board.copy(stack=False)
    try:
        for text in notation:
            replaying.play(parse_move(replaying.variant, text, replaying))
    except EngineError as error:
        raise CertificationError(f"the written solution does not replay: {error}") from None
    if not replaying.is_won():
        raise CertificationError("the written solution does not end won")


def is_foundation_move(move: Move) -> bool:
    return move.to_zone == FOUNDATION
