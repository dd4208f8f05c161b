"""Bring stored games and rooms back into memory: read the store, then let core replay them.

Runs when this process does not hold what a request names: a returning player (after a restart, or a player
of another process), a replay of an older game, a room joined by code. Never on the path of a move.
"""

from __future__ import annotations

from freecell_arena.core.identity import normalize_room_code
from freecell_arena.core.ports.records import PlayerRecord, Store, StoredGame, StoredRoom
from freecell_arena.core.seams import StoredCopies
from freecell_arena.core.server_store import ServerStore
from freecell_arena.protocol.play import ReplayRequest
from freecell_arena.protocol.rooms import JoinRoomRequest
from freecell_arena.protocol.vocabulary import CLOSED
from freecell_arena.protocol.wire import Message


async def restore_player(copies: StoredCopies, store: ServerStore, record: PlayerRecord) -> None:
    copies.adopt_player(record)
    for live_room in await store.live_rooms_of(record.player_id):  # a lobby or countdown they sit in
        await adopt_room(copies, store, live_room)
    for stored in await store.unfinished_games(record.player_id):
        if copies.holds_game(stored.game.game_id):
            continue
        room_id = stored.game.room_id
        stored_room = await store.room(room_id) if room_id else None
        if stored_room is None:
            copies.adopt_game(stored)
        else:
            await adopt_room(copies, store, stored_room)


async def adopt_room(copies: StoredCopies, store: Store, stored_room: StoredRoom) -> None:
    if copies.holds_room_id(stored_room.room.room_id):
        return
    games, players = await load_room(store, stored_room)
    copies.adopt_room(stored_room, games, players)


async def load_room(store: Store, stored_room: StoredRoom) -> tuple[list[StoredGame], list[PlayerRecord]]:
    """A stored room's games (with their moves) and the identities of its members and players."""
    games: list[StoredGame] = []
    for game_id in stored_room.game_ids:
        game = await store.game(game_id)
        if game is not None:
            games.append(game)
    player_ids = dict.fromkeys([*(game.game.player_id for game in games), *(m.player_id for m in stored_room.members)])
    players: list[PlayerRecord] = []
    for player_id in player_ids:
        player = await store.player(player_id)
        if player is not None:
            players.append(player)
    return games, players


RESTORES_FOR = (ReplayRequest, JoinRoomRequest)
"""The requests that may name something this process does not hold."""


async def restore_for(copies: StoredCopies, store: Store, request: Message) -> None:
    """Load what `request` names when this process does not hold it (no-op otherwise)."""
    if isinstance(request, ReplayRequest) and not copies.holds_game(request.game_id):
        stored = await store.game(request.game_id)
        if stored is None:
            return
        room = await store.room(stored.game.room_id) if stored.game.room_id else None
        if room is not None:
            await adopt_room(copies, store, room)
        elif copies.knows(stored.game.player_id) or await _adopt_owner(copies, store, stored):
            copies.adopt_stored_game(stored)
    elif isinstance(request, JoinRoomRequest):
        code = normalize_room_code(request.code)
        if copies.holds_room(code):
            return
        stored_room = await store.room_by_code(code)
        if stored_room is not None and stored_room.status != CLOSED:
            await adopt_room(copies, store, stored_room)


async def _adopt_owner(copies: StoredCopies, store: Store, stored: StoredGame) -> bool:
    player = await store.player(stored.game.player_id)
    if player is not None:
        copies.adopt_player(player)
    return player is not None
