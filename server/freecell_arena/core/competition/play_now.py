"""Play now: the quick races filling now, as a first visit sees them, and when the house bot may join one.

A first visit should show a game, not a form: the landing page lists each variant's quick race with who is
waiting, and its "Play now" joins the FreeCell one at once. Nobody waiting is the common case on a quiet server,
so a player alone in a quick race's lobby may ask for the house bot (`race_bot`): the server's own client of the
protocol (net/house_bots.py runs one of the SDK's bots over loopback), which joins like any player, on the bots'
ladder, and the race starts by itself as with any second player. The page offers it after the server's
`house_bot_after_s` alone, and Play now asks for it at once when nobody is waiting.

Pure: the store's rooms in, views and refusals out.
"""

from __future__ import annotations

from datetime import datetime

from freecell_arena.core.effects import Refusal
from freecell_arena.core.ports.records import StoredRoom
from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.protocol.rooms import QuickRaceView
from freecell_arena.protocol.vocabulary import COUNTDOWN, LOBBY, PLAYER


def waiting(room: StoredRoom) -> int:
    return sum(member.role == PLAYER for member in room.members)


def filling(room: StoredRoom | None, now: datetime) -> StoredRoom | None:
    """The room if it still takes players: a lobby, or a countdown not over yet, not full."""
    if room is None or not room.room.quick:
        return None
    full = waiting(room) >= int(room.room.options.get("max_players", 8))
    if full or room.status not in (LOBBY, COUNTDOWN):
        return None
    if room.status == COUNTDOWN and (room.started_at is None or room.started_at <= now):
        return None
    return room


def quick_race_view(variant: str, room: StoredRoom | None, now: datetime) -> QuickRaceView:
    """A variant's quick race as the landing page shows it."""
    open_room = filling(room, now)
    if open_room is None:
        return QuickRaceView(variant=variant, code=None, players=0, starts_at=None)
    starts_at = open_room.started_at if open_room.status == COUNTDOWN else None
    return QuickRaceView(variant=variant, code=open_room.room.code, players=waiting(open_room), starts_at=starts_at)


def house_bot_room(room: StoredRoom | None, requester: str) -> str:
    """The code of the quick race the house bot may join for `requester`: theirs, waiting, with them alone."""
    if room is None:
        raise Refusal(ErrorCode.not_in_room, "the house bot joins a quick race you wait in: press Quick race first")
    if not room.room.quick:
        raise Refusal(ErrorCode.invalid_message, "the house bot joins quick races only: invite a friend or a bot "
                      "of your own to this room")  # fmt: skip
    if room.status != LOBBY:
        raise Refusal(ErrorCode.room_started, "this quick race is starting already")
    players = [member.player_id for member in room.members if member.role == PLAYER]
    if players != [requester]:
        raise Refusal(ErrorCode.invalid_message, "someone else is here to race you: the house bot stays out")
    return room.room.code
