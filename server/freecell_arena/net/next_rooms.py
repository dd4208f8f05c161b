"""Before `race_again` and `quick_race` reach core: what the store says of where players go next.

Another process may have opened the series' next room, or the variant's filling quick race: the store's pointer
is read, the room it names brought into memory (by replay, as for a join by code) and core told. Core then joins
that room instead of opening another; if the pointer moves meanwhile, core's compare-and-set is refused and the
request comes back here first (`Connection` prepares again before handling it again).
"""

from __future__ import annotations

from freecell_arena.core.seams import NextRooms, StoredCopies
from freecell_arena.core.server_store import ServerStore
from freecell_arena.net.restore import adopt_room
from freecell_arena.protocol.rooms import QuickRaceRequest, RaceAgainRequest
from freecell_arena.protocol.vocabulary import CLOSED
from freecell_arena.protocol.wire import Message

NEXT_ROOM_REQUESTS = (RaceAgainRequest, QuickRaceRequest)


async def prepare_next_room(
    next_rooms: NextRooms, copies: StoredCopies, store: ServerStore, room_code: str | None, request: Message
) -> None:
    """`room_code`: the requester's room now (a finished race, for `race_again`)."""
    if isinstance(request, RaceAgainRequest) and room_code is not None:
        stored = await store.room_by_code(room_code)
        if stored is not None:
            if stored.next_code is not None:
                await _hold(copies, store, stored.next_code)
            uncounted = await store.uncounted_in_race(stored.room.room_id)  # what the series' tally leaves out
            next_rooms.know_next_room(room_code, stored.next_code, uncounted)  # the compare-and-set's expected value
    elif isinstance(request, QuickRaceRequest):
        code = await store.quick_room(request.variant)
        if code is not None:
            await _hold(copies, store, code)
            next_rooms.know_quick_room(request.variant, code)


async def _hold(copies: StoredCopies, store: ServerStore, code: str) -> None:
    if copies.holds_room(code):
        return
    stored = await store.room_by_code(code)
    if stored is not None and stored.status != CLOSED:
        await adopt_room(copies, store, stored)
