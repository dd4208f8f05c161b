"""Bring a returning player's games back into memory: read the store, then let core replay them.

Runs only on `hello` with a token for a player this process does not hold (after a restart, or a player
of another process); never on the path of a move.
"""

from __future__ import annotations

from server.core.arena import Arena
from server.core.ports import PlayerRecord, Store


async def restore_player(arena: Arena, store: Store, record: PlayerRecord) -> None:
    arena.adopt_player(record)
    for stored in await store.unfinished_games(record.player_id):
        if stored.game.game_id in arena.games:
            continue
        room_id = stored.game.room_id
        stored_room = await _room(store, room_id) if room_id else None
        if stored_room is None:
            arena.adopt_game(stored)
            continue
        games = []
        players: list[PlayerRecord] = []
        for game_id in stored_room.game_ids:
            game = await store.game(game_id)
            if game is None:
                continue
            games.append(game)
            player = await store.player(game.game.player_id)
            if player is not None:
                players.append(player)
        arena.adopt_room(stored_room, games, players)


async def _room(store: Store, room_id: str):  # type: ignore[no-untyped-def]
    """`Store.room` was added to the port after the first store; an older store just lacks it."""
    lookup = getattr(store, "room", None)
    return await lookup(room_id) if lookup is not None else None
