"""The games in memory by id: the one writer of which games this process holds.

A game enters memory when a change that deals it is stored (a race begins, a daily starts) or when the store
brings it back by replay; it leaves with its room, or with its idle player. A game's own moves are its own
(`PlayerGame`): this module only says which games are here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TypeVar, overload

from freecell_arena.core.live.player_game import PlayerGame

T = TypeVar("T")


class Games(Mapping[str, PlayerGame]):
    def __init__(self) -> None:
        self._games: dict[str, PlayerGame] = {}

    def __getitem__(self, game_id: str) -> PlayerGame:
        return self._games[game_id]

    @overload
    def get(self, game_id: str, /) -> PlayerGame | None: ...
    @overload
    def get(self, game_id: str, /, default: PlayerGame | T) -> PlayerGame | T: ...

    def get(self, game_id: str, /, default: object = None) -> object:
        """The dict's own `get`: Mapping's is interpreted Python around `__getitem__` and a KeyError, and core
        reads this once or twice a move (compiled callers: the lookup was most of their cost)."""
        return self._games.get(game_id, default)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._games

    @property
    def by_id(self) -> Mapping[str, PlayerGame]:
        """The dict itself, read-only by type: what compiled core looks an id up in (`SharedState`)."""
        return self._games

    def __iter__(self) -> Iterator[str]:
        return iter(self._games)

    def __len__(self) -> int:
        return len(self._games)

    def add(self, game: PlayerGame) -> PlayerGame:
        """A dealt game, once stored: the copy already here wins (a re-read brought the same game meanwhile)."""
        return self._games.setdefault(game.game_id, game)

    def replace(self, game: PlayerGame) -> None:
        """The store's copy of a game (replayed) replaces the one here."""
        self._games[game.game_id] = game

    def drop(self, game_id: str) -> None:
        self._games.pop(game_id, None)
