"""The games in memory by id: the one writer of which games this process holds.

A game enters memory when a change that deals it is stored (a race begins, a daily starts) or when the store
brings it back by replay; it leaves with its room, or with its idle player. A game's own moves are its own
(`PlayerGame`): this module only says which games are here.
"""

from __future__ import annotations

from freecell_arena.core.live.dict_view import DictView
from freecell_arena.core.live.player_game import PlayerGame


class Games(DictView[str, PlayerGame]):
    def __init__(self) -> None:
        self._games: dict[str, PlayerGame] = {}
        super().__init__(self._games)

    def add(self, game: PlayerGame) -> PlayerGame:
        """A dealt game, once stored: the copy already here wins (a re-read brought the same game meanwhile)."""
        return self._games.setdefault(game.game_id, game)

    def replace(self, game: PlayerGame) -> None:
        """The store's copy of a game (replayed) replaces the one here."""
        self._games[game.game_id] = game

    def drop(self, game_id: str) -> None:
        self._games.pop(game_id, None)
