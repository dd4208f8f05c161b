"""`hint(board_or_game, budget)`: the next move of a plan from the current position, from what the player sees;
`finish(game)`: the moves that win from here by sending cards home and nothing else (auto-finish).

Where no card is face down this is the first move of a certified solution. Where cards are face down (Cell
Eleven), the search runs on the player's view: every face-down card is the `UNKNOWN` blocker, and a position where
a card turns up is a leaf, because the player learns something there and the plan must be made again. The hint is
then the first move towards the win, or towards the most promising reveal. The real identity of a face-down card
is never read, so two games that look the same to the player get the same hint.
"""

from __future__ import annotations

from freecell_arena.engine import FOUNDATION, Board, Game, Move, safe_autoplay
from freecell_arena.engine.solver.certify import CertificationError, certify, engine_move
from freecell_arena.engine.solver.search import Status, best_first
from freecell_arena.engine.solver.state import rules_for, state_from_board

DEFAULT_HINT_BUDGET_SECONDS = 2.0


def hint(board_or_game: Board | Game, budget: float = DEFAULT_HINT_BUDGET_SECONDS) -> Move | None:
    """The move to play next, or None when the position is won or provably lost.

    When the budget runs out before a solution is found, the hint leads towards the most promising position
    the search reached (a hint is advice; `solve` is where certainty lives).
    """
    board = board_or_game.board if isinstance(board_or_game, Game) else board_or_game
    if board.is_won():
        return None
    rules = rules_for(board.variant)
    hides_cards = any(board.hidden)
    start = state_from_board(board, visible_only=True)
    found = best_first(rules, start, atomic=False, seconds=budget, stop_at_reveal=hides_cards)
    if found.status is Status.UNSOLVABLE:
        return None
    if found.status is Status.SOLVED and not hides_cards:
        try:
            return certify(board, found.path).moves[0]
        except CertificationError:
            pass  # a solver bug: fall through to the plain first step, which is still checked below
    probe = board.copy(stack=False)
    pending = safe_autoplay(probe)
    if pending:
        return pending[0]
    if not found.path:
        return None
    move = probe.check(engine_move(probe, found.path[0]))
    return move if board.is_legal(move) else None


def finish(game: Game) -> list[Move] | None:
    """The player moves that win from here by sending one card home after another, each followed by the
    game's own autoplay (so each is legal when played in turn), or None when the position cannot be won that way (a
    card must still move elsewhere first, or a card is face down). The game is played forward: give it a copy.

    Why only foundation moves: auto-finish plays out a game that is decided, the chore at the end; choosing any
    other move would be playing for the player (that is what a hint is for)."""
    if any(game.board.hidden):
        return None
    moves: list[Move] = []
    while not game.board.is_won():
        home = next((move for move in game.board.legal_moves if move.to_zone == FOUNDATION), None)
        if home is None:
            return None
        turn = game.play(home)
        moves.append(turn.move or home)
    return moves
