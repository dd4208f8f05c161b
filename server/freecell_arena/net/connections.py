"""Every greeted connection of this process, by player: one seat per identity.

A player who says hello with their token on a new connection takes over: the older connection is closed with
`CLOSE_REPLACED` (in a cluster, on every process: the bridge tells the others).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from freecell_arena.net.connection import CLOSE_REPLACED, CLOSE_REVOKED, Connection

Spawn = Callable[[Coroutine[Any, Any, None]], None]
"""Runs a coroutine in the background, where shutdown waits for it."""


class ConnectionHolder:
    def __init__(self, spawn: Spawn) -> None:
        self.by_player: dict[str, Connection] = {}
        self._spawn = spawn

    def __len__(self) -> int:
        return len(self.by_player)

    def remember(self, connection: Connection) -> None:
        assert connection.player_id is not None
        self.by_player[connection.player_id] = connection

    def forget(self, connection: Connection) -> None:
        if connection.player_id and self.by_player.get(connection.player_id) is connection:
            del self.by_player[connection.player_id]

    def drop(self, player_id: str, reason: str, keep: Connection | None = None) -> None:
        """Close the player's connection here (unless it is `keep`): they connected again."""
        old = self.by_player.get(player_id)
        if old is not None and old is not keep:
            self._spawn(old.close(CLOSE_REPLACED, reason))

    def close_tokens(self, player_id: str, token_hashes: frozenset[str]) -> None:
        """Close the player's connection if its hello's token is one of `token_hashes` (revoked)."""
        connection = self.by_player.get(player_id)
        if connection is not None and connection.token_hash in token_hashes:
            self._spawn(connection.close(CLOSE_REVOKED, "this session was revoked: sign in again"))

    def close_player(self, player_id: str, code: int, reason: str) -> None:
        """Close the player's connection here, whatever its token (a ban)."""
        connection = self.by_player.get(player_id)
        if connection is not None:
            self._spawn(connection.close(code, reason))

    async def close_all(self, code: int, reason: str) -> None:
        await asyncio.gather(
            *(connection.close(code, reason) for connection in list(self.by_player.values())), return_exceptions=True
        )
