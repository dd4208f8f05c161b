"""`GET /api/players/{player_id}/games`: a player's public finished games as NDJSON, a page at a time.

The lines are `freecell-arena export`'s (`core.moderation.exported`), from the same reads, so the API and a dump agree;
only what anyone may replay is there (`store.exports.public`). Pages go back in time: the next starts before the last
game's `(finished_at, id)`, named in the `Link` header.
"""

from __future__ import annotations

from datetime import datetime
from urllib.parse import quote, urlencode

from freecell_arena.core.clock import Clock
from freecell_arena.core.effects import Refusal
from freecell_arena.core.moderation.exported import disclosure, exported
from freecell_arena.core.server_store import ServerStore
from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.protocol.export import PlayerGamesQuery
from freecell_arena.protocol.wire import encode


class PlayerGames:
    def __init__(self, store: ServerStore, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    async def page(self, query: PlayerGamesQuery) -> tuple[bytes, str | None]:
        """The page's body (NDJSON) and the next page's `Link` value (None: this is the last)."""
        before: tuple[datetime, str] | datetime | None = query.before
        if query.before is not None and query.before.tzinfo is None:
            raise Refusal(ErrorCode.invalid_message, "`before` needs its UTC offset (2026-12-01T00:00:00+00:00)")
        if query.before_id is not None:
            if query.before is None:
                raise Refusal(ErrorCode.invalid_message, "`before_id` goes with `before`")
            before = (query.before, query.before_id)
        if await self.store.player(query.player_id) is None:
            raise Refusal(ErrorCode.unknown_player, f"there is no player {query.player_id!r}")
        rows, more = await self.store.exports.newest(disclosure(self.clock.now()), query.player_id, query.limit,
                                                     before)  # fmt: skip
        sanctions = await self.store.exports.sanctions()
        body = "".join(encode(exported(row, sanctions)) + "\n" for row in rows).encode()
        last = rows[-1].game if rows and more else None
        if last is None or last.result is None:
            return body, None
        cursor = urlencode({"before": last.result.finished_at.isoformat(), "before_id": last.game.game_id,
                            "limit": query.limit})  # fmt: skip
        return body, f'</api/players/{quote(query.player_id, safe="")}/games?{cursor}>; rel="next"'
