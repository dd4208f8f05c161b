"""What a bot author writes: one method that looks at the board and returns a move.

    class MyBot(Bot):
        def choose_move(self, board: Board) -> Move | str | None:
            return next(iter(board.legal_moves), None)

`board` is an engine `Board` rebuilt from the server's player view (face-down cards are placeholders that
never move), so `board.legal_moves`, `board.copy()`, `push`/`pop` and the solver all work on it; the bot may
change it freely. Return an engine `Move`, a move in notation text (`"3a"`, `"t3-c1"`), or None to resign.
`choose_move` runs in a worker thread, so a bot may think for seconds while the connection stays alive.
"""

from __future__ import annotations

from freecell_arena.engine import Board, Move
from freecell_arena.protocol.board import GameView
from freecell_arena.protocol.play import GameOverMessage
from freecell_arena.protocol.rooms import RaceOverMessage


class Bot:
    name = "bot"

    def choose_move(self, board: Board) -> Move | str | None:
        """The move to play on `board` (None resigns)."""
        raise NotImplementedError

    def on_game_start(self, game: GameView) -> None:
        """A race started (or a game in progress was resumed after a reconnect)."""

    def on_game_over(self, game_over: GameOverMessage) -> None:
        """This bot's game ended."""

    def on_race_over(self, race_over: RaceOverMessage) -> None:
        """The whole race ended: the standings are in."""
