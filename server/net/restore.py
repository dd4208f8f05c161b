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
        stored_room = await store.room(room_id) if room_id else None
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

